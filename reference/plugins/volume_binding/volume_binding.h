// VolumeBinding (volumebinding/volume_binding.go, v1.27 and v1.37): a pod's PersistentVolumeClaims
// decide where it can run — bound claims by their PVs' node affinity, unbound WaitForFirstConsumer
// claims by the PVs a node could bind or the classes that can provision there. Reserve assumes
// the bindings; PreBind writes them through the Handle's VolumeApi and waits for the PV controller
// (without one, the first write fails as NotFound: docs/DEVIATIONS.md). v1.37 (VolumeBindingV1_37)
// scores the storage capacity left on a node (StorageCapacityScoring), no longer narrows the nodes
// in PreFilter, and has queueing hints.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/plugins/helper/shape_score.h"
#include "reference/plugins/volume_binding/binder.h"

namespace schedcheck::reference {

// VolumeBinding's cycle state (stateData upstream); the fast engine's form reads it too.
class VolumeBindingState final : public StateData {
 public:
  bool all_bound = false;
  // Null for a pod without claims (PreFilter's empty state).
  std::shared_ptr<volume_binding::PodVolumeClaims> claims;
  // Filter runs once per node and may not change the shared state: each node's result is kept
  // in a map the clones share, as upstream's stateData shares its map under a lock.
  std::shared_ptr<std::map<std::string, volume_binding::PodVolumes>> by_node =
      std::make_shared<std::map<std::string, volume_binding::PodVolumes>>();
  // PreBind's poll while the controllers answer later: the writes as the API server returned
  // them, and the looks taken so far. Null before PreBind has written.
  struct Poll {
    volume_binding::PodVolumes written;
    int64_t looks = 0;
  };
  std::shared_ptr<Poll> poll;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(*this);
  }
};

class VolumeBinding : public PreFilterPlugin,
                      public FilterPlugin,
                      public ScorePlugin,
                      public ReservePlugin,
                      public PreBindPlugin,
                      public EnqueueExtensions,
                      public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "VolumeBinding";
  static constexpr std::string_view kStateKey = "VolumeBinding";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  explicit VolumeBinding(const Handle& handle) : handle_(handle), binder_(handle, &cache_) {}
  std::string_view Name() const override { return kName; }
  // Skip (after writing an empty state) for a pod without claim or ephemeral volumes;
  // UnschedulableAndUnresolvable for a missing, lost or terminating claim, an ephemeral claim
  // not yet created or not the pod's, or an unbound Immediate claim; v1.27 narrows the nodes to
  // those the bound PVs name by hostname.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // UnschedulableAndUnresolvable with FindPodVolumes' reasons; keeps the node's PodVolumes.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // v1.27: 0 (it scores only with the VolumeCapacityPriority alpha gate). v1.37: the shape of
  // the utilization each storage class would have on the node, averaged over the classes.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override;
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override;
  // Skip when every volume is bound, else Success (an Error without the node's volumes).
  Status PreBindPreFlight(CycleState& state, const Pod& pod, const std::string& node) override;
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override;
  // StorageClass, PVC, PV, CSINode, CSIDriver, CSIStorageCapacity: Add | Update;
  // Node: Add | UpdateNodeLabel.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: CSIDriver only on Update, and hints for classes, claims, CSINodes, CSIDrivers and
  // capacities.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // Whether Score gives 0 on every node this cycle: always at v1.27; at v1.37 when the pod has no
  // unbound WaitForFirstConsumer claim (no node then has a binding or provision to score).
  bool ScoresZeroOnEveryNode(const CycleState& state) const;
  // Takes over another instance's arguments (the accelerator wraps a checked plain one).
  void CopyArgsFrom(const VolumeBinding& other) {
    scorer_ = other.scorer_;
    bind_timeout_seconds_ = other.bind_timeout_seconds_;
  }

 protected:
  // BindPodVolumes: bindAPIUpdate (the writes as the API server returned them in `written`),
  // then the wait for the controllers (checkBindings): decided at once, or Wait while they answer
  // later.
  Status BindPodVolumes(const Pod& pod, const volume_binding::PodVolumes& volumes,
                        volume_binding::PodVolumes* written) const;
  // One more look of the poll: Success when bound, Wait when not yet, Error at the bind timeout.
  Status LookAgain(const Pod& pod, const volume_binding::PodVolumes& written, int64_t* looks) const;
  std::string BindTimeoutMessage() const;

  const Handle& handle_;
  volume_binding::AssumeCache cache_;
  volume_binding::Binder binder_;
  // v1.37 only: the configured (or default) shape, scores scaled to 0..100.
  std::function<int64_t(int64_t)> scorer_;
  int64_t bind_timeout_seconds_ = 600;  // VolumeBindingArgs.bindTimeoutSeconds
};

// VolumeBinding at v1.37: the same plugin with a PreScore (the score runs for every pod while
// StorageCapacityScoring is on).
class VolumeBindingV1_37 : public VolumeBinding, public PreScorePlugin {
 public:
  using VolumeBinding::VolumeBinding;
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_
