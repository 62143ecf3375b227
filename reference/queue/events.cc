#include "reference/queue/events.h"

#include <array>
#include <string>

namespace schedcheck::reference {
namespace {

struct EventDef {
  std::string_view label;
  std::string_view resource;
  uint32_t action;
};

// v1.27 internal/queue/events.go.
constexpr std::array<EventDef, 23> kEvents = {{
    {"AssignedPodAdd", resource::kPod, action::kAdd},
    {"AssignedPodUpdate", resource::kPod, action::kUpdate},
    {"AssignedPodDelete", resource::kPod, action::kDelete},
    {"NodeAdd", resource::kNode, action::kAdd},
    {"NodeSpecUnschedulableChange", resource::kNode, action::kUpdateNodeTaint},
    {"NodeAllocatableChange", resource::kNode, action::kUpdateNodeAllocatable},
    {"NodeLabelChange", resource::kNode, action::kUpdateNodeLabel},
    {"NodeTaintChange", resource::kNode, action::kUpdateNodeTaint},
    {"NodeConditionChange", resource::kNode, action::kUpdateNodeCondition},
    {"PvAdd", resource::kPersistentVolume, action::kAdd},
    {"PvUpdate", resource::kPersistentVolume, action::kUpdate},
    {"PvcAdd", resource::kPersistentVolumeClaim, action::kAdd},
    {"PvcUpdate", resource::kPersistentVolumeClaim, action::kUpdate},
    {"StorageClassAdd", resource::kStorageClass, action::kAdd},
    {"StorageClassUpdate", resource::kStorageClass, action::kUpdate},
    {"CSINodeAdd", resource::kCSINode, action::kAdd},
    {"CSINodeUpdate", resource::kCSINode, action::kUpdate},
    {"CSIDriverAdd", resource::kCSIDriver, action::kAdd},
    {"CSIDriverUpdate", resource::kCSIDriver, action::kUpdate},
    {"CSIStorageCapacityAdd", resource::kCSIStorageCapacity, action::kAdd},
    {"CSIStorageCapacityUpdate", resource::kCSIStorageCapacity, action::kUpdate},
    {"WildCardEvent", resource::kWildCard, action::kAll},
    {"UnschedulableTimeout", resource::kWildCard, action::kAll},
}};

}  // namespace

std::optional<ClusterEvent> PredefinedClusterEvent(std::string_view label) {
  for (const EventDef& e : kEvents) {
    if (e.label == label)
      return ClusterEvent{std::string(e.resource), e.action, std::string(e.label)};
  }
  return std::nullopt;
}

bool IsNodeEventLabel(std::string_view label) {
  auto e = PredefinedClusterEvent(label);
  return e && e->resource == resource::kNode;
}

}  // namespace schedcheck::reference
