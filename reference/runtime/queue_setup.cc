#include "reference/runtime/queue_setup.h"

#include <string>
#include <string_view>
#include <utility>

namespace schedcheck::reference {
namespace {

// defaultQueueingHintFn.
Result<QueueingHint> DefaultQueueingHint(const Pod&, const EventObjects&) {
  return QueueingHint::kQueue;
}

}  // namespace

QueueingHintMap BuildQueueingHintMap(const Framework& framework) {
  QueueingHintMap map;
  for (auto& [registration, plugin] : framework.EventRegistrationsWithHints()) {
    QueueingHintFunction fn{plugin, registration.hint ? registration.hint : DefaultQueueingHint};
    const ClusterEvent& e = registration.event;
    if (e.resource == resource::kPod) {
      for (std::string_view r :
           {resource::kAssignedPod, resource::kUnscheduledPod, resource::kTargetPod}) {
        map.Add({std::string(r), e.action, ""}, fn);
      }
    } else {
      map.Add({e.resource, e.action, ""}, fn);
    }
  }
  return map;
}

QueueSetup QueueSetupFor(const std::vector<const Framework*>& profiles) {
  QueueSetup setup;
  const Framework* first = profiles.empty() ? nullptr : profiles.front();
  if (first != nullptr) {
    setup.less = [first](const QueuedPodInfo& a, const QueuedPodInfo& b) {
      return first->QueueSortLess(a, b);
    };
  }
  for (const Framework* fw : profiles) {
    auto [it, added] = setup.profiles.try_emplace(fw->scheduler_name());
    if (!added) continue;
    setup.profile_order.push_back(fw->scheduler_name());
    QueueProfile& profile = it->second;
    for (PreEnqueuePlugin* pl : fw->pre_enqueue_plugins()) {
      profile.pre_enqueue.push_back(
          {std::string(pl->Name()), [pl](const Pod& pod) { return pl->PreEnqueue(pod); }});
    }
    profile.hints = BuildQueueingHintMap(*fw);
    profile.events = fw->EventRegistrations();
  }
  return setup;
}

QueueHooks HooksFromFrameworks(const std::vector<const Framework*>& profiles) {
  return HooksFromSetup(QueueSetupFor(profiles));
}

ClusterEventMap EventMapFromFrameworks(const std::vector<const Framework*>& profiles) {
  ClusterEventMap out;
  for (const Framework* fw : profiles) {
    for (auto& reg : fw->EventRegistrations()) out.push_back(std::move(reg));
  }
  return out;
}

QueueSetupV1_37 QueueSetupFromFrameworks(const std::vector<const Framework*>& profiles) {
  return SetupV1_37FromSetup(QueueSetupFor(profiles));
}

}  // namespace schedcheck::reference
