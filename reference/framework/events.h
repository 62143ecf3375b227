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
// Registered by v1.37's NodeVolumeLimits; schedcheck's objects have no VolumeAttachments, so no
// such event is ever delivered.
inline constexpr std::string_view kVolumeAttachment = "storage.k8s.io/VolumeAttachment";
inline constexpr std::string_view kWildCard = "*";
// v1.37 with GenericWorkload: PodGroup objects (scheduling.k8s.io/v1beta1). schedcheck's objects
// have none, so no such event is ever delivered; GangScheduling registers it.
inline constexpr std::string_view kPodGroup = "scheduling.k8s.io/PodGroup";
// v1.37 Dynamic Resource Allocation, registered by DynamicResources.
inline constexpr std::string_view kResourceClaim = "resource.k8s.io/ResourceClaim";
inline constexpr std::string_view kResourceSlice = "resource.k8s.io/ResourceSlice";
inline constexpr std::string_view kDeviceClass = "resource.k8s.io/DeviceClass";

// The pod resources of v1.37 (kube-scheduler/framework/types.go): `Pod` registered by a plugin
// covers the three specific ones the queue reports.
inline constexpr std::string_view kAssignedPod = "AssignedPod";
inline constexpr std::string_view kUnscheduledPod = "UnscheduledPod";
inline constexpr std::string_view kTargetPod = "TargetPod";
}  // namespace resource

// ActionType bits. The first six are v1.27's whole set; v1.37 keeps their values and adds the
// rest (kube-scheduler/framework/types.go at v0.37.2, in declaration order).
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

inline constexpr uint32_t kUpdateNodeAnnotation = 1u << 6;
inline constexpr uint32_t kUpdateNodeDeclaredFeature = 1u << 7;
inline constexpr uint32_t kUpdateNodePreemptionPolicy = 1u << 8;
inline constexpr uint32_t kUpdatePodLabel = 1u << 9;
inline constexpr uint32_t kUpdatePodScaleDown = 1u << 10;
inline constexpr uint32_t kUpdatePodScaleUp = 1u << 11;
inline constexpr uint32_t kUpdatePodToleration = 1u << 12;
inline constexpr uint32_t kUpdatePodSchedulingGatesEliminated = 1u << 13;
inline constexpr uint32_t kUpdatePodGeneratedResourceClaim = 1u << 14;
inline constexpr uint32_t kAllV1_37 = (1u << 15) - 1;
inline constexpr uint32_t kUpdateV1_37 = kAllV1_37 & ~(kAdd | kDelete);
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

// v1.37 framework.MatchClusterEvents(registered, incoming): the registered event is the
// wildcard, or its resource covers the incoming one (equal, or Pod for any specific pod
// resource), the action bits overlap and the incoming action is no wider than the registered
// one (the queue reports the most specific action it can, so a plain Update only reaches
// registrations for all of Update).
bool MatchClusterEventsV1_37(const ClusterEvent& registered, const ClusterEvent& incoming);

// ActionType.String() of v1.37 for one bit ("UpdateNodeLabel"), "All" for kAllV1_37, "" for
// anything else; and the inverse for one name.
std::string_view ActionNameV1_37(uint32_t action);
// 0 when `name` names no action.
uint32_t ParseActionNameV1_37(std::string_view name);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_EVENTS_H_
