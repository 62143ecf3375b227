// Storage lookups shared by the volume plugins: what upstream's listers, component-helpers
// (storage/volume, storage/ephemeral) and cloud-provider's volume helpers answer, over the
// objects in ClusterObjects.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_HELPER_VOLUME_HELPER_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_HELPER_VOLUME_HELPER_H_

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <vector>

#include "reference/api/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/handle.h"
#include "reference/framework/snapshot.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// The group-qualified resource names the listers' NotFound errors print.
namespace lister_resource {
inline constexpr std::string_view kPersistentVolumeClaim = "persistentvolumeclaim";
inline constexpr std::string_view kPersistentVolume = "persistentvolume";
inline constexpr std::string_view kStorageClass = "storageclass.storage.k8s.io";
inline constexpr std::string_view kCSINode = "csinode.storage.k8s.io";
}  // namespace lister_resource

// A lister's NotFound error text: `persistentvolumeclaim "data" not found`.
std::string ListerNotFound(std::string_view resource, std::string_view name);

// Access modes and binding modes as the API spells them.
inline constexpr std::string_view kReadWriteOncePod = "ReadWriteOncePod";
inline constexpr std::string_view kWaitForFirstConsumer = "WaitForFirstConsumer";

// The node and volume topology labels VolumeZone compares (GA and deprecated beta).
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";
inline constexpr std::string_view kLabelTopologyRegion = "topology.kubernetes.io/region";
inline constexpr std::string_view kLabelFailureDomainBetaZone =
    "failure-domain.beta.kubernetes.io/zone";
inline constexpr std::string_view kLabelFailureDomainBetaRegion =
    "failure-domain.beta.kubernetes.io/region";

// The cluster objects a plugin reads: the handle's, or none (plugin tests without objects).
const ClusterObjects& StorageObjectsOf(const Handle& handle);

// The claim a persistentVolumeClaim or generic ephemeral volume names (the ephemeral one is
// "<pod>-<volume>"), with *ephemeral telling which; false for any other volume.
bool ClaimNameOf(const Pod& pod, const k8s::Volume& volume, std::string* name, bool* ephemeral);

// A claim's namespace, "default" when the object names none.
std::string_view ClaimNamespace(const k8s::PersistentVolumeClaim& claim);

// Whether the claim is in the pod's namespace and a persistentVolumeClaim volume of the pod names
// it (VolumeZone's isPVCRequestedFromPod; VolumeRestrictions' hint).
bool PodNamesClaim(const Pod& pod, const k8s::PersistentVolumeClaim& claim);
// The same, a generic ephemeral volume's claim ("<pod>-<volume>") counting too (VolumeBinding's and
// NodeVolumeLimits' hints).
bool PodUsesClaim(const Pod& pod, const k8s::PersistentVolumeClaim& claim);

// VolumeBinding's EventsToRegister, shared by the plugin (1.27) and its 1.37 placeholder:
// StorageClass, PVC, PV, CSINode, CSIDriver, CSIStorageCapacity: Add | Update;
// Node: Add | UpdateNodeLabel.
std::vector<ClusterEvent> VolumeBindingEvents();

// storagehelpers.GetPersistentVolumeClaimClass: the beta annotation
// volume.beta.kubernetes.io/storage-class when present (even empty), else
// spec.storageClassName when set, else "".
std::string ClaimStorageClass(const k8s::PersistentVolumeClaim& claim);

// v1helper.ContainsAccessMode.
bool HasAccessMode(const google::protobuf::RepeatedPtrField<std::string>& modes,
                   std::string_view mode);

// volumehelpers.LabelZonesToSet: a PV zone label value split on "__", each part trimmed of
// spaces; nullopt when a part is empty (upstream's error, which the plugins ignore).
std::optional<std::set<std::string>> LabelZonesToSet(std::string_view value);

// ephemeral.VolumeClaimName: the claim a generic ephemeral volume gets, "<pod>-<volume>".
std::string EphemeralClaimName(const Pod& pod, const k8s::Volume& volume);

// ephemeral.VolumeIsForPod: "" when the claim is in the pod's namespace and controlled by the
// pod (an owner reference with controller true and the pod's UID), else upstream's error text.
std::string EphemeralClaimNotForPod(const Pod& pod, const k8s::PersistentVolumeClaim& claim);

// StorageInfos().IsPVCUsedByPods: some pod in the snapshot (bound or assumed) mounts the claim
// "namespace/name" through a persistentVolumeClaim volume.
bool IsClaimUsedByPods(const Snapshot& snapshot, std::string_view key);

// The claim "namespace/name" key upstream's GetNamespacedName builds.
std::string NamespacedName(std::string_view ns, std::string_view name);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_HELPER_VOLUME_HELPER_H_
