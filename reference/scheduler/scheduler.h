// The Scheduler (pkg/scheduler: scheduler.go, eventhandlers.go, schedule_one.go): the cache and
// its snapshot, one framework per profile, the scheduling queue and its nominator, and the
// objects the informers hold; the informer event handlers (eventhandlers.cc,
// eventhandlers_v1_37.cc, eventhandlers_storage.cc) and ScheduleOne with its failure handler and
// binding cycle (schedule_one_cycles.cc, schedule_one_binding.cc).
//
// Time is the caller's. Upstream runs ScheduleOne in a loop and each binding cycle in a goroutine;
// here the driver (harness/replay) calls the steps at the instants it chooses: start a scheduling
// cycle, finish it, run the binding cycles that are due. The Scheduler reads time only from the
// Clock it is given. Its writes to the API server (a binding, a nominatedNodeName patch, a
// preemption victim's deletion) reach its own informers at once, as the replay conventions say
// (docs/FORMATS.md#replay-conventions).
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULER_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/pod_requests.h"
#include "reference/base/clock.h"
#include "reference/base/features.h"
#include "reference/cache/cache.h"
#include "reference/framework/handle.h"
#include "reference/queue/move_walk.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/queue/scheduling_queue_interface.h"
#include "reference/runtime/framework.h"
#include "reference/runtime/profile.h"
#include "reference/scheduler/eventhandlers.h"
#include "reference/scheduler/opportunistic_batch.h"
#include "reference/scheduler/pod_signatures.h"
#include "reference/scheduler/schedule_one.h"
#include "reference/scheduler/scheduling_cycle.h"

