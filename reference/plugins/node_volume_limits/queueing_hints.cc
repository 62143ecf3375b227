// NodeVolumeLimits' v1.37 queueing hints (nodevolumelimits/csi.go isSchedulableAfter*).
#include <map>

#include "reference/plugins/node_volume_limits/csi_translation.h"
#include "reference/plugins/node_volume_limits/node_volume_limits.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

// The volumes CSILimits counts: claims, generic ephemeral volumes, migratable in-tree disks.
bool CountsAgainstLimits(const k8s::Volume& volume, const Features& features) {
  return volume.has_persistent_volume_claim() || volume.has_ephemeral() ||
         !csi_translation::InTreePluginOf(volume, features).empty();
}

// A deleted pod that was on (or nominated to) a node and had a volume that counts.
Result<QueueingHint> IsSchedulableAfterAssignedPodDeleted(const EventObjects& objects,
                                                          const Features& features) {
  const Pod& deleted = *objects.old_pod;
  const auto& volumes = deleted.obj.spec().volumes();
  if (volumes.empty()) return QueueingHint::kQueueSkip;
  if (deleted.node_name().empty() && deleted.obj.status().nominated_node_name().empty()) {
    return QueueingHint::kQueueSkip;
  }
  for (const auto& volume : volumes) {
    if (CountsAgainstLimits(volume, features)) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

// A new claim the pod uses (by claim or ephemeral volume) in the pod's namespace.
Result<QueueingHint> IsSchedulableAfterPVCAdded(const Pod& pod, const EventObjects& objects) {
  auto typed = As<k8s::PersistentVolumeClaim>(objects);
  if (!typed.ok()) return typed.error();
  return PodUsesClaim(pod, *typed->second) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

std::map<std::string, int64_t> DriverCounts(const k8s::CSINode& node) {
  std::map<std::string, int64_t> counts;
  for (const auto& d : node.spec().drivers()) {
    counts[d.name()] =
        d.has_allocatable() && d.allocatable().has_count() ? d.allocatable().count() : 0;
  }
  return counts;
}

// A CSINode update that raised some driver's limit.
Result<QueueingHint> IsSchedulableAfterCSINodeUpdated(const Pod&, const EventObjects& objects) {
  auto typed = As<k8s::CSINode>(objects);
  if (!typed.ok()) return typed.error();
  const std::map<std::string, int64_t> before = DriverCounts(*typed->first);
  for (const auto& d : typed->second->spec().drivers()) {
    auto it = before.find(d.name());
    const int64_t old_limit = it == before.end() ? 0 : it->second;
    const int64_t new_limit =
        d.has_allocatable() && d.allocatable().has_count() ? d.allocatable().count() : 0;
    if (new_limit > old_limit) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

}  // namespace

std::vector<ClusterEventWithHint> NodeVolumeLimits::EventsToRegisterWithHints() const {
  return {
      // Any new CSINode may carry the limits a rejected pod waits for: no hint.
      {Event(resource::kCSINode, action::kAdd), nullptr},
      {Event(resource::kCSINode, action::kUpdateV1_37), IsSchedulableAfterCSINodeUpdated},
      {Event(resource::kAssignedPod, action::kDelete),
       [features = handle_.features](const Pod&, const EventObjects& objects) {
         return IsSchedulableAfterAssignedPodDeleted(objects, features);
       }},
      {Event(resource::kPersistentVolumeClaim, action::kAdd), IsSchedulableAfterPVCAdded},
      // Upstream's hint reads the deleted VolumeAttachment; none is ever delivered here.
      {Event(resource::kVolumeAttachment, action::kDelete), nullptr},
  };
}

}  // namespace schedcheck::reference
