// The extension points of the scheduling framework (framework/interface.go), one small abstract
// class each. A plugin derives from every point it implements; the runtime discovers the points
// with dynamic_cast, as Go discovers them from the method set. Contracts are in the comments.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_INTERFACE_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_INTERFACE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <google/protobuf/message.h>

#include "reference/base/pool_allocator.h"
#include "reference/base/result.h"
#include "reference/framework/cycle_state.h"
#include "reference/framework/events.h"
#include "reference/framework/node_info.h"
#include "reference/framework/pod_info.h"
#include "reference/framework/status.h"

namespace schedcheck::reference {

inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;

class Plugin {
 public:
  virtual ~Plugin() = default;
  // The upstream name ("NodeResourcesFit"): decisions compare across builds by it.
  virtual std::string_view Name() const = 0;
};

// Runs before a pod enters activeQ. Any non-Success gates the pod.
class PreEnqueuePlugin : public virtual Plugin {
 public:
  virtual Status PreEnqueue(const Pod& pod) = 0;
};

// What the queue knows of a waiting pod, for QueueSort.
// A pod's scheduling signature (v1.37 frameworkImpl.SignPod): two pods with equal signatures are
// meant to fit and score alike on the same nodes. Null when the pod has none.
using PodSignature = std::shared_ptr<const std::string>;

struct QueuedPodInfo {
  PodInfoPtr info;
  int64_t timestamp_ns = 0;  // when it last entered the queue
  int64_t initial_attempt_timestamp_ns = 0;
  int attempts = 0;
  uint64_t sequence = 0;  // enqueue order, our deterministic tie-break
  std::set<std::string> unschedulable_plugins;
  bool gated = false;
  // v1.37 only (QueueingParams); the v1.27 queue leaves them at their defaults.
  std::set<std::string> pending_plugins;
  int unschedulable_count = 0;       // failures with rejecting plugins
  int consecutive_errors_count = 0;  // failures without, since the last one with
  std::string gating_plugin;         // the PreEnqueue plugin that gates the pod ("" = none)
  std::vector<ClusterEvent> gating_plugin_events;
  std::optional<int64_t> flush_timestamp_ns;  // the last leftover flush that moved it
  // v1.37 with OpportunisticBatching: the pod's signature as the queue last computed it (when the
  // pod entered the queue or an update reached it there; not when a failed attempt takes the
  // informer's newer copy). Null: the pod cannot be signed.
  PodSignature signature;
  const Pod& pod() const { return *info->pod; }
};

class QueueSortPlugin : public virtual Plugin {
 public:
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
};

// Node narrowing from PreFilter. `all_nodes` = no narrowing.
struct PreFilterResult {
  bool all_nodes = true;
  std::set<std::string> node_names;

  // Intersection; all_nodes is the identity.
  PreFilterResult Merge(const PreFilterResult& other) const;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  // Runs once per attempt. Success, Skip (v1.27: skip my Filter and AddPod/RemovePod), a
  // rejection (the pod is unschedulable on every node) or Error. May narrow the nodes.
  virtual Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) = 0;
  // PreFilterExtensions: incrementally update this plugin's state as if `pod_to_add` were on
  // (or `pod_to_remove` were gone from) `node`. Only called when HasPreFilterExtensions().
  virtual bool HasPreFilterExtensions() const { return false; }
  virtual Status AddPod([[maybe_unused]] CycleState& state,
                        [[maybe_unused]] const Pod& pod_to_schedule,
                        [[maybe_unused]] const PodInfo& pod_to_add,
                        [[maybe_unused]] const NodeInfo& node) {
    return Status();
  }
  virtual Status RemovePod([[maybe_unused]] CycleState& state,
                           [[maybe_unused]] const Pod& pod_to_schedule,
                           [[maybe_unused]] const PodInfo& pod_to_remove,
                           [[maybe_unused]] const NodeInfo& node) {
    return Status();
  }
};

class FilterPlugin : public virtual Plugin {
 public:
  // Success, Unschedulable, UnschedulableAndUnresolvable or Error. Must not mutate `node`.
  virtual Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) = 0;
};

struct NominatingInfo {
  enum class Mode { kNoop, kOverride };
  Mode mode = Mode::kNoop;
  std::string nominated_node_name;
};

struct PostFilterResult {
  NominatingInfo nominating_info;
  // API effects of a successful preemption, applied by the caller (replay engine) at the current
  // virtual time: the victims to delete, and lower-priority pods nominated to the chosen node
  // whose nomination is cleared.
  std::vector<PodPtr> victims;
  std::vector<PodPtr> clear_nomination;
};

// Node name -> the status of its failing filter (only rejected nodes are present). Map nodes
// come from a pool: a failing attempt makes one per rejected node and frees them soon after.
using NodeToStatus =
    std::map<std::string, Status, std::less<>, PoolAllocator<std::pair<const std::string, Status>>>;

class PostFilterPlugin : public virtual Plugin {
 public:
  // Runs after no node was feasible. Success = the pod may become schedulable (e.g. preemption
  // nominated a node); Unschedulable = this plugin could not help.
  virtual Status PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                            PostFilterResult* result) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  // Runs once before scoring with the feasible nodes. Success, Skip (v1.27) or Error.
  virtual Status PreScore(CycleState& state, const Pod& pod,
                          const std::vector<const NodeInfo*>& nodes) = 0;
};