namespace schedcheck::reference {

struct SchedulerOptions {
  SchedulerConfiguration config;
  // The run's features: FeaturesFor(level, gates), built once by the caller (which reports a
  // refused gate). REQUIRED: there is no default level.
  std::optional<Features> features;
  // The plugin factories the profiles are built from. REQUIRED.
  const Registry* registry = nullptr;
  // schedulePod's engine (plain or fast; reference/engine). REQUIRED.
  std::unique_ptr<PodScheduler> pod_scheduler;
  int64_t epoch_unix_ns = 0;  // the wall-clock instant the clock's 0 stands for (plugins)
  // The API server VolumeBinding's PreBind writes to; null: none (writes fail as NotFound).
  VolumeApi* volume_api = nullptr;
  // How long after assume a binding cycle runs (the replay's bind latency).
  int64_t bind_latency_ns = 0;
  // v1.37: the walk the queue's moves make over its unschedulable pool (reference/engine's
  // MoveWalkFor); null = the plain walk.
  std::shared_ptr<const MoveWalk> move_walk;
};

// What the scheduler reports as it goes, for the caller's decision log. Any may be null.
struct SchedulerListener {
  TransitionSink queue_transition;  // the queue's moves
  // A scheduling attempt's outcome (a failed binding cycle reports one of its own).
  std::function<void(const QueuedPodInfo& info, const CycleOutcome& outcome)> attempt;
  // A binding completed.
  std::function<void(const std::string& pod_key, const std::string& node)> bound;
  // A move request the handlers made, by its upstream event label (e.g. "NodeAdd").
  std::function<void(std::string_view event_label)> move_request;
  // The same move request with its event, for a caller that asks which plugins registered it.
  std::function<void(const ClusterEvent& event)> move_event;
};

class Scheduler {
 public:
  // scheduler.New: the profiles' frameworks, the queue the features call for, the nominator.
  // Errors name the profile or plugin that could not be built. REQUIRES: options.features,
  // options.registry and options.pod_scheduler set; `clock` outlives the Scheduler.
  static Result<std::unique_ptr<Scheduler>> New(SchedulerOptions options, const Clock& clock,
                                                SchedulerListener listener = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // --- the informers (eventhandlers*.cc) ---
  // A pod event as the pod informer delivers it: its store (the API server's view, which never
  // lags) is updated, then the assigned-pod handlers (the cache) or the pending-pod handlers (the
  // queue) run, as addAllEventHandlers' filters route it.
  void OnPod(WatchEvent type, PodPtr pod);
  void OnNode(WatchEvent type, NodePtr node);
  // GenericWorkload: a PodGroup as the informer delivers it, kept in the cache's pod groups
  // (schedule_one_waiting.cc). Only the cache's view: no move request follows.
  void OnPodGroup(WatchEvent type, const k8s::PodGroup& group);
  // Storage kinds: the informer's store, then the move upstream's handler makes when some
  // profile registered the kind with that action. The caller stamps resourceVersions.
  void OnPersistentVolume(WatchEvent type, k8s::PersistentVolume pv);
  void OnPersistentVolumeClaim(WatchEvent type, k8s::PersistentVolumeClaim claim);
  void OnStorageClass(WatchEvent type, k8s::StorageClass storage_class);
  void OnCSINode(WatchEvent type, k8s::CSINode csi_node);
  void OnCSIDriver(WatchEvent type, k8s::CSIDriver driver);
  void OnCSIStorageCapacity(WatchEvent type, k8s::CSIStorageCapacity capacity);
  // Dynamic Resource Allocation (eventhandlers_dra.cc): the store, then the move as for the
  // storage kinds. A trace's update of a claim the replay allocated keeps the replay's allocation
  // and the reservations of pods it still has (docs/FORMATS.md, "DRA objects in a replay").
  void OnResourceClaim(WatchEvent type, k8s::ResourceClaim claim);
  void OnResourceSlice(WatchEvent type, k8s::ResourceSlice slice);
  void OnDeviceClass(WatchEvent type, k8s::DeviceClass device_class);
  // Through the ResourceSlice tracker (reference/dra/device_taint_rules.h): slices are stored and
  // delivered with the rules' taints; a rule event delivers an update of each slice whose taints
  // it changes.
  void OnDeviceTaintRule(WatchEvent type, k8s::DeviceTaintRule rule);
  // Kinds only plugins read (no move request).
  void OnNamespace(WatchEvent type, const k8s::Namespace& ns);
  void OnPriorityClass(WatchEvent type, const k8s::PriorityClass& pc);
  void OnPodDisruptionBudget(WatchEvent type, const k8s::PodDisruptionBudget& pdb);
  void OnService(WatchEvent type, const k8s::Service& service);
  void OnReplicationController(WatchEvent type, const k8s::ReplicationController& rc);
  void OnReplicaSet(WatchEvent type, const k8s::ReplicaSet& rs);
  void OnStatefulSet(WatchEvent type, const k8s::StatefulSet& ss);

  // --- ScheduleOne in steps (schedule_one_cycles.cc) ---
  // ScheduleOne's first half: pops the next pod and runs its scheduling cycle (pods dropped
  // without an attempt are skipped); `after_schedule_pod` runs inside it, right after
  // SchedulePod. False when activeQ is empty. REQUIRES: no cycle in flight.
  bool StartSchedulingCycle(const std::function<void()>& after_schedule_pod = nullptr);
  bool scheduling_cycle_in_flight() const { return in_flight_ != nullptr; }
  // Its second half: the attempt is reported, then handleSchedulingFailure, or a binding cycle
  // that runs bind_latency_ns later (or at its Permit timeout). REQUIRES: a cycle in flight.
  void FinishSchedulingCycle();
  // The instant of the next binding cycle (or PreBind look) due, if any.
  std::optional<int64_t> NextBindingCycleNs() const;
  // Runs every binding cycle due now, earliest started first.
  void RunBindingCyclesDue();
  // Runs the binding cycles the last FinishSchedulingCycle started when they are due at once (no
  // bind latency, no Permit wait), as upstream's binding goroutine starts right away.
  void RunNewBindingCyclesDue();

  // The queue's periodic flushes (the driver's ticks).
  void FlushBackoffQCompleted();
  void FlushUnschedulablePodsLeftover();

  // --- what the informers hold, for the driver (the API server's model, admission) ---
  const ClusterObjects& objects() const { return objects_; }
  PodPtr GetPod(const std::string& key) const;     // by "ns/name"; null when not held
  NodePtr GetNode(const std::string& name) const;  // null when not held
  // The scheduling queue (NextMoveInstantNs tells the driver when a flush would move a pod).
  const SchedulingQueueInterface& queue() const { return *queue_; }

  // --- for drivers that look inside one decision (check, explain, the properties) ---
  // The framework of the profile named `scheduler_name` (upstream's Profiles[name]); null when
  // there is none.
  const Framework* FrameworkFor(std::string_view scheduler_name) const;
  // nodeInfoSnapshot as of the last UpdateSnapshot (every scheduling cycle starts with one).
  // What the run's level and gates switch on (options.features).
  const Features& features() const { return features_; }
  const Snapshot& snapshot() const { return snapshot_; }
  // Cache.UpdateSnapshot into nodeInfoSnapshot, as schedulePod does first.
  void UpdateSnapshot() { cache_.UpdateSnapshot(&snapshot_); }
  // SchedulePod (upstream's Scheduler.SchedulePod, whose default is schedulePod): the snapshot
  // updated, then the engine over the pod's profile. Nothing is assumed.
  // REQUIRES: a profile for pod.scheduler_name().
  ScheduleResult SchedulePod(CycleState& state, const Pod& pod);
  // schedulingCycle for a pod the driver hands over instead of one popped from the queue (as
  // upstream's tests set Scheduler.NextPod): the snapshot updated, SchedulePod, PostFilter on a
  // fit error, else assume (the pod is no longer nominated), Reserve and Permit. The outcome is
  // the caller's: no attempt is reported, no failure handled, no binding cycle started.
  // REQUIRES: a profile for pod->scheduler_name(); no cycle in flight.
  CycleOutcome SchedulingCycle(CycleState& state, const PodPtr& pod);
  // Replaces SchedulePod's engine (upstream's tests assign Scheduler.SchedulePod): the properties
  // make each decision with a fresh engine of a seed of their choosing. REQUIRES: engine set.
  void SetPodScheduler(std::unique_ptr<PodScheduler> engine);

 private:
  struct Profile {
    explicit Profile(const Features& features) : handle(features) {}
    Handle handle;
    std::unique_ptr<Framework> framework;
    // v1.37 with OpportunisticBatching, when the profile signs pods: its signer and its batch.
    std::optional<PodSigner> signer;
    std::unique_ptr<OpportunisticBatch> batch;
  };
  // The scheduling cycle in progress (only one at a time, as upstream).
  struct InFlight {
    QueuedPodInfo info;
    CycleOutcome outcome;
    std::unique_ptr<CycleState> state;
    Profile* profile = nullptr;
  };
  // An assumed pod whose binding cycle runs at `due_ns`.
  struct Binding {
    std::string key;
    PodPtr assumed;
    std::string node;
    std::shared_ptr<CycleState> state;
    Profile* profile = nullptr;
    int64_t due_ns = 0;
    QueuedPodInfo info;
    // Set when Permit made the pod wait (upstream's waitingPod): each plugin it still waits for
    // with that plugin's timeout, counted from wait_start_ns; the plugin whose timeout fires
    // first and that timeout; and when the binding would run without waiting. A plugin's Allow
    // (WaitingPods::Allow, from another pod's cycle) drops it; the last one lets the binding run.
    std::map<std::string, int64_t> pending_waits;
    int64_t wait_start_ns = 0;
    std::string waiting_plugin;
    int64_t wait_ns = 0;
    int64_t bind_due_ns = 0;
    // Allowed by the last pending plugin at this instant: RunNewBindingCyclesDue runs it too.
    bool allowed = false;
    // v1.37 (NominatedNodeNameForExpectation): RunPreBindPreFlights' status, and whether the
    // binding cycle wrote status.nominatedNodeName = node because PreBind or Permit will work.
    // The write reaches the informer when the cycle is over, as the adapters deliver writes.
    Status pre_flight;
    bool nominated_for_expectation = false;
    // PreBind returned Wait (it polls while the volume controllers answer later): at due_ns the
    // binding cycle resumes with PreBind's next look.
    bool in_pre_bind = false;
  };

  // The framework's waiting pods and Activate, as plugins reach them (Handle::waiting_pods):
  // schedule_one_waiting.cc.
  class WaitingPodsView final : public WaitingPods {
   public:
    explicit WaitingPodsView(Scheduler* s) : s_(s) {}
    bool Allow(const std::string& uid, std::string_view plugin) override;
    void Activate(const std::vector<PodPtr>& pods) override;

   private:
    Scheduler* s_;
  };
  // Sets the waiting plugin, its timeout and due_ns from b->pending_waits (ties: plugin name).
  static void UpdateWait(Binding* b);

  Scheduler(SchedulerOptions options, const Clock& clock, SchedulerListener listener);
  Outcome Init();
  Profile* ProfileFor(const Pod& pod);
  // The informer handlers of a queue with queueing hints (v1.37's eventhandlers.go: moves carry
  // the event's objects, pod updates are classified into events) and of one without (v1.27's).
  // SchedulerQueueingHints is locked at both levels, so this is the release's handler set.
  bool queueing_hints() const { return features_.scheduler_queueing_hints; }

  // eventhandlers.cc (without hints) and eventhandlers_v1_37.cc (with them), as eventhandlers.go
  // names them.
  void OnPodV1_27(const PodPtr& old, const PodPtr& pod);
  void AddPodToSchedulingQueue(const PodPtr& pod);
  // Both levels (the failure handler's and preemption's nominatedNodeName patches).
  void UpdatePodInSchedulingQueue(const PodPtr& old_pod, const PodPtr& new_pod);
  void AddPodToCache(const PodPtr& pod);
  void DeletePodFromCache(const PodPtr& pod);
  void OnNodeV1_27(WatchEvent type, const NodePtr& node);
  void MoveAll(const ClusterEvent& event,
               const std::function<bool(const Pod&)>& pre_check = nullptr);
  void OnPodV1_37(const PodPtr& old, const PodPtr& pod);
  void UpdatePodInSchedulingQueueV1_37(const PodPtr& old_pod, const PodPtr& new_pod);
  void DeletePodFromSchedulingQueueV1_37(const PodPtr& pod, bool in_binding);
  void HandleAssumedPodDeletionV1_37(const std::string& uid);
  void OnNodeV1_37(WatchEvent type, const NodePtr& node);
  void MoveAllV1_37(const ClusterEvent& event, const EventObjects& objects,
                    const PreEnqueueCheck& pre_check = nullptr);
  // eventhandlers_storage.cc: the move for a storage kind's event. `objects`: the event's old
  // and new objects (v1.37 queueing hints read them).
  void MoveForStorage(WatchEvent type, std::string_view resource, std::string_view short_name,
                      const k8s::StorageClass* added_class, const EventObjects& objects);
  // Stores a storage object (or removes it) and returns the event's objects as the informer
  // hands them over; then MoveForStorage. A delete of an object never held delivers nothing.
  template <typename Object>
  void OnStorageObject(WatchEvent type, Object object, bool namespaced,
                       std::map<std::string, Object, std::less<>>* store, std::string_view resource,
                       std::string_view short_name, const k8s::StorageClass* added_class = nullptr);

  // eventhandlers_dra.cc: DynamicResources' claim writes (Handle::dra_api). Each is stored at once;
  // DeliverClaimWrites hands their informer events to the queue, in write order.
  class ClaimApi final : public DraApi {
   public:
    explicit ClaimApi(Scheduler* scheduler) : scheduler_(scheduler) {}
    Result<k8s::ResourceClaim> UpdateResourceClaimStatus(const k8s::ResourceClaim& claim) override;

   private:
    Scheduler* scheduler_;
  };
  void DeliverClaimWrites();

  // schedule_one_cycles.cc: the failure handler and preemption's API effects.
  void HandleSchedulingFailure(const QueuedPodInfo& info, const CycleOutcome& outcome);
  void ApplyPreemption(const Pod& preemptor, const CycleOutcome& outcome);
  void ReportAttempt(const QueuedPodInfo& info, const CycleOutcome& outcome);
  // schedule_one_binding.cc. BindingCycle: runs a binding due now, from its start or, when it
  // waits in PreBind, its next look.
  void BindingCycle(Binding binding);
  void HandleBindingCycleError(const Binding& binding, const Status& status);
  // PreBind returned Wait: the binding looks again a poll interval later.
  void WaitInPreBind(Binding binding);
  // v1.37: delivers the binding cycle's nominatedNodeName patch after a failed binding.
  void ApplyExpectationNomination(const Binding& binding);
  // The API server's status patch of the pending pod `key`'s nominatedNodeName, seen back as an
  // update of the pending pod.
  void PatchNomination(const std::string& key, const std::string& node);

  SchedulerOptions options_;
  // *options_.features: what the run's level and gates switch on.
  const Features features_;
  const Clock& clock_;
  SchedulerListener listener_;
  Cache cache_;
  Snapshot snapshot_;
  ClusterObjects objects_;
  // The actions the profiles register per resource (upstream's unionedGVKs): which informer
  // handlers exist.
  std::map<std::string, uint32_t, std::less<>> registered_actions_;
  std::vector<std::unique_ptr<Profile>> profiles_;
  std::unique_ptr<SchedulingQueueInterface> queue_;  // NewSchedulingQueue's for features_
  std::map<std::string, PodPtr> pods_;               // by "ns/name": the pod informer's store
  // pods_ as the plugins' pod lister (Handle::pods).
  class PodStoreLister final : public PodLister {
   public:
    explicit PodStoreLister(const std::map<std::string, PodPtr>& pods) : pods_(pods) {}
    PodPtr Get(const std::string& key) const override {
      auto it = pods_.find(key);
      return it == pods_.end() ? nullptr : it->second;
    }

   private:
    const std::map<std::string, PodPtr>& pods_;
  };
  PodStoreLister pod_lister_{pods_};
  std::map<std::string, NodePtr> nodes_;  // by name: the node informer's store
  std::unique_ptr<InFlight> in_flight_;
  std::vector<Binding> bindings_;            // in start order
  std::set<std::string> async_preemptions_;  // v1.37: Handle::async_preemptions
  // The waiting pods and Activate (Handle::waiting_pods).
  WaitingPodsView waiting_pods_{this};
  ClaimApi claim_api_{this};
  // Claim events written by DynamicResources and not yet delivered: (old, new).
  std::vector<EventObjects> pending_claim_events_;
  // ResourceSlices as their drivers published them, by name (objects_ holds them with the
  // DeviceTaintRules' taints).
  std::map<std::string, k8s::ResourceSlice, std::less<>> published_slices_;
  // The claims (by "namespace/name") whose status.allocation is the replay's own.
  std::set<std::string> replay_allocated_claims_;
  // How pods' requests are counted under the run's gates (v1.37's update events, signatures).
  PodResourceGates pod_resource_gates_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULER_H_
