// The v1.37 queue's moves: PreEnqueue, entry into each sub-queue, the requeue decision, moves on
// cluster events, Activate, the two flushes, backoff times and introspection.
#include <algorithm>
#include <limits>

#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue_v1_37.h"

namespace schedcheck::reference {
namespace {

namespace label = queue_label;
constexpr std::string_view kActive = "active";
constexpr std::string_view kBackoff = "backoff";
constexpr std::string_view kUnschedulable = "unschedulable";

}  // namespace

// --- PreEnqueue and the sub-queues ---

void SchedulingQueueV1_37::RunPreEnqueuePlugins(QueuedPodInfo& info) const {
  auto profile = setup_.profiles.find(info.pod().scheduler_name());
  // runPreEnqueuePlugin: a rejection makes the plugin a rejector and the gating plugin.
  auto gated_by = [&](const PreEnqueueFunction& pl) {
    if (pl.fn(info.pod()).IsSuccess()) return false;
    info.unschedulable_plugins.insert(pl.plugin);
    info.gating_plugin = pl.plugin;
    auto events = plugin_events_.find(pl.plugin);
    info.gating_plugin_events =
        events == plugin_events_.end() ? std::vector<ClusterEvent>{} : events->second;
    return true;
  };
  if (profile != setup_.profiles.end()) {
    const std::vector<PreEnqueueFunction>& plugins = profile->second.pre_enqueue;
    const std::string gating = info.gating_plugin;
    if (!gating.empty()) {
      // The gating plugin runs first.
      for (const PreEnqueueFunction& pl : plugins) {
        if (pl.plugin == gating && gated_by(pl)) {
          info.gated = true;
          return;
        }
      }
    }
    for (const PreEnqueueFunction& pl : plugins) {
      if (pl.plugin != gating && gated_by(pl)) {
        info.gated = true;
        return;
      }
    }
  }
  info.gating_plugin.clear();
  info.gating_plugin_events.clear();
  info.gated = false;
}

void SchedulingQueueV1_37::AddToUnschedulable(QueuedPodInfo info, std::string_view from,
                                              std::string_view event) {
  const std::string key = info.pod().key;
  const bool existed = unschedulable_.count(key) > 0;
  unschedulable_[key] = std::move(info);
  if (!existed) Emit(key, from, kUnschedulable, event);
}

bool SchedulingQueueV1_37::MoveToActiveQ(QueuedPodInfo info, std::string_view from,
                                         std::string_view event, bool moves_from_backoff) {
  // With SchedulerPopFromBackoffQ, PreEnqueue ran when the pod entered backoffQ.
  if (!(setup_.pop_from_backoff_q && moves_from_backoff)) RunPreEnqueuePlugins(info);
  const std::string key = info.pod().key;
  if (info.gated) {
    AddToUnschedulable(std::move(info), from, event);
    return false;
  }
  if (info.initial_attempt_timestamp_ns == 0) info.initial_attempt_timestamp_ns = clock_.NowNs();
  unschedulable_.erase(key);
  const QueuedPodInfo* existing = active_.Get(key);
  info.sequence = existing != nullptr ? existing->sequence : next_sequence_++;
  active_.AddOrUpdate(std::move(info));
  Emit(key, from, kActive, event);
  return true;
}

bool SchedulingQueueV1_37::MoveToBackoffQ(QueuedPodInfo info, std::string_view from,
                                          std::string_view event) {
  if (setup_.pop_from_backoff_q) RunPreEnqueuePlugins(info);  // on entry to backoffQ
  const std::string key = info.pod().key;
  if (info.gated) {
    AddToUnschedulable(std::move(info), from, event);
    return false;
  }
  unschedulable_.erase(key);
  // Pods without rejectors failed with an error: the error heap, never popped directly.
  const bool error = info.unschedulable_plugins.empty() && info.pending_plugins.empty();
  PodHeap& heap = error ? error_backoff_ : backoff_;
  PodHeap& other = error ? backoff_ : error_backoff_;
  const QueuedPodInfo* existing = heap.Get(key);
  info.sequence = existing != nullptr ? existing->sequence : next_sequence_++;
  heap.AddOrUpdate(std::move(info));
  if (other.Delete(key)) return true;  // moved between the heaps: not reported
  Emit(key, from, kBackoff, event);
  return true;
}

std::string_view SchedulingQueueV1_37::Requeue(QueuedPodInfo info, QueueingStrategy strategy,
                                               std::string_view from, std::string_view event) {
  if (strategy == QueueingStrategy::kQueueSkip) {
    AddToUnschedulable(std::move(info), from, event);
    return kUnschedulable;
  }
  // The backoff may have ended while the pod sat in the pool.
  if (strategy == QueueingStrategy::kQueueAfterBackoff && IsPodBackingOff(info)) {
    return MoveToBackoffQ(std::move(info), from, event) ? kBackoff : kUnschedulable;
  }
  return MoveToActiveQ(std::move(info), from, event, false) ? kActive : kUnschedulable;
}

// --- the requeue decision ---

QueueingStrategy SchedulingQueueV1_37::IsWorthRequeuing(const QueuedPodInfo& info,
                                                        const ClusterEvent& event,
                                                        const EventObjects& objects) const {
  auto profile = setup_.profiles.find(info.pod().scheduler_name());
  if (profile == setup_.profiles.end()) return IsWorthRequeuingWithoutHintMap(info, event, objects);
  return IsPodWorthRequeuing(MatchingHintFunctions(profile->second.hints, event), info.pod(),
                             info.unschedulable_plugins, info.pending_plugins, event, objects);
}

bool SchedulingQueueV1_37::IsEventOfInterest(const ClusterEvent& event) const {
  if (ClusterEventIsWildCard(event)) return true;
  for (const auto& [name, profile] : setup_.profiles) {
    for (const auto& [registered, fns] : profile.hints.entries()) {
      if (MatchClusterEventsV1_37(registered, event)) return true;
    }
  }
  return false;
}

void SchedulingQueueV1_37::AddEventIfAnyInFlight(const ClusterEvent& event,
                                                 const EventObjects& objects) {
  if (!in_flight_pods_.empty()) in_flight_events_.push_back({"", event, objects});
}

// --- moves on events (moveAllToActiveOrBackoffQueue, collectEntitiesToEvaluate and
// moveEntitiesToActiveOrBackoffQueue of v1.37.2, for pods) ---

void SchedulingQueueV1_37::MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                                         const EventObjects& objects,
                                                         const PreEnqueueCheck& pre_check) {
  // No plugin is interested in this event: return before visiting the pool for pre_check.
  if (!IsEventOfInterest(event)) return;
  if (setup_.move_walk != nullptr) {
    MoveAllWith(*setup_.move_walk, event, objects, pre_check);
    return;
  }
  MovePodsToActiveOrBackoffQueue(CollectPodsToEvaluate(pre_check), event, objects);
}

