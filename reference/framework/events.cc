#include "reference/framework/events.h"

#include <array>
#include <utility>

namespace schedcheck::reference {
namespace {

// ActionType.String() names of v1.37, one per bit, in bit order.
constexpr std::array<std::string_view, 15> kActionNames = {
    "Add",
    "Delete",
    "UpdateNodeAllocatable",
    "UpdateNodeLabel",
    "UpdateNodeTaint",
    "UpdateNodeCondition",
    "UpdateNodeAnnotation",
    "UpdateNodeDeclaredFeature",
    "UpdateNodePreemptionPolicy",
    "UpdatePodLabel",
    "UpdatePodScaleDown",
    "UpdatePodScaleUp",
    "UpdatePodToleration",
    "UpdatePodSchedulingGatesEliminated",
    "UpdatePodGeneratedResourceClaim",
};
static_assert((1u << kActionNames.size()) - 1 == action::kAllV1_37);

// matchEventResources: equal, or a registered Pod covering the specific pod resources.
bool MatchEventResources(std::string_view registered, std::string_view incoming) {
  return registered == resource::kWildCard || registered == incoming ||
         (registered == resource::kPod &&
          (incoming == resource::kAssignedPod || incoming == resource::kUnscheduledPod ||
           incoming == resource::kTargetPod));
}

}  // namespace

bool MatchClusterEventsV1_37(const ClusterEvent& registered, const ClusterEvent& incoming) {
  bool wildcard =
      registered.resource == resource::kWildCard && registered.action == action::kAllV1_37;
  return wildcard ||
         (MatchEventResources(registered.resource, incoming.resource) &&
          (registered.action & incoming.action) != 0 && incoming.action <= registered.action);
}

std::string_view ActionNameV1_37(uint32_t action) {
  if (action == action::kAllV1_37) return "All";
  if (action == action::kUpdateV1_37) return "Update";
  for (size_t i = 0; i < kActionNames.size(); ++i) {
    if (action == (1u << i)) return kActionNames[i];
  }
  return "";
}

uint32_t ParseActionNameV1_37(std::string_view name) {
  if (name == "All") return action::kAllV1_37;
  if (name == "Update") return action::kUpdateV1_37;
  for (size_t i = 0; i < kActionNames.size(); ++i) {
    if (name == kActionNames[i]) return 1u << i;
  }
  return 0;
}

}  // namespace schedcheck::reference
