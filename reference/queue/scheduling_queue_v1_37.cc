// The v1.37 queue's pod lifecycle: construction, Add, Update, Delete, Pop, the failure requeue
// and Done. Moves, flushes, Activate and the sub-queue entries are in
// scheduling_queue_v1_37_moves.cc.
#include "reference/queue/scheduling_queue_v1_37.h"

#include <algorithm>
#include <limits>

#include "reference/queue/events.h"
#include "reference/queue/update_events.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// The first tick of `period` strictly after `after`, and the first at or after `at` (0 for
// `at` <= 0).
int64_t NextTick(int64_t after, int64_t period) { return (after / period + 1) * period; }
int64_t TickAtOrAfter(int64_t at, int64_t period) {
  if (at <= 0) return 0;
  return (at + period - 1) / period * period;
}

namespace label = queue_label;
constexpr std::string_view kNone = "none";
constexpr std::string_view kActive = "active";
constexpr std::string_view kBackoff = "backoff";
constexpr std::string_view kUnschedulable = "unschedulable";
constexpr std::string_view kInFlight = "inflight";

ClusterEvent Event(std::string_view resource, uint32_t action, std::string_view label = "") {
  return {std::string(resource), action, std::string(label)};
}

}  // namespace

namespace event_v1_37 {
ClusterEvent UnscheduledPodAdd() { return Event(resource::kUnscheduledPod, action::kAdd); }
ClusterEvent AssignedPodAdd() { return Event(resource::kAssignedPod, action::kAdd); }
ClusterEvent AssignedPodDelete() { return Event(resource::kAssignedPod, action::kDelete); }
ClusterEvent UnschedulableTimeout() {
  return Event(resource::kWildCard, action::kAllV1_37, label::kUnschedulableTimeout);
}
ClusterEvent ForceActivate() {
  return Event(resource::kWildCard, action::kAllV1_37, label::kForceActivate);
}
}  // namespace event_v1_37

std::string EventLabelV1_37(const ClusterEvent& event) {
  if (!event.label.empty()) return event.label;
  return event.resource + std::string(ActionNameV1_37(event.action));
}

SchedulingQueueV1_37::SchedulingQueueV1_37(QueueOptions options, const Clock& clock,
                                           QueueSetupV1_37 setup, int64_t epoch_ns,
                                           TransitionSink sink, Nominator::PodLookup pod_lookup)
    : options_(options),
      clock_(clock),
      setup_(std::move(setup)),
      epoch_ns_(epoch_ns),
      sink_(std::move(sink)),
      nominator_(std::move(pod_lookup)),
      active_(setup_.less),
      backoff_(
          [this](const QueuedPodInfo& a, const QueuedPodInfo& b) { return BackoffLess(a, b); }),
      error_backoff_([this](const QueuedPodInfo& a, const QueuedPodInfo& b) {
        return BackoffExpiryNs(a) < BackoffExpiryNs(b);  // nullopt sorts first
      }) {
  // buildEventMap: every event each plugin's hints are registered for.
  for (const auto& [name, profile] : setup_.profiles) {
    for (const auto& [event, fns] : profile.hints.entries()) {
      for (const QueueingHintFunction& fn : fns) plugin_events_[fn.plugin].push_back(event);
    }
  }
}

void SchedulingQueueV1_37::Emit(const std::string& key, std::string_view from, std::string_view to,
                                std::string_view cause) const {
  if (sink_ && from != to) sink_(key, from, to, cause);
}

void SchedulingQueueV1_37::Add(PodPtr pod) {
  QueuedPodInfo info;
  info.info = MakePodInfo(std::move(pod));
  info.signature = SignPod(info.pod());
  info.timestamp_ns = clock_.NowNs();
  // Recorded before the pod can be popped, gated or not.
  nominator_.AddNominatedPod(info.info, std::nullopt);
  (void)MoveToActiveQ(std::move(info), kNone, EventLabelV1_37(event_v1_37::UnscheduledPodAdd()),
                      false);
}

PodSignature SchedulingQueueV1_37::SignPod(const Pod& pod) const {
  return setup_.sign_pod ? setup_.sign_pod(pod) : nullptr;
}