std::vector<SchedulingQueueV1_37::PoolEntry> SchedulingQueueV1_37::CollectPodsToEvaluate(
    const PreEnqueueCheck& pre_check) {
  // Without PreQueueingHints to narrow the set: every pod of the pool that passes pre_check.
  // Upstream ranges over a map; the pool's own order is the adapter's (namespace, then name).
  std::vector<PoolEntry> pods;
  pods.reserve(unschedulable_.size());
  for (auto it = unschedulable_.begin(); it != unschedulable_.end(); ++it) {
    if (!pre_check || pre_check(it->second.pod())) pods.push_back(it);
  }
  return pods;
}

void SchedulingQueueV1_37::MovePodsToActiveOrBackoffQueue(const std::vector<PoolEntry>& pods,
                                                          const ClusterEvent& event,
                                                          const EventObjects& objects) {
  if (!IsEventOfInterest(event)) return;
  for (PoolEntry entry : pods) {
    const QueuedPodInfo& info = entry->second;
    if (GatingPluginIgnores(info, event)) continue;
    QueueingStrategy hint = IsWorthRequeuing(info, event, objects);
    if (hint == QueueingStrategy::kQueueSkip) continue;
    // The entry leaves the pool here; a pod gated again comes back as a new entry, so the
    // entries still to visit stay valid.
    QueuedPodInfo moving = std::move(entry->second);
    unschedulable_.erase(entry);
    (void)Requeue(std::move(moving), hint, kUnschedulable, EventLabelV1_37(event));
  }
  // A pod in flight now may fail later: it replays this event through its hints then.
  AddEventIfAnyInFlight(event, objects);
}

