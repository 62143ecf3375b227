// The v1.27 scheduling queue (internal/queue/scheduling_queue.go PriorityQueue,
// docs/SEMANTICS.md#scheduling-queue-and-backoff): activeQ ordered by the QueueSort plugin,
// backoffQ ordered by backoff expiry, the unschedulable pool, the moveRequestCycle rule,
// cluster-event matching and the nominator.
//
// Single-threaded and non-blocking: Pop returns nullopt on an empty activeQ, and the periodic
// flushes run only when the owner calls them (replay: backoff every 1 s, leftover every 30 s).
// Time comes only from the Clock.
//
// Determinism: exact ties in activeQ (same QueueSort order) and backoffQ (same expiry) are broken
// by QueuedPodInfo::sequence, a counter value assigned each time a pod is pushed into activeQ or
// backoffQ (so FIFO among ties); the unschedulable pool is always iterated in key order.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_H_
#define SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/base/clock.h"
#include "reference/base/result.h"
#include "reference/framework/events.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/status.h"
#include "reference/queue/nominator.h"
#include "reference/queue/pod_heap.h"
#include "reference/queue/scheduling_queue_interface.h"

namespace schedcheck::reference {

struct QueueOptions {
  int64_t initial_backoff_ns = 1 * kNanosPerSecond;
  int64_t max_backoff_ns = 10 * kNanosPerSecond;
  int64_t max_in_unschedulable_ns = 300 * kNanosPerSecond;
};

// (registered event, plugin name) pairs; Framework::EventRegistrations() of every profile.
using ClusterEventMap = std::vector<std::pair<ClusterEvent, std::string>>;

// (pod key, from, to, cause): from/to in none|active|backoff|unschedulable|inflight, cause = the
// upstream metric label (docs/FORMATS.md#decision-logs).
using TransitionSink = std::function<void(const std::string& pod_key, std::string_view from,
                                          std::string_view to, std::string_view cause)>;

// The seams the queue needs from the profiles.
struct QueueHooks {
  std::function<bool(const QueuedPodInfo&, const QueuedPodInfo&)> less;  // QueueSort Less
  // PreEnqueue plugins of the pod's profile: Success, or the rejecting status (with its plugin).
  std::function<Status(const Pod&)> pre_enqueue;
};

// The backoff formula: initial doubled per attempt beyond the first, capped at max
// (calculateBackoffDuration; attempts <= 1 give `initial`).
int64_t CalculateBackoffDuration(int64_t initial_ns, int64_t max_ns, int attempts);

class SchedulingQueue final : public SchedulingQueueInterface {
 public:
  SchedulingQueue(QueueOptions options, const Clock& clock, QueueHooks hooks,
                  ClusterEventMap event_map, const ClusterObjects* objects = nullptr,
                  TransitionSink sink = nullptr, Nominator::PodLookup pod_lookup = nullptr);
  SchedulingQueue(const SchedulingQueue&) = delete;
  SchedulingQueue& operator=(const SchedulingQueue&) = delete;

