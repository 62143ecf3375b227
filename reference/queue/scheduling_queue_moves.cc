// Moves out of the unschedulable pool (cluster events, assigned pods, timeouts), the backoff
// flush, Activate, and introspection.
#include <algorithm>

#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue.h"

namespace schedcheck::reference {
namespace {

namespace label = queue_label;
constexpr std::string_view kBackoff = "backoff";
constexpr std::string_view kUnschedulable = "unschedulable";

// The first tick of `period` strictly after `after`, and the first at or after `at`.
int64_t NextTick(int64_t after, int64_t period) { return (after / period + 1) * period; }
int64_t TickAtOrAfter(int64_t at, int64_t period) { return (at + period - 1) / period * period; }

ClusterEvent NamedEvent(std::string_view name) {
  std::optional<ClusterEvent> e = PredefinedClusterEvent(name);
  return *e;  // the names used here are predefined
}

}  // namespace

int64_t SchedulingQueue::BackoffDuration(int attempts) const {
  return CalculateBackoffDuration(options_.initial_backoff_ns, options_.max_backoff_ns, attempts);
}

int64_t SchedulingQueue::BackoffExpiryNs(const QueuedPodInfo& info) const {
  return info.timestamp_ns + BackoffDuration(info.attempts);
}

bool SchedulingQueue::IsPodBackingOff(const QueuedPodInfo& info) const {
  // Gated pods never went through a scheduling attempt for this wait: never backing off.
  if (info.gated) return false;
  return BackoffExpiryNs(info) > clock_.NowNs();
}

bool SchedulingQueue::PodMatchesEvent(const QueuedPodInfo& info, const ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const auto& [registered, plugin] : event_map_) {
    if (registered.Covers(event) && info.unschedulable_plugins.count(plugin) > 0) return true;
  }
  return false;
}

void SchedulingQueue::MovePodsToActiveOrBackoffQueue(const std::vector<std::string>& keys,
                                                     const ClusterEvent& event) {
  for (const std::string& key : keys) {
    auto it = unschedulable_.find(key);
    if (it == unschedulable_.end()) continue;
    // No rejector recorded = failed for a reason no event describes: any event moves it.
    if (!it->second.unschedulable_plugins.empty() && !PodMatchesEvent(it->second, event)) continue;
    QueuedPodInfo info = it->second;
    if (IsPodBackingOff(info)) {
      unschedulable_.erase(it);
      PushBackoff(std::move(info), kUnschedulable, event.label);
    } else if (AddToActiveQ(std::move(info), kUnschedulable, event.label)) {
      unschedulable_.erase(key);
    }
  }
  // Every move request counts, even one that moved nothing.
  move_request_cycle_ = scheduling_cycle_;
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(
    const ClusterEvent& event, const std::function<bool(const Pod&)>& pre_check) {
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    if (!pre_check || pre_check(info.pod())) keys.push_back(key);
  }
  MovePodsToActiveOrBackoffQueue(keys, event);
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                                    const EventObjects& /*objects*/,
                                                    const PreEnqueueCheck& pre_check) {
  MoveAllToActiveOrBackoffQueue(event, pre_check);
}

std::vector<std::string> SchedulingQueue::UnschedulableWithMatchingAffinityTerm(
    const Pod& pod) const {
  const Labels* ns_labels = objects_ ? objects_->NamespaceLabels(pod.ns()) : nullptr;
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    for (const AffinityTerm& term : info.info->required_affinity_terms) {
      if (term.Matches(pod, ns_labels)) {
        keys.push_back(key);
        break;
      }
    }
  }
  return keys;
}

void SchedulingQueue::AssignedPodAdded(const Pod& pod) {
  MovePodsToActiveOrBackoffQueue(UnschedulableWithMatchingAffinityTerm(pod),
                                 NamedEvent(label::kAssignedPodAdd));
}

void SchedulingQueue::AssignedPodUpdated(const Pod& pod) {
  // The in-place-resize branch of v1.27 needs the InPlacePodVerticalScaling gate (alpha, off).
  MovePodsToActiveOrBackoffQueue(UnschedulableWithMatchingAffinityTerm(pod),
                                 NamedEvent(label::kAssignedPodUpdate));
}

void SchedulingQueue::AssignedPodUpdated(const PodPtr& /*old_pod*/, const PodPtr& new_pod,
                                         const ClusterEvent& /*event*/) {
  AssignedPodUpdated(*new_pod);
}