void SchedulingQueueV1_37::MoveAllWith(const MoveWalk& walk, const ClusterEvent& event,
                                       const EventObjects& objects,
                                       const PreEnqueueCheck& pre_check) {
  const std::string label = EventLabelV1_37(event);
  auto hint_map = [this](const std::string& scheduler_name) -> const QueueingHintMap* {
    auto profile = setup_.profiles.find(scheduler_name);
    return profile == setup_.profiles.end() ? nullptr : &profile->second.hints;
  };
  auto requeue = [this, &label](PoolEntry entry, QueueingStrategy strategy) {
    QueuedPodInfo moving = std::move(entry->second);
    unschedulable_.erase(entry);
    (void)Requeue(std::move(moving), strategy, kUnschedulable, label);
  };
  const MoveWalk::Queue queue{unschedulable_, hint_map, requeue};
  walk.MoveAll(queue, event, objects, pre_check);
  AddEventIfAnyInFlight(event, objects);
}

void SchedulingQueueV1_37::Activate(const std::vector<PodPtr>& pods) {
  for (const PodPtr& pod : pods) {
    const std::string& key = pod->key;
    if (auto it = unschedulable_.find(key); it != unschedulable_.end()) {
      QueuedPodInfo info = std::move(it->second);
      unschedulable_.erase(it);
      (void)MoveToActiveQ(std::move(info), kUnschedulable, label::kForceActivate, false);
      continue;
    }
    std::optional<QueuedPodInfo> info = backoff_.Delete(key);
    if (!info) info = error_backoff_.Delete(key);
    if (info) {
      (void)MoveToActiveQ(std::move(*info), kBackoff, label::kForceActivate, true);
      continue;
    }
    // In flight: it is requeued when it comes back, as if the event had come meanwhile.
    if (in_flight_pods_.count(pod->uid()) > 0) {
      EventObjects objects;
      objects.new_pod = pod;
      in_flight_events_.push_back({"", event_v1_37::ForceActivate(), objects});
    }
  }
}

// --- flushes ---

void SchedulingQueueV1_37::FlushBackoffQCompleted() {
  std::vector<QueuedPodInfo> completed;
  for (PodHeap* heap : {&backoff_, &error_backoff_}) {
    while (const QueuedPodInfo* head = heap->Peek()) {
      if (IsPodBackingOff(*head)) break;
      completed.push_back(*heap->Pop());
    }
  }
  for (QueuedPodInfo& info : completed) {
    (void)MoveToActiveQ(std::move(info), kBackoff, label::kBackoffComplete, true);
  }
}

void SchedulingQueueV1_37::FlushUnschedulablePodsLeftover() {
  const int64_t now = clock_.NowNs();
  std::vector<PoolEntry> pods;
  for (auto it = unschedulable_.begin(); it != unschedulable_.end(); ++it) {
    QueuedPodInfo& info = it->second;
    int64_t last = info.timestamp_ns;
    if (info.flush_timestamp_ns && *info.flush_timestamp_ns > last) last = *info.flush_timestamp_ns;
    if (now - last > options_.max_in_unschedulable_ns) {
      info.flush_timestamp_ns = now;
      pods.push_back(it);
    }
  }
  if (!pods.empty()) {
    MovePodsToActiveOrBackoffQueue(pods, event_v1_37::UnschedulableTimeout(), {});
  }
}

// --- backoff ---

