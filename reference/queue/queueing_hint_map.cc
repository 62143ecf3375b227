#include "reference/queue/queueing_hint_map.h"

namespace schedcheck::reference {

void QueueingHintMap::Add(const ClusterEvent& event, QueueingHintFunction fn) {
  for (auto& [registered, fns] : entries_) {
    if (registered.resource == event.resource && registered.action == event.action) {
      fns.push_back(std::move(fn));
      return;
    }
  }
  entries_.push_back({event, {std::move(fn)}});
}

MatchingHints MatchingHintFunctions(const QueueingHintMap& map, const ClusterEvent& event) {
  MatchingHints out;
  for (const auto& [registered, fns] : map.entries()) {
    if (!MatchClusterEventsV1_37(registered, event)) continue;
    for (const QueueingHintFunction& fn : fns) out.push_back(&fn);
  }
  return out;
}

QueueingStrategy IsPodWorthRequeuing(const QueueingHintMap& map, const Pod& pod,
                                     const Rejectors& rejectors, const ClusterEvent& event,
                                     const EventObjects& objects, int* hint_calls) {
  return IsPodWorthRequeuing(MatchingHintFunctions(map, event), pod,
                             rejectors.unschedulable_plugins, rejectors.pending_plugins, event,
                             objects, hint_calls);
}

QueueingStrategy IsPodWorthRequeuing(const MatchingHints& matching, const Pod& pod,
                                     const std::set<std::string>& unschedulable_plugins,
                                     const std::set<std::string>& pending_plugins,
                                     const ClusterEvent& event, const EventObjects& objects,
                                     int* hint_calls) {
  if (unschedulable_plugins.empty() && pending_plugins.empty()) {
    return QueueingStrategy::kQueueAfterBackoff;
  }
  if (event.resource == resource::kWildCard && event.action == action::kAllV1_37) {
    if (objects.new_pod && objects.new_pod->uid() != pod.uid()) return QueueingStrategy::kQueueSkip;
    return QueueingStrategy::kQueueAfterBackoff;
  }
  QueueingStrategy strategy = QueueingStrategy::kQueueSkip;
  for (const QueueingHintFunction* fn : matching) {
    const bool pending = pending_plugins.count(fn->plugin) > 0;
    if (!pending && unschedulable_plugins.count(fn->plugin) == 0) continue;
    if (hint_calls) ++*hint_calls;
    Result<QueueingHint> hint = fn->fn(pod, objects);
    // An error counts as Queue, so that the pod is not stuck in the unschedulable pool.
    if (hint.ok() && *hint == QueueingHint::kQueueSkip) continue;
    if (pending) return QueueingStrategy::kQueueImmediately;
    // Only a Pending plugin can still raise the answer.
    if (pending_plugins.empty()) return QueueingStrategy::kQueueAfterBackoff;
    strategy = QueueingStrategy::kQueueAfterBackoff;
  }
  return strategy;
}

}  // namespace schedcheck::reference