void SchedulingQueue::FlushBackoffQCompleted() {
  while (const QueuedPodInfo* head = backoff_.Peek()) {
    if (IsPodBackingOff(*head)) break;
    std::optional<QueuedPodInfo> info = backoff_.Pop();
    AddToActiveQ(std::move(*info), kBackoff, label::kBackoffComplete);
  }
}

void SchedulingQueue::FlushUnschedulablePodsLeftover() {
  const int64_t now = clock_.NowNs();
  std::vector<std::string> keys;
  for (const auto& [key, info] : unschedulable_) {
    if (now - info.timestamp_ns > options_.max_in_unschedulable_ns) keys.push_back(key);
  }
  // Upstream only issues the move (and so only bumps moveRequestCycle) when something is due.
  if (!keys.empty()) MovePodsToActiveOrBackoffQueue(keys, NamedEvent(label::kUnschedulableTimeout));
}

bool SchedulingQueue::ActivateOne(const Pod& pod) {
  if (active_.Contains(pod.key)) return false;
  std::string_view from = kUnschedulable;
  QueuedPodInfo info;
  if (auto it = unschedulable_.find(pod.key); it != unschedulable_.end()) {
    info = it->second;
  } else if (const QueuedPodInfo* b = backoff_.Get(pod.key)) {
    info = *b;
    from = kBackoff;
  } else {
    return false;  // unknown or in flight: ignored in v1.27
  }
  PodInfoPtr pod_info = info.info;
  if (!AddToActiveQ(std::move(info), from, label::kForceActivate)) return false;
  unschedulable_.erase(pod.key);
  backoff_.Delete(pod.key);
  nominator_.AddNominatedPod(pod_info, std::nullopt);
  return true;
}

void SchedulingQueue::Activate(const std::vector<PodPtr>& pods) {
  for (const PodPtr& pod : pods) ActivateOne(*pod);
}

std::vector<std::string> SchedulingQueue::ActiveQKeys() const {
  std::vector<std::string> out;
  for (const QueuedPodInfo* info : active_.Ordered()) out.push_back(info->pod().key);
  return out;
}

std::vector<std::string> SchedulingQueue::BackoffQKeys() const {
  std::vector<std::string> out;
  for (const QueuedPodInfo* info : backoff_.Ordered()) out.push_back(info->pod().key);
  return out;
}

std::vector<std::string> SchedulingQueue::UnschedulableKeys() const {
  std::vector<std::string> out;
  for (const auto& [key, info] : unschedulable_) out.push_back(key);
  return out;
}

std::vector<std::string> SchedulingQueue::InFlightKeys() const {
  return {in_flight_.begin(), in_flight_.end()};
}

const QueuedPodInfo* SchedulingQueue::Find(const std::string& key) const {
  if (const QueuedPodInfo* info = active_.Get(key)) return info;
  if (const QueuedPodInfo* info = backoff_.Get(key)) return info;
  auto it = unschedulable_.find(key);
  return it == unschedulable_.end() ? nullptr : &it->second;
}

std::optional<int64_t> SchedulingQueue::NextBackoffExpiryNs() const {
  const QueuedPodInfo* head = backoff_.Peek();
  if (head == nullptr) return std::nullopt;
  return BackoffExpiryNs(*head);
}

std::optional<int64_t> SchedulingQueue::NextMoveInstantNs(int64_t now_ns) const {
  std::optional<int64_t> next;
  auto earliest = [&next](int64_t t) { next = next ? std::min(*next, t) : t; };
  if (std::optional<int64_t> expiry = NextBackoffExpiryNs()) {
    // The flush at a tick releases pods whose backoff expired at or before it.
    earliest(std::max(NextTick(now_ns, kBackoffQFlushPeriodNs),
                      TickAtOrAfter(*expiry, kBackoffQFlushPeriodNs)));
  }
  for (const auto& [key, info] : unschedulable_) {
    if (info.gated) continue;
    // Moved by the first leftover tick T with T - timestamp > the timeout.
    const int64_t due =
        NextTick(info.timestamp_ns + options_.max_in_unschedulable_ns, kUnschedulableFlushPeriodNs);
    earliest(std::max(NextTick(now_ns, kUnschedulableFlushPeriodNs), due));
  }
  return next;
}

}  // namespace schedcheck::reference