void SchedulingQueueV1_37::Update(PodPtr old_pod, PodPtr new_pod) {
  // The pod itself changed: its events are on TargetPod. A classification error (a quantity
  // that does not parse) is taken as a plain update.
  Result<std::vector<ClusterEvent>> classified = PodSchedulingPropertiesChange(
      new_pod->obj, old_pod->obj, /*is_target_pod=*/true, setup_.pod_resource_gates);
  std::vector<ClusterEvent> events =
      classified.ok()
          ? *classified
          : std::vector<ClusterEvent>{Event(resource::kTargetPod, action::kUpdateV1_37)};
  const std::string& key = old_pod->key;
  if (in_flight_pods_.count(new_pod->uid()) > 0) {
    EventObjects objects;
    objects.old_pod = old_pod;
    objects.new_pod = new_pod;
    for (const ClusterEvent& e : events) in_flight_events_.push_back({"", e, objects});
    return;
  }
  for (PodHeap* heap : {&active_, &backoff_, &error_backoff_}) {
    const QueuedPodInfo* existing = heap->Get(key);
    if (existing == nullptr) continue;
    if (existing->pod().uid() != new_pod->uid()) break;  // Update fails: re-added below
    QueuedPodInfo info = *existing;  // in place: same sequence, timestamp and counts
    info.info = UpdatedPodInfo(info.info, new_pod);
    info.signature = SignPod(*new_pod);
    nominator_.UpdateNominatedPod(*old_pod, info.info);
    heap->AddOrUpdate(std::move(info));
    return;
  }
  if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
    if (it->second.pod().uid() == new_pod->uid()) {
      QueuedPodInfo& info = it->second;
      info.info = UpdatedPodInfo(info.info, new_pod);
      info.signature = SignPod(*new_pod);
      nominator_.UpdateNominatedPod(*old_pod, info.info);
      EventObjects objects;
      objects.old_pod = old_pod;
      objects.new_pod = new_pod;
      for (const ClusterEvent& e : events) {
        QueueingStrategy hint = IsWorthRequeuing(it->second, e, objects);
        if (hint == QueueingStrategy::kQueueSkip) continue;  // stays; tries the next event
        QueuedPodInfo moving = std::move(it->second);
        unschedulable_.erase(it);
        std::string_view queue =
            Requeue(std::move(moving), hint, kUnschedulable, EventLabelV1_37(e));
        if (queue == kActive || queue == kBackoff) break;
        it = unschedulable_.find(key);  // gated again: back in the pool
        if (it == unschedulable_.end()) break;
      }
      return;
    }
    // A different pod under the same name: upstream's Update fails and adds the new one.
  }
  Add(std::move(new_pod));
}

void SchedulingQueueV1_37::Delete(const Pod& pod) {
  nominator_.DeleteNominatedPodIfExists(pod);
  const std::string& key = pod.key;
  if (active_.Delete(key)) {
    Emit(key, kActive, kNone, label::kPodDelete);
  } else if (backoff_.Delete(key) || error_backoff_.Delete(key)) {
    Emit(key, kBackoff, kNone, label::kPodDelete);
  } else if (unschedulable_.erase(key) > 0) {
    Emit(key, kUnschedulable, kNone, label::kPodDelete);
  }
}

std::optional<QueuedPodInfo> SchedulingQueueV1_37::Pop() {
  while (true) {
    std::optional<QueuedPodInfo> info;
    std::string_view from = kActive;
    if (!active_.empty()) {
      info = active_.Pop();
    } else if (setup_.pop_from_backoff_q && !backoff_.empty()) {
      info = backoff_.Pop();  // PopFromBackoffQ: even before its backoff ends
      from = kBackoff;
    } else {
      return std::nullopt;
    }
    ++info->attempts;
    const std::string uid = info->pod().uid();
    if (in_flight_pods_.count(uid) > 0) continue;  // tracked twice: discarded, pop again
    in_flight_events_.push_back({uid, {}, {}});
    in_flight_pods_[uid] = std::prev(in_flight_events_.end());
    in_flight_keys_[uid] = info->pod().key;
    ++scheduling_cycle_;
    Emit(info->pod().key, from, kInFlight, label::kPop);
    return info;
  }
}

