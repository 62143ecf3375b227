// VolumeBinding's v1.37 queueing hints (volume_binding.go isSchedulableAfter*).
#include <google/protobuf/util/message_differencer.h>

#include "reference/api/quantity.h"
#include "reference/plugins/volume_binding/volume_binding.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr std::string_view kMigratedPluginsAnnotation =
    "storage.alpha.kubernetes.io/migrated-plugins";

std::string_view MigratedPlugins(const k8s::CSINode& node) {
  auto it = node.metadata().annotations().find(std::string(kMigratedPluginsAnnotation));
  return it == node.metadata().annotations().end() ? std::string_view() : it->second;
}

// A new CSINode, or a change of the in-tree plugins it has migrated.
Result<QueueingHint> IsSchedulableAfterCSINodeChange(const Pod&, const EventObjects& objects) {
  auto typed = As<k8s::CSINode>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_node, new_node] = *typed;
  if (old_node == nullptr) return QueueingHint::kQueue;
  return MigratedPlugins(*old_node) != MigratedPlugins(*new_node) ? QueueingHint::kQueue
                                                                  : QueueingHint::kQueueSkip;
}

// A claim of the pod's (by claim or ephemeral volume), created or updated.
Result<QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(const Pod& pod,
                                                                   const EventObjects& objects) {
  auto typed = As<k8s::PersistentVolumeClaim>(objects);
  if (!typed.ok()) return typed.error();
  return PodUsesClaim(pod, *typed->second) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

// A new class, or a change of a class's allowedTopologies (volumeBindingMode is immutable).
Result<QueueingHint> IsSchedulableAfterStorageClassChange(const Pod&, const EventObjects& objects) {
  auto typed = As<k8s::StorageClass>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_class, new_class] = *typed;
  if (old_class == nullptr) return QueueingHint::kQueue;
  const auto& before = old_class->allowed_topologies();
  const auto& after = new_class->allowed_topologies();
  bool equal = before.size() == after.size();
  for (int i = 0; equal && i < before.size(); ++i) {
    equal = MessageDifferencer::Equals(before[i], after[i]);
  }
  return equal ? QueueingHint::kQueueSkip : QueueingHint::kQueue;
}

// volumeLimit in bytes; nullopt when the capacity has no limit (or an unreadable one).
std::optional<int64_t> VolumeLimitBytes(const k8s::CSIStorageCapacity& capacity) {
  const std::string* limit = volume_binding::VolumeLimit(capacity);
  if (limit == nullptr) return std::nullopt;
  Result<int64_t> bytes = ParseResourceQuantity("storage", *limit);
  if (!bytes.ok()) return std::nullopt;
  return *bytes;
}

// A new capacity, or a capacity whose volume limit grew.
Result<QueueingHint> IsSchedulableAfterCSIStorageCapacityChange(const Pod&,
                                                                const EventObjects& objects) {
  auto typed = As<k8s::CSIStorageCapacity>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_capacity, new_capacity] = *typed;
  if (old_capacity == nullptr) return QueueingHint::kQueue;
  const std::optional<int64_t> old_limit = VolumeLimitBytes(*old_capacity);
  const std::optional<int64_t> new_limit = VolumeLimitBytes(*new_capacity);
  if (new_limit && (!old_limit || *new_limit > *old_limit)) return QueueingHint::kQueue;
  return QueueingHint::kQueueSkip;
}

bool TracksCapacity(const k8s::CSIDriver& driver) {
  return driver.spec().has_storage_capacity() && driver.spec().storage_capacity();
}

// A driver of one of the pod's inline CSI volumes that stopped tracking storage capacity.
Result<QueueingHint> IsSchedulableAfterCSIDriverChange(const Pod& pod,
                                                       const EventObjects& objects) {
  auto typed = As<k8s::CSIDriver>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_driver, new_driver] = *typed;
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (!volume.has_csi() || volume.csi().driver() != new_driver->metadata().name()) continue;
    if (TracksCapacity(*old_driver) && !TracksCapacity(*new_driver)) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeBinding::EventsToRegisterWithHints() const {
  const uint32_t add_update = action::kAdd | action::kUpdateV1_37;
  return {
      {Event(resource::kStorageClass, add_update), IsSchedulableAfterStorageClassChange},
      {Event(resource::kPersistentVolumeClaim, add_update),
       IsSchedulableAfterPersistentVolumeClaimChange},
      {Event(resource::kPersistentVolume, add_update), nullptr},
      {Event(resource::kNode, action::kAdd | action::kUpdateNodeLabel), nullptr},
      {Event(resource::kCSINode, add_update), IsSchedulableAfterCSINodeChange},
      {Event(resource::kCSIDriver, action::kUpdateV1_37), IsSchedulableAfterCSIDriverChange},
      {Event(resource::kCSIStorageCapacity, add_update),
       IsSchedulableAfterCSIStorageCapacityChange},
  };
}

}  // namespace schedcheck::reference