int64_t SchedulingQueueV1_37::AlignToWindow(int64_t t_ns) const {
  if (!setup_.pop_from_backoff_q) return t_ns;  // windows come with SchedulerPopFromBackoffQ
  // time.Truncate(1s) on Unix time; floor, also before the epoch.
  const int64_t abs = t_ns + epoch_ns_;
  int64_t q = abs / kNanosPerSecond;
  if (abs % kNanosPerSecond < 0) --q;
  return q * kNanosPerSecond - epoch_ns_;
}

std::optional<int64_t> SchedulingQueueV1_37::BackoffExpiryNs(const QueuedPodInfo& info) const {
  if (options_.max_backoff_ns == 0) return std::nullopt;
  const int count =
      info.consecutive_errors_count > 0 ? info.consecutive_errors_count : info.unschedulable_count;
  if (count == 0) return std::nullopt;
  // calculateBackoffDuration: initial << (count-1), capped at max.
  const int shift = count - 1;
  int64_t duration = options_.max_backoff_ns;
  if (shift < 63 && options_.initial_backoff_ns <= (options_.max_backoff_ns >> shift)) {
    duration = options_.initial_backoff_ns << shift;
  }
  return AlignToWindow(info.timestamp_ns + duration);
}

bool SchedulingQueueV1_37::IsPodBackingOff(const QueuedPodInfo& info) const {
  std::optional<int64_t> expiry = BackoffExpiryNs(info);
  return expiry && *expiry >= AlignToWindow(clock_.NowNs());
}

bool SchedulingQueueV1_37::BackoffLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  std::optional<int64_t> ea = BackoffExpiryNs(a), eb = BackoffExpiryNs(b);
  if (ea != eb) return ea < eb;
  // lessBackoffCompletedWithPriority with SchedulerPopFromBackoffQ, lessBackoffCompleted without.
  return setup_.pop_from_backoff_q && setup_.less && setup_.less(a, b);
}

std::optional<int64_t> SchedulingQueueV1_37::NextBackoffExpiryNs() const {
  std::optional<int64_t> next;
  for (const PodHeap* heap : {&backoff_, &error_backoff_}) {
    const QueuedPodInfo* head = heap->Peek();
    if (head == nullptr) continue;
    int64_t e = BackoffExpiryNs(*head).value_or(std::numeric_limits<int64_t>::min());
    next = next ? std::min(*next, e) : e;
  }
  return next;
}

// --- introspection ---

std::vector<std::string> SchedulingQueueV1_37::ActiveQKeys() const {
  std::vector<std::string> out;
  for (const QueuedPodInfo* p : active_.Ordered()) out.push_back(p->pod().key);
  return out;
}

std::vector<std::string> SchedulingQueueV1_37::BackoffQKeys() const {
  std::vector<std::string> out;
  for (const PodHeap* heap : {&backoff_, &error_backoff_}) {
    for (const QueuedPodInfo* p : heap->Ordered()) out.push_back(p->pod().key);
  }
  return out;
}

std::vector<std::string> SchedulingQueueV1_37::UnschedulableKeys() const {
  std::vector<std::string> out;
  for (const auto& [key, info] : unschedulable_) out.push_back(key);
  return out;
}

std::optional<int64_t> SchedulingQueueV1_37::OldestUnschedulableActivityNs() const {
  std::optional<int64_t> oldest;
  for (const auto& [key, info] : unschedulable_) {
    const int64_t last = std::max(info.timestamp_ns, info.flush_timestamp_ns.value_or(0));
    if (!oldest || last < *oldest) oldest = last;
  }
  return oldest;
}

std::vector<std::string> SchedulingQueueV1_37::InFlightKeys() const {
  std::vector<std::string> out;
  for (const auto& [uid, key] : in_flight_keys_) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

size_t SchedulingQueueV1_37::InFlightEventCount() const {
  return in_flight_events_.size() - in_flight_pods_.size();
}

const QueuedPodInfo* SchedulingQueueV1_37::Find(const std::string& key) const {
  for (const PodHeap* heap : {&active_, &backoff_, &error_backoff_}) {
    if (const QueuedPodInfo* p = heap->Get(key)) return p;
  }
  auto it = unschedulable_.find(key);
  return it == unschedulable_.end() ? nullptr : &it->second;
}

}  // namespace schedcheck::reference
