// The v1.37 scheduling queue (pkg/scheduler/backend/queue at v1.37.2, PriorityQueue with the
// default feature gates: QueueingHints, SchedulerPopFromBackoffQ on; no pod groups), for pods:
//
// - activeQ ordered by QueueSort; backoffQ as two heaps, one for pods some plugin rejected
//   (ordered by backoff expiry, then QueueSort) and one for pods that failed with an error
//   (ordered by expiry); the unschedulable pool.
// - Backoff from UnschedulableCount, or ConsecutiveErrorsCount while that is > 0; the expiry is
//   truncated to the 1 s ordering window; a pod backs off while expiry >= truncate(now).
// - Pop takes backoffQ's head when activeQ is empty (not from the error heap).
// - PreEnqueue runs on entry to activeQ, and on entry to backoffQ (so not again when a pod
//   moves from backoffQ to activeQ); a gated pod goes to the unschedulable pool, where only
//   its gating plugin's events (or a wildcard) reach it.
// - Requeueing asks the rejecting plugins' queueing hints (IsPodWorthRequeuing); events that
//   arrive while a pod is in flight are kept and replayed through the hints when it fails.
//
// Single-threaded and non-blocking like the v1.27 queue (scheduling_queue.h): Pop returns
// nullopt when nothing is poppable; the owner runs the flushes (backoff every whole second,
// leftover every 30 s). Ties: as in the v1.27 queue, by the enqueue number of the heap push.
// The unschedulable pool is visited in key order (the adapter sorts upstream's map the same way).
#ifndef SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_V1_37_H_
#define SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_V1_37_H_

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/pod_requests.h"
#include "reference/base/clock.h"
#include "reference/base/result.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/queue/move_walk.h"
#include "reference/queue/nominator.h"
#include "reference/queue/pod_heap.h"
#include "reference/queue/queueing_hint_map.h"
#include "reference/queue/scheduling_queue.h"

namespace schedcheck::reference {

// One PreEnqueue plugin of a profile.
struct PreEnqueueFunction {
  std::string plugin;
  std::function<Status(const Pod&)> fn;
};

// What the queue needs of one profile.
struct QueueProfileV1_37 {
  QueueingHintMap hints;
  // In plugin-name order. Upstream keeps them in a Go map (random order); the order matters
  // only when two plugins would gate the same pod.
  std::vector<PreEnqueueFunction> pre_enqueue;
};

struct QueueSetupV1_37 {
  std::function<bool(const QueuedPodInfo&, const QueuedPodInfo&)> less;  // QueueSort Less
  std::map<std::string, QueueProfileV1_37> profiles;                     // by scheduler name
  // The SchedulerPopFromBackoffQ gate (beta, on). Off: Pop never takes backoffQ's head, expiries
  // are not truncated to 1 s windows, backoffQ is ordered by expiry alone, and PreEnqueue runs
  // when a pod moves to activeQ rather than when it enters backoffQ.
  bool pop_from_backoff_q = true;
  // How a pod update is classified (PodSchedulingPropertiesChange's requests).
  PodResourceGates pod_resource_gates;
  // OpportunisticBatching (signPod): the pod's signature under its profile. Unset (gate off, or
  // no profile signs pods): every pod's signature is null.
  std::function<PodSignature(const Pod&)> sign_pod;
  // The walk a move makes over the unschedulable pool: null for the plain walk (the rule), or the
  // accelerator's (reference/engine's MoveWalkFor).
  std::shared_ptr<const MoveWalk> move_walk;
};

// A cluster event's queue-metric label (ClusterEvent.Label()): its own label, or the resource
// followed by the action's name ("NodeAdd", "AssignedPodDelete", "NodeUpdateNodeTaint").
std::string EventLabelV1_37(const ClusterEvent& event);

// The events upstream's queue and scheduler use (framework/events.go at v1.37.2).
namespace event_v1_37 {
ClusterEvent UnscheduledPodAdd();
ClusterEvent AssignedPodAdd();
ClusterEvent AssignedPodDelete();
ClusterEvent UnschedulableTimeout();
ClusterEvent ForceActivate();
}  // namespace event_v1_37

class SchedulingQueueV1_37 final : public SchedulingQueueInterface {
 public:
  // `epoch_ns` is the Unix time of virtual time 0: the ordering window is whole seconds of
  // Unix time, as upstream truncates wall-clock times.
  SchedulingQueueV1_37(QueueOptions options, const Clock& clock, QueueSetupV1_37 setup,
                       int64_t epoch_ns = 0, TransitionSink sink = nullptr,
                       Nominator::PodLookup pod_lookup = nullptr);
  SchedulingQueueV1_37(const SchedulingQueueV1_37&) = delete;
  SchedulingQueueV1_37& operator=(const SchedulingQueueV1_37&) = delete;