Outcome SchedulingQueueV1_37::AddUnschedulableIfNotPresent(QueuedPodInfo info,
                                                           int64_t /*pod_scheduling_cycle*/) {
  const std::string key = info.pod().key;
  const std::string uid = info.pod().uid();
  Outcome result = Outcome::Ok();
  if (unschedulable_.count(key) > 0) {
    result = Error{"Pod " + key + " is already present in unschedulable queue"};
  } else if (active_.Contains(key)) {
    result = Error{"Pod " + key + " is already present in the active queue"};
  } else if (backoff_.Contains(key) || error_backoff_.Contains(key)) {
    result = Error{"Pod " + key + " is already present in the backoff queue"};
  }
  if (!result) {
    Done(uid);
    return result;
  }
  if (info.unschedulable_plugins.empty() && info.pending_plugins.empty()) {
    ++info.consecutive_errors_count;  // an unexpected error, not a rejection
  } else {
    ++info.unschedulable_count;
    info.consecutive_errors_count = 0;
  }
  info.timestamp_ns = clock_.NowNs();
  info.flush_timestamp_ns.reset();
  QueueingStrategy hint = DetermineSchedulingHintForInFlightPod(info);
  (void)Requeue(std::move(info), hint, kInFlight, label::kScheduleAttemptFailure);
  Done(uid);
  return Outcome::Ok();
}

QueueingStrategy SchedulingQueueV1_37::DetermineSchedulingHintForInFlightPod(
    const QueuedPodInfo& info) const {
  if (info.unschedulable_plugins.empty() && info.pending_plugins.empty()) {
    return QueueingStrategy::kQueueAfterBackoff;
  }
  auto marker = in_flight_pods_.find(info.pod().uid());
  if (marker == in_flight_pods_.end()) return QueueingStrategy::kQueueAfterBackoff;
  QueueingStrategy strategy = QueueingStrategy::kQueueSkip;
  for (auto it = std::next(marker->second); it != in_flight_events_.end(); ++it) {
    if (!it->uid.empty()) continue;  // another pod's marker
    switch (IsWorthRequeuing(info, it->event, it->objects)) {
      case QueueingStrategy::kQueueSkip:
        continue;
      case QueueingStrategy::kQueueImmediately:
        return QueueingStrategy::kQueueImmediately;
      case QueueingStrategy::kQueueAfterBackoff:
        strategy = QueueingStrategy::kQueueAfterBackoff;
        if (info.pending_plugins.empty()) return strategy;
        break;
    }
  }
  return strategy;
}

void SchedulingQueueV1_37::Done(const std::string& uid) {
  auto it = in_flight_pods_.find(uid);
  if (it == in_flight_pods_.end()) return;
  in_flight_events_.erase(it->second);
  in_flight_pods_.erase(it);
  const std::string key = in_flight_keys_[uid];
  in_flight_keys_.erase(uid);
  // Events before the first remaining marker are needed by no in-flight pod.
  while (!in_flight_events_.empty() && in_flight_events_.front().uid.empty()) {
    in_flight_events_.pop_front();
  }
  if (Find(key) == nullptr) Emit(key, kInFlight, kNone, label::kDone);
}

void SchedulingQueueV1_37::AssignedPodAdded(const PodPtr& pod) {
  EventObjects objects;
  objects.new_pod = pod;
  MoveAllToActiveOrBackoffQueue(event_v1_37::AssignedPodAdd(), objects, nullptr);
}

void SchedulingQueueV1_37::AssignedPodUpdated(const PodPtr& old_pod, const PodPtr& new_pod,
                                              const ClusterEvent& event) {
  EventObjects objects;
  objects.old_pod = old_pod;
  objects.new_pod = new_pod;
  MoveAllToActiveOrBackoffQueue(event, objects, nullptr);
}

std::optional<int64_t> SchedulingQueueV1_37::NextMoveInstantNs(int64_t now_ns) const {
  int64_t next = kNever;
  if (std::optional<int64_t> expiry = NextBackoffExpiryNs()) {
    // A flush at tick T releases a pod whose (window-aligned) expiry is before truncate(T): T is
    // a second after the expiry at the earliest.
    int64_t release = *expiry == std::numeric_limits<int64_t>::min()
                          ? 0
                          : TickAtOrAfter(*expiry + kBackoffQFlushPeriodNs, kBackoffQFlushPeriodNs);
    next = std::max(NextTick(now_ns, kBackoffQFlushPeriodNs), release);
  }
  if (std::optional<int64_t> last = OldestUnschedulableActivityNs()) {
    // Moved by the first leftover tick T with T - last > the timeout (gated pods too, at 1.37);
    // the pod with the oldest `last` is due first.
    int64_t due = NextTick(*last + options_.max_in_unschedulable_ns, kUnschedulableFlushPeriodNs);
    next = std::min(next, std::max(NextTick(now_ns, kUnschedulableFlushPeriodNs), due));
  }
  if (next == kNever) return std::nullopt;
  return next;
}

}  // namespace schedcheck::reference