  // --- informer-driven operations ---
  // A new pending pod. Timestamp = now, or `timestamp_ns` when given (tests).
  void Add(PodPtr pod) override { Add(std::move(pod), std::nullopt); }
  void Add(PodPtr pod, std::optional<int64_t> timestamp_ns);
  void Update(PodPtr old_pod, PodPtr new_pod) override;
  void Delete(const Pod& pod) override;
  // MoveAllToActiveOrBackoffQueue: the unschedulable pods passing `pre_check` (null = all).
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                     const std::function<bool(const Pod&)>& pre_check = nullptr);
  // The same; v1.27 reads no event objects.
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event, const EventObjects& objects,
                                     const PreEnqueueCheck& pre_check) override;
  // Unschedulable pods with a required pod-affinity term matching the assigned pod.
  void AssignedPodAdded(const Pod& pod);
  void AssignedPodUpdated(const Pod& pod);
  void AssignedPodAdded(const PodPtr& pod) override { AssignedPodAdded(*pod); }
  // v1.27 has one AssignedPodUpdate event: `event` and the old object are not read.
  void AssignedPodUpdated(const PodPtr& old_pod, const PodPtr& new_pod,
                          const ClusterEvent& event) override;

  // --- scheduler-driven operations ---
  // The activeQ head: Attempts++, schedulingCycle++, UnschedulablePlugins cleared (v1.27),
  // recorded as in flight. nullopt when activeQ is empty.
  std::optional<QueuedPodInfo> Pop() override;
  // The failure requeue. Error (and no change) when the pod is already in a sub-queue.
  Outcome AddUnschedulableIfNotPresent(QueuedPodInfo info, int64_t pod_scheduling_cycle) override;
  int64_t SchedulingCycle() const override { return scheduling_cycle_; }
  int64_t MoveRequestCycle() const { return move_request_cycle_; }
  // PodsToActivate: pods in the unschedulable pool or backoffQ go to activeQ (given order).
  void Activate(const std::vector<PodPtr>& pods) override;
  // The attempt of an in-flight pod ended without a requeue (bound, or dropped).
  void Done(const std::string& pod_key);
  void Done(const Pod& pod) override { Done(pod.key); }

  // --- periodic flushes ---
  void FlushBackoffQCompleted() override;
  void FlushUnschedulablePodsLeftover() override;

  // --- nominator (the PodNominator plugins read, and what the failure handler nominates) ---
  Nominator& nominator() override { return nominator_; }
  const Nominator& nominator() const override { return nominator_; }

  // --- test hooks (upstream tests write the sub-queues directly) ---
  // Into the unschedulable pool with 0 attempts and these rejecting plugins; no PreEnqueue.
  void PlaceInUnschedulable(PodPtr pod, std::set<std::string> plugins, int64_t timestamp_ns);
  // Into backoffQ with 0 attempts.
  void PlaceInBackoff(PodPtr pod, int64_t timestamp_ns);

  // --- introspection ---
  std::vector<std::string> ActiveQKeys() const override;        // pop order
  std::vector<std::string> BackoffQKeys() const override;       // expiry order
  std::vector<std::string> UnschedulableKeys() const override;  // key order
  std::vector<std::string> InFlightKeys() const override;       // key order
  bool InActiveQ(const std::string& key) const { return active_.Contains(key); }
  bool InBackoffQ(const std::string& key) const { return backoff_.Contains(key); }
  bool InUnschedulable(const std::string& key) const { return unschedulable_.count(key) > 0; }
  // The queued entry (activeQ, then backoffQ, then unschedulable pool); null when absent.
  const QueuedPodInfo* Find(const std::string& key) const override;
  int64_t BackoffDuration(int attempts) const;
  int64_t BackoffExpiryNs(const QueuedPodInfo& info) const;
  // Expiry of the backoffQ head, for scheduling the next flush; nullopt when empty.
  std::optional<int64_t> NextBackoffExpiryNs() const;
  bool IsPodBackingOff(const QueuedPodInfo& info) const override;
  size_t Len() const override { return active_.size() + backoff_.size() + unschedulable_.size(); }
  // The backoff flush tick that releases backoffQ's head, or the leftover flush tick that moves
  // the first non-gated pod of the pool (gated pods wait for their plugin's events).
  std::optional<int64_t> NextMoveInstantNs(int64_t now_ns) const override;

 private:
  QueuedPodInfo NewQueuedPodInfo(PodPtr pod, int64_t timestamp_ns) const;
  // Runs PreEnqueue; gated → the unschedulable pool (false), else pushed into activeQ (true).
  bool AddToActiveQ(QueuedPodInfo info, std::string_view from, std::string_view cause);
  void PushBackoff(QueuedPodInfo info, std::string_view from, std::string_view cause);
  void MovePodsToActiveOrBackoffQueue(const std::vector<std::string>& keys,
                                      const ClusterEvent& event);
  bool PodMatchesEvent(const QueuedPodInfo& info, const ClusterEvent& event) const;
  std::vector<std::string> UnschedulableWithMatchingAffinityTerm(const Pod& pod) const;
  bool ActivateOne(const Pod& pod);
  void Emit(const std::string& key, std::string_view from, std::string_view to,
            std::string_view cause) const;

  QueueOptions options_;
  const Clock& clock_;
  QueueHooks hooks_;
  ClusterEventMap event_map_;
  const ClusterObjects* objects_;
  TransitionSink sink_;
  Nominator nominator_;

  PodHeap active_;
  PodHeap backoff_;
  std::map<std::string, QueuedPodInfo> unschedulable_;
  std::set<std::string> in_flight_;
  int64_t scheduling_cycle_ = 0;
  int64_t move_request_cycle_ = -1;
  uint64_t next_sequence_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_SCHEDULING_QUEUE_H_