  // --- informer-driven operations ---
  void Add(PodPtr pod) override;
  // An unassigned pod's update (PriorityQueue.Update): recorded as in-flight events when the pod
  // is in flight, updated in place in activeQ/backoffQ, requeued from the pool when a
  // rejector's hint says so, added when absent.
  void Update(PodPtr old_pod, PodPtr new_pod) override;
  void Delete(const Pod& pod) override;
  // The unschedulable pods (passing `pre_check`, null = all) that the event may make
  // schedulable move to activeQ or backoffQ; the event is kept while any pod is in flight.
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event, const EventObjects& objects,
                                     const PreEnqueueCheck& pre_check) override;
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event, const EventObjects& objects) {
    MoveAllToActiveOrBackoffQueue(event, objects, nullptr);
  }
  // v1.37's scheduler (QueueingHints) moves on an assigned pod's add or update with
  // MoveAllToActiveOrBackoffQueue: AssignedPod/Add with the new pod, or the update's `event`
  // with both objects.
  void AssignedPodAdded(const PodPtr& pod) override;
  void AssignedPodUpdated(const PodPtr& old_pod, const PodPtr& new_pod,
                          const ClusterEvent& event) override;

  // --- scheduler-driven operations ---
  // activeQ's head, or backoffQ's when activeQ is empty: Attempts++, schedulingCycle++, in
  // flight from now on. nullopt when neither applies.
  std::optional<QueuedPodInfo> Pop() override;
  // True when Pop would take backoffQ's head.
  bool PopsFromBackoffQ() const {
    return setup_.pop_from_backoff_q && active_.empty() && !backoff_.empty();
  }
  bool Poppable() const { return !active_.empty() || PopsFromBackoffQ(); }
  // The failure requeue (AddUnschedulablePodIfNotPresent): `info` carries the attempt's
  // rejectors (unschedulable_plugins, pending_plugins; both empty for an error). Error when the
  // pod is already queued. Always ends the pod's flight.
  Outcome AddUnschedulableIfNotPresent(QueuedPodInfo info, int64_t pod_scheduling_cycle) override;
  int64_t SchedulingCycle() const override { return scheduling_cycle_; }
  // Pods in the pool or backoffQ go to activeQ; an in-flight pod gets a ForceActivate event.
  void Activate(const std::vector<PodPtr>& pods) override;
  // The attempt of the in-flight pod with this UID ended; events no in-flight pod needs go.
  void Done(const std::string& uid);
  void Done(const Pod& pod) override { Done(pod.uid()); }

  // --- periodic flushes ---
  void FlushBackoffQCompleted() override;
  void FlushUnschedulablePodsLeftover() override;

  // --- nominator (the PodNominator plugins read, and what the failure handler nominates) ---
  Nominator& nominator() override { return nominator_; }
  const Nominator& nominator() const override { return nominator_; }

  // --- introspection ---
  std::vector<std::string> ActiveQKeys() const override;  // pop order
  std::vector<std::string> BackoffQKeys()
      const override;  // the rejection heap, then the error heap
  std::vector<std::string> UnschedulableKeys() const override;  // namespace, then name
  // The earliest of the pool's pods' last entry or leftover-flush times (what the 30 s flush's
  // 5-minute timeout counts from); none for an empty pool.
  std::optional<int64_t> OldestUnschedulableActivityNs() const;
  std::vector<std::string> InFlightKeys() const override;  // key order
  size_t InFlightEventCount() const;
  // The queued entry (activeQ, backoffQ, then the pool); null when absent.
  const QueuedPodInfo* Find(const std::string& key) const override;
  // getBackoffTime: nullopt (Go's zero time, before everything) when the pod has no failures.
  std::optional<int64_t> BackoffExpiryNs(const QueuedPodInfo& info) const;
  bool IsPodBackingOff(const QueuedPodInfo& info) const override;
  // The earliest expiry in either backoff heap, for scheduling the next flush.
  std::optional<int64_t> NextBackoffExpiryNs() const;
  size_t Len() const override {
    return active_.size() + backoff_.size() + error_backoff_.size() + unschedulable_.size();
  }
  // The backoff flush tick that releases the earliest expiry (a second after its window), or the
  // leftover flush tick due for the pool's oldest activity (gated pods too, at 1.37).
  std::optional<int64_t> NextMoveInstantNs(int64_t now_ns) const override;

 private:
  // An entry of the in-flight list: a popped pod's marker (uid set) or an event.
  struct InFlightEntry {
    std::string uid;
    ClusterEvent event;
    EventObjects objects;
  };

  void RunPreEnqueuePlugins(QueuedPodInfo& info) const;
  bool MoveToActiveQ(QueuedPodInfo info, std::string_view from, std::string_view event,
                     bool moves_from_backoff);
  bool MoveToBackoffQ(QueuedPodInfo info, std::string_view from, std::string_view event);
  void AddToUnschedulable(QueuedPodInfo info, std::string_view from, std::string_view event);
  // requeuePodWithQueueingStrategy; returns the sub-queue the pod went to.
  std::string_view Requeue(QueuedPodInfo info, QueueingStrategy strategy, std::string_view from,
                           std::string_view event);
  // An entry of the pool (upstream's *QueuedPodInfo): valid until that pod leaves the pool.
  using PoolEntry = UnschedulablePool::iterator;
  // collectEntitiesToEvaluate for pods: the pool's pods that pass `pre_check` (null = all), in
  // the pool's order.
  std::vector<PoolEntry> CollectPodsToEvaluate(const PreEnqueueCheck& pre_check);
  // moveEntitiesToActiveOrBackoffQueue for pods: each of `pods` that the event may make
  // schedulable is requeued (requeuePodWithQueueingStrategy), in the given order.
  void MovePodsToActiveOrBackoffQueue(const std::vector<PoolEntry>& pods, const ClusterEvent& event,
                                      const EventObjects& objects);
  // MoveAllToActiveOrBackoffQueue's walk by the accelerator's `walk`.
  void MoveAllWith(const MoveWalk& walk, const ClusterEvent& event, const EventObjects& objects,
                   const PreEnqueueCheck& pre_check);
  // isPodWorthRequeuing for a queued pod, with its profile's hint map.
  QueueingStrategy IsWorthRequeuing(const QueuedPodInfo& info, const ClusterEvent& event,
                                    const EventObjects& objects) const;
  QueueingStrategy DetermineSchedulingHintForInFlightPod(const QueuedPodInfo& info) const;
  bool IsEventOfInterest(const ClusterEvent& event) const;
  PodSignature SignPod(const Pod& pod) const;
  void AddEventIfAnyInFlight(const ClusterEvent& event, const EventObjects& objects);
  int64_t AlignToWindow(int64_t t_ns) const;
  bool BackoffLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const;
  void Emit(const std::string& key, std::string_view from, std::string_view to,
            std::string_view cause) const;

  QueueOptions options_;
  const Clock& clock_;
  QueueSetupV1_37 setup_;
  int64_t epoch_ns_;
  TransitionSink sink_;
  Nominator nominator_;
  std::map<std::string, std::vector<ClusterEvent>> plugin_events_;  // buildEventMap

  PodHeap active_;
  PodHeap backoff_;
  PodHeap error_backoff_;
  UnschedulablePool unschedulable_;
  std::list<InFlightEntry> in_flight_events_;
  std::map<std::string, std::list<InFlightEntry>::iterator> in_flight_pods_;  // by UID
  std::map<std::string, std::string> in_flight_keys_;                         // UID -> key
  int64_t scheduling_cycle_ = 0;
  uint64_t next_sequence_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_V1_37_H_