// `name` views the NodeInfo's name (valid for the cycle): filling a list per cycle copies no
// strings.
struct NodeScore {
  std::string_view name;
  int64_t score = 0;
};
using NodeScoreList = std::vector<NodeScore>;

class ScorePlugin : public virtual Plugin {
 public:
  // A raw score for one feasible node; Error aborts the cycle.
  virtual Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                       int64_t* score) = 0;
  // ScoreExtensions: plugins that normalize return true and rewrite `scores` into [0, 100].
  virtual bool HasNormalizeScore() const { return false; }
  virtual Status NormalizeScore([[maybe_unused]] const CycleState& state,
                                [[maybe_unused]] const Pod& pod,
                                [[maybe_unused]] NodeScoreList& scores) {
    return Status();
  }
};

class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const Pod& pod, const std::string& node) = 0;
  // Must be idempotent; called in reverse order even for plugins whose Reserve never ran.
  virtual void Unreserve(CycleState& state, const Pod& pod, const std::string& node) = 0;
};

class PermitPlugin : public virtual Plugin {
 public:
  // Success, a rejection, or Wait with `*timeout_ns` (capped at 15 minutes by the runtime).
  virtual Status Permit(CycleState& state, const Pod& pod, const std::string& node,
                        int64_t* timeout_ns) = 0;
};

class PreBindPlugin : public virtual Plugin {
 public:
  // v1.37 PreBindPreFlight: Success when PreBind will do something for the pod on `node`, Skip
  // when it will not, or Error. Not called at v1.27.
  virtual Status PreBindPreFlight(CycleState& state, const Pod& pod, const std::string& node) = 0;
  // Wait (not upstream's: a replay's stand-in for a PreBind that blocks in a poll) means "not
  // done yet": the binding runs RunPreBindPlugins again a poll interval later
  // (kPreBindPollIntervalNs), and it resumes at this plugin. Only VolumeBinding returns it, while
  // the volume controllers answer later (VolumeApi::AnswersLater).
  virtual Status PreBind(CycleState& state, const Pod& pod, const std::string& node) = 0;
};

// The interval of a waiting PreBind's looks: upstream VolumeBinding polls every second.
inline constexpr int64_t kPreBindPollIntervalNs = 1'000'000'000;

class BindPlugin : public virtual Plugin {
 public:
  // Skip = not mine, try the next binder; anything else is final.
  virtual Status Bind(CycleState& state, const Pod& pod, const std::string& node) = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState& state, const Pod& pod, const std::string& node) = 0;
};

// EnqueueExtensions. A plugin that does not derive from this registers the backward-compatible
// default set (every event on Pod, Node, CSINode, PV, PVC, StorageClass); one that returns an
// empty list registers nothing.
class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEvent> EventsToRegister() const = 0;
};

// v1.37 QueueingHint (kube-scheduler/framework/types.go): whether an event may make a pod that
// this plugin rejected schedulable.
enum class QueueingHint { kQueueSkip, kQueue };

// The objects an event carries, as upstream's oldObj / newObj: Nodes for Node events, Pods for
// pod events; null where upstream passes nil (old for Add, new for Delete). Hint functions rely
// on the new object of an Add or Update and the old object of a Delete or Update being there, as
// upstream's do; the queue and the case runner guarantee it.
struct EventObjects {
  PodPtr old_pod;
  PodPtr new_pod;
  NodePtr old_node;
  NodePtr new_node;
  // A storage event's objects (PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
  // CSIDriver, CSIStorageCapacity). Hint functions read them through As<T>, as upstream's
  // util.As: an object of another kind is an error.
  std::shared_ptr<const google::protobuf::Message> old_object;
  std::shared_ptr<const google::protobuf::Message> new_object;
};

// util.As: the storage objects of `objects` as T (null where absent), or an error when one is of
// another kind.
template <typename T>
Result<std::pair<const T*, const T*>> As(const EventObjects& objects) {
  std::pair<const T*, const T*> typed{nullptr, nullptr};
  for (auto [object, out] : {std::pair{objects.old_object.get(), &typed.first},
                             std::pair{objects.new_object.get(), &typed.second}}) {
    if (object == nullptr) continue;
    *out = dynamic_cast<const T*>(object);
    if (*out == nullptr) {
      return Error{"expected " + T::descriptor()->name() + ", but got " +
                   object->GetDescriptor()->name()};
    }
  }
  return typed;
}

// QueueingHintFn for `pod` (the pod the plugin rejected). An error is counted as Queue by the
// queue, as upstream counts a hint function's error.
using QueueingHintFn = std::function<Result<QueueingHint>(const Pod& pod, const EventObjects&)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;  // empty: always Queue (upstream's nil QueueingHintFn)
};

// v1.37 EnqueueExtensions: the events a plugin registers, each with its hint function, as
// EventsToRegister returns them at v1.37.2 with the default feature gates.
class QueueingHintExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_INTERFACE_H_
