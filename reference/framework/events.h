// Cluster events and their registration (framework/types.go ClusterEvent, ActionType): what a
// plugin declares in EventsToRegister so that pods it rejected are retried when the cluster
// changes in a way that could make them schedulable.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_EVENTS_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_EVENTS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace schedcheck::reference {

// Resource names as upstream's GVK strings.
namespace resource {
inline constexpr std::string_view kPod = "Pod";
inline constexpr std::string_view kNode = "Node";
inline constexpr std::string_view kPersistentVolume = "PersistentVolume";
inline constexpr std::string_view kPersistentVolumeClaim = "PersistentVolumeClaim";
inline constexpr std::string_view kStorageClass = "storage.k8s.io/StorageClass";
inline constexpr std::string_view kCSINode = "storage.k8s.io/CSINode";
inline constexpr std::string_view kCSIDriver = "storage.k8s.io/CSIDriver";
inline constexpr std::string_view kCSIStorageCapacity = "storage.k8s.io/CSIStorageCapacity";
inline constexpr std::string_view kWildCard = "*";
}  // namespace resource

// ActionType bits (v1.27).
namespace action {
inline constexpr uint32_t kAdd = 1;
inline constexpr uint32_t kDelete = 2;
inline constexpr uint32_t kUpdateNodeAllocatable = 4;
inline constexpr uint32_t kUpdateNodeLabel = 8;
inline constexpr uint32_t kUpdateNodeTaint = 16;
inline constexpr uint32_t kUpdateNodeCondition = 32;
inline constexpr uint32_t kAll = 63;
inline constexpr uint32_t kUpdate =
    kUpdateNodeAllocatable | kUpdateNodeLabel | kUpdateNodeTaint | kUpdateNodeCondition;
}  // namespace action

struct ClusterEvent {
  std::string resource;
  uint32_t action = 0;
  std::string label;  // queue-metric label, e.g. "NodeAdd"

  bool IsWildCard() const { return resource == resource::kWildCard && action == action::kAll; }
  // v1.27 podMatchesEvent: the registered event matches when it is the wildcard, or the
  // resources are equal and the action bits overlap.
  bool Covers(const ClusterEvent& incoming) const {
    return IsWildCard() || (resource == incoming.resource && (action & incoming.action) != 0);
  }
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_EVENTS_H_
