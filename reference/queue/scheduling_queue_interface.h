// The scheduling queue as the scheduler sees it (upstream's `type SchedulingQueue interface`,
// pkg/scheduler/backend/queue/scheduling_queue.go): one interface with the v1.27 priority queue
// (scheduling_queue.h) and the v1.37 one (scheduling_queue_v1_37.h) behind it.
// NewSchedulingQueue (new_scheduling_queue.h) builds the one of a run's level. A caller talks to
// the queue only through this interface and never asks which level it has: where the levels'
// calls take different arguments, the call here carries what either needs (the v1.37 move reads
// the event's objects for queueing hints; both take a pre-check), and each queue uses its part.
//
// Single-threaded and non-blocking: Pop returns nullopt when nothing is poppable, and the periodic
// flushes run only when the owner calls them, every kBackoffQFlushPeriodNs and
// kUnschedulableFlushPeriodNs as upstream's Run does. Time comes only from the queue's Clock.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_INTERFACE_H_
#define SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_INTERFACE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reference/base/clock.h"
#include "reference/base/result.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/queue/nominator.h"

namespace schedcheck::reference {

// Upstream's Run: flushBackoffQCompleted every second, flushUnschedulablePodsLeftover every 30 s.
inline constexpr int64_t kBackoffQFlushPeriodNs = 1 * kNanosPerSecond;
inline constexpr int64_t kUnschedulableFlushPeriodNs = 30 * kNanosPerSecond;

// PreEnqueueCheck: which unschedulable pods a move may consider (null = all).
using PreEnqueueCheck = std::function<bool(const Pod&)>;

class SchedulingQueueInterface {
 public:
  virtual ~SchedulingQueueInterface() = default;

  // --- informer-driven operations ---
  // A new pending pod (timestamp = now).
  virtual void Add(PodPtr pod) = 0;
  // An update of a pending pod.
  virtual void Update(PodPtr old_pod, PodPtr new_pod) = 0;
  virtual void Delete(const Pod& pod) = 0;
  // The unschedulable pods passing `pre_check` that `event` may make schedulable move to activeQ
  // or backoffQ. `objects` are the event's old and new objects (v1.37's queueing hints read
  // them; v1.27 does not).
  virtual void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event, const EventObjects& objects,
                                             const PreEnqueueCheck& pre_check) = 0;
  // An assigned pod was added or updated (`event`: how the update was classified). v1.27 moves
  // only the unschedulable pods with a required affinity term the pod matches (AssignedPodAdded,
  // AssignedPodUpdated); v1.37's scheduler moves with the event instead (QueueingHints), and so
  // does its queue here: MoveAllToActiveOrBackoffQueue(AssignedPod/Add, or `event`, objects).
  virtual void AssignedPodAdded(const PodPtr& pod) = 0;
  virtual void AssignedPodUpdated(const PodPtr& old_pod, const PodPtr& new_pod,
                                  const ClusterEvent& event) = 0;

  // --- scheduler-driven operations ---
  // The next pod to schedule (Attempts++, schedulingCycle++, in flight from now on); nullopt
  // when nothing is poppable.
  virtual std::optional<QueuedPodInfo> Pop() = 0;
  // The failure requeue (AddUnschedulableIfNotPresent / AddUnschedulablePodIfNotPresent): `info`
  // carries the attempt's rejectors. Error (and the pod stays where it is) when the pod is
  // already queued. Ends the pod's flight.
  virtual Outcome AddUnschedulableIfNotPresent(QueuedPodInfo info,
                                               int64_t pod_scheduling_cycle) = 0;
  virtual int64_t SchedulingCycle() const = 0;
  // Pods in the unschedulable pool or backoffQ go to activeQ, in the given order; others are
  // ignored (v1.37 keeps an in-flight pod's activation for when it comes back).
  virtual void Activate(const std::vector<PodPtr>& pods) = 0;
  // The attempt of this in-flight pod ended without a requeue (bound, or dropped). Upstream
  // takes the UID (v1.37) or the pod (v1.27 keys it by namespace/name): the pod has both.
  virtual void Done(const Pod& pod) = 0;

  // --- periodic flushes ---
  virtual void FlushBackoffQCompleted() = 0;
  virtual void FlushUnschedulablePodsLeftover() = 0;

  // --- nominator (the PodNominator plugins read, and what the failure handler nominates) ---
  virtual Nominator& nominator() = 0;
  virtual const Nominator& nominator() const = 0;

  // --- introspection (upstream's PodsInActiveQ, PodsInBackoffQ, UnschedulablePods,
  // InFlightPods), as "namespace/name" keys ---
  virtual std::vector<std::string> ActiveQKeys() const = 0;        // pop order
  virtual std::vector<std::string> BackoffQKeys() const = 0;       // expiry order
  virtual std::vector<std::string> UnschedulableKeys() const = 0;  // visiting order
  virtual std::vector<std::string> InFlightKeys() const = 0;       // key order
  // The queued entry (activeQ, then backoffQ, then the unschedulable pool); null when absent.
  virtual const QueuedPodInfo* Find(const std::string& key) const = 0;
  virtual bool IsPodBackingOff(const QueuedPodInfo& info) const = 0;
  // Pods queued in activeQ, backoffQ and the unschedulable pool.
  virtual size_t Len() const = 0;
  // The first flush tick after `now_ns` (a multiple of kBackoffQFlushPeriodNs or
  // kUnschedulableFlushPeriodNs) at which a flush would move a pod if nothing else happened
  // before; nullopt when no flush would.
  virtual std::optional<int64_t> NextMoveInstantNs(int64_t now_ns) const = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_INTERFACE_H_
