#include "reference/queue/move_walk.h"

#include <algorithm>
#include <string_view>

namespace schedcheck::reference {

bool NamespaceThenNameLess::operator()(const std::string& a, const std::string& b) const {
  const size_t sa = a.find('/'), sb = b.find('/');
  const std::string_view na(a.data(), sa), nb(b.data(), sb);
  if (na != nb) return na < nb;
  return std::string_view(a).substr(sa + 1) < std::string_view(b).substr(sb + 1);
}

bool ClusterEventIsWildCard(const ClusterEvent& event) {
  return event.resource == resource::kWildCard && event.action == action::kAllV1_37;
}

bool GatingPluginIgnores(const QueuedPodInfo& info, const ClusterEvent& event) {
  if (!info.gated || ClusterEventIsWildCard(event)) return false;
  // framework.MatchAnyClusterEvent over the gating plugin's events.
  return std::none_of(
      info.gating_plugin_events.begin(), info.gating_plugin_events.end(),
      [&](const ClusterEvent& registered) { return MatchClusterEventsV1_37(registered, event); });
}

QueueingStrategy IsWorthRequeuingWithoutHintMap(const QueuedPodInfo& info,
                                                const ClusterEvent& event,
                                                const EventObjects& objects) {
  // Asked with no hint functions, isPodWorthRequeuing skips a wildcard event meant for another
  // pod, and any other event for a pod some plugin rejected (which this branch requeues).
  QueueingStrategy s = IsPodWorthRequeuing(MatchingHints(), info.pod(), info.unschedulable_plugins,
                                           info.pending_plugins, event, objects);
  const bool other_pod_wildcard =
      s == QueueingStrategy::kQueueSkip && event.resource == resource::kWildCard;
  return other_pod_wildcard ? s : QueueingStrategy::kQueueAfterBackoff;
}

}  // namespace schedcheck::reference
