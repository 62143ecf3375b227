// Pod lifecycle operations of the scheduling queue: Add, Update, Delete, Pop, the failure
// requeue, and the test hooks. Moves, flushes and Activate are in scheduling_queue_moves.cc.
#include "reference/queue/scheduling_queue.h"

#include <google/protobuf/util/message_differencer.h>

#include "reference/queue/events.h"

namespace schedcheck::reference {
namespace {

namespace label = queue_label;
constexpr std::string_view kNone = "none";
constexpr std::string_view kActive = "active";
constexpr std::string_view kBackoff = "backoff";
constexpr std::string_view kUnschedulable = "unschedulable";
constexpr std::string_view kInFlight = "inflight";

// isPodUpdated: the objects differ in more than resourceVersion and status (upstream also
// blanks generation, managedFields and finalizers, which our Pod object does not carry).
bool IsPodUpdated(const Pod& old_pod, const Pod& new_pod) {
  k8s::Pod a = old_pod.obj;
  k8s::Pod b = new_pod.obj;
  for (k8s::Pod* p : {&a, &b}) {
    p->mutable_metadata()->clear_resource_version();
    p->clear_status();
  }
  return !google::protobuf::util::MessageDifferencer::Equals(a, b);
}

}  // namespace

int64_t CalculateBackoffDuration(int64_t initial_ns, int64_t max_ns, int attempts) {
  int64_t d = initial_ns;
  for (int i = 1; i < attempts; ++i) {
    // Compare by subtraction so that doubling never overflows.
    if (d > max_ns - d) return max_ns;
    d += d;
  }
  return d;
}

SchedulingQueue::SchedulingQueue(QueueOptions options, const Clock& clock, QueueHooks hooks,
                                 ClusterEventMap event_map, const ClusterObjects* objects,
                                 TransitionSink sink, Nominator::PodLookup pod_lookup)
    : options_(options),
      clock_(clock),
      hooks_(std::move(hooks)),
      event_map_(std::move(event_map)),
      objects_(objects),
      sink_(std::move(sink)),
      nominator_(std::move(pod_lookup)),
      active_(hooks_.less),
      backoff_([this](const QueuedPodInfo& a, const QueuedPodInfo& b) {
        return BackoffExpiryNs(a) < BackoffExpiryNs(b);
      }) {}

void SchedulingQueue::Emit(const std::string& key, std::string_view from, std::string_view to,
                           std::string_view cause) const {
  if (sink_ && from != to) sink_(key, from, to, cause);
}

QueuedPodInfo SchedulingQueue::NewQueuedPodInfo(PodPtr pod, int64_t timestamp_ns) const {
  QueuedPodInfo info;
  info.info = MakePodInfo(std::move(pod));
  info.timestamp_ns = timestamp_ns;
  return info;
}

bool SchedulingQueue::AddToActiveQ(QueuedPodInfo info, std::string_view from,
                                   std::string_view cause) {
  const std::string key = info.pod().key;
  Status s = hooks_.pre_enqueue ? hooks_.pre_enqueue(info.pod()) : Status();
  info.gated = !s.IsSuccess();
  if (info.gated) {
    // The gating plugin counts as a rejector, so only its events (or a wildcard) move the pod.
    if (!s.plugin().empty()) info.unschedulable_plugins.insert(s.plugin());
    unschedulable_[key] = std::move(info);
    Emit(key, from, kUnschedulable, cause);
    return false;
  }
  // v1.27: the first time the pod enters activeQ (metrics only).
  if (info.initial_attempt_timestamp_ns == 0) info.initial_attempt_timestamp_ns = clock_.NowNs();
  info.sequence = next_sequence_++;
  active_.AddOrUpdate(std::move(info));
  Emit(key, from, kActive, cause);
  return true;
}

void SchedulingQueue::PushBackoff(QueuedPodInfo info, std::string_view from,
                                  std::string_view cause) {
  const std::string key = info.pod().key;
  info.sequence = next_sequence_++;
  backoff_.AddOrUpdate(std::move(info));
  Emit(key, from, kBackoff, cause);
}

void SchedulingQueue::Add(PodPtr pod, std::optional<int64_t> timestamp_ns) {
  const std::string key = pod->key;
  QueuedPodInfo info = NewQueuedPodInfo(pod, timestamp_ns.value_or(clock_.NowNs()));
  PodInfoPtr pod_info = info.info;
  if (!AddToActiveQ(std::move(info), kNone, label::kPodAdd)) return;
  // A stale copy elsewhere should not exist; upstream logs and removes it.
  unschedulable_.erase(key);
  backoff_.Delete(key);
  nominator_.AddNominatedPod(pod_info, std::nullopt);
}

void SchedulingQueue::Update(PodPtr old_pod, PodPtr new_pod) {
  if (old_pod) {
    for (PodHeap* heap : {&active_, &backoff_}) {
      const QueuedPodInfo* existing = heap->Get(old_pod->key);
      if (existing == nullptr) continue;
      // Updated in place: sub-queue, timestamp, attempts and backoff unchanged.
      QueuedPodInfo info = *existing;
      info.info = UpdatedPodInfo(info.info, new_pod);
      nominator_.UpdateNominatedPod(*old_pod, info.info);
      heap->AddOrUpdate(std::move(info));
      return;
    }
  }
  if (auto it = unschedulable_.find(new_pod->key); it != unschedulable_.end()) {
    QueuedPodInfo info = it->second;
    const bool backing_off = IsPodBackingOff(it->second);
    info.info = UpdatedPodInfo(info.info, new_pod);
    nominator_.UpdateNominatedPod(old_pod ? *old_pod : *it->second.info->pod, info.info);
    if (!old_pod || IsPodUpdated(*old_pod, *new_pod)) {
      if (backing_off) {
        unschedulable_.erase(it);
        PushBackoff(std::move(info), kUnschedulable, label::kPodUpdate);
      } else if (AddToActiveQ(std::move(info), kUnschedulable, label::kBackoffComplete)) {
        // v1.27 labels this move "BackoffComplete", not "PodUpdate".
        unschedulable_.erase(new_pod->key);
      }
    } else {
      // Only status/resourceVersion changed: nothing that could make it schedulable.
      it->second = std::move(info);
    }
    return;
  }
  // In no sub-queue (e.g. in flight): a fresh entry, as for a new pod.
  QueuedPodInfo info = NewQueuedPodInfo(new_pod, clock_.NowNs());
  PodInfoPtr pod_info = info.info;
  if (AddToActiveQ(std::move(info), kNone, label::kPodUpdate)) {
    nominator_.AddNominatedPod(pod_info, std::nullopt);
  }
}

void SchedulingQueue::Delete(const Pod& pod) {
  nominator_.DeleteNominatedPodIfExists(pod);
  if (active_.Delete(pod.key)) {
    Emit(pod.key, kActive, kNone, label::kPodDelete);
    return;
  }
  if (backoff_.Delete(pod.key)) Emit(pod.key, kBackoff, kNone, label::kPodDelete);
  if (unschedulable_.erase(pod.key) > 0) Emit(pod.key, kUnschedulable, kNone, label::kPodDelete);
}

std::optional<QueuedPodInfo> SchedulingQueue::Pop() {
  std::optional<QueuedPodInfo> info = active_.Pop();
  if (!info) return std::nullopt;
  info->attempts++;
  scheduling_cycle_++;
  // v1.27: the next failure records its own rejectors.
  info->unschedulable_plugins.clear();
  in_flight_.insert(info->pod().key);
  Emit(info->pod().key, kActive, kInFlight, label::kPop);
  return info;
}

Outcome SchedulingQueue::AddUnschedulableIfNotPresent(QueuedPodInfo info,
                                                      int64_t pod_scheduling_cycle) {
  const std::string key = info.pod().key;
  const bool was_in_flight = in_flight_.erase(key) > 0;
  if (unschedulable_.count(key) > 0) {
    return Error{"pod " + key + " is already present in unschedulable queue"};
  }
  if (active_.Contains(key)) return Error{"pod " + key + " is already present in the active queue"};
  if (backoff_.Contains(key))
    return Error{"pod " + key + " is already present in the backoff queue"};

  info.timestamp_ns = clock_.NowNs();
  PodInfoPtr pod_info = info.info;
  std::string_view from = was_in_flight ? kInFlight : kNone;
  // A move request during this pod's cycle means the cluster changed under the attempt: back
  // off and retry instead of waiting for another event.
  if (move_request_cycle_ >= pod_scheduling_cycle) {
    PushBackoff(std::move(info), from, label::kScheduleAttemptFailure);
  } else {
    unschedulable_[key] = std::move(info);
    Emit(key, from, kUnschedulable, label::kScheduleAttemptFailure);
  }
  nominator_.AddNominatedPod(pod_info, std::nullopt);
  return Outcome::Ok();
}

void SchedulingQueue::Done(const std::string& pod_key) {
  if (in_flight_.erase(pod_key) > 0) Emit(pod_key, kInFlight, kNone, label::kDone);
}

void SchedulingQueue::PlaceInUnschedulable(PodPtr pod, std::set<std::string> plugins,
                                           int64_t timestamp_ns) {
  QueuedPodInfo info = NewQueuedPodInfo(pod, timestamp_ns);
  info.unschedulable_plugins = std::move(plugins);
  const std::string key = pod->key;
  unschedulable_[key] = std::move(info);
  Emit(key, kNone, kUnschedulable, label::kScheduleAttemptFailure);
}

void SchedulingQueue::PlaceInBackoff(PodPtr pod, int64_t timestamp_ns) {
  PushBackoff(NewQueuedPodInfo(pod, timestamp_ns), kNone, label::kScheduleAttemptFailure);
}

}  // namespace schedcheck::reference
