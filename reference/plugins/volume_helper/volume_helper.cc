#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {

std::string ListerNotFound(std::string_view resource, std::string_view name) {
  return std::string(resource) + " \"" + std::string(name) + "\" not found";
}

const ClusterObjects& StorageObjectsOf(const Handle& handle) {
  static const ClusterObjects kEmpty;
  return handle.objects != nullptr ? *handle.objects : kEmpty;
}

bool ClaimNameOf(const Pod& pod, const k8s::Volume& volume, std::string* name, bool* ephemeral) {
  if (volume.has_persistent_volume_claim()) {
    *name = volume.persistent_volume_claim().claim_name();
    *ephemeral = false;
    return true;
  }
  if (volume.has_ephemeral()) {
    *name = EphemeralClaimName(pod, volume);
    *ephemeral = true;
    return true;
  }
  return false;
}

bool PodNamesClaim(const Pod& pod, const k8s::PersistentVolumeClaim& claim) {
  if (pod.ns() != ClaimNamespace(claim)) return false;
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (volume.has_persistent_volume_claim() &&
        volume.persistent_volume_claim().claim_name() == claim.metadata().name()) {
      return true;
    }
  }
  return false;
}

bool PodUsesClaim(const Pod& pod, const k8s::PersistentVolumeClaim& claim) {
  if (pod.ns() != ClaimNamespace(claim)) return false;
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string name;
    bool ephemeral = false;
    if (ClaimNameOf(pod, volume, &name, &ephemeral) && name == claim.metadata().name()) return true;
  }
  return false;
}

std::string_view ClaimNamespace(const k8s::PersistentVolumeClaim& claim) {
  const std::string& ns = claim.metadata().namespace_();
  return ns.empty() ? std::string_view("default") : std::string_view(ns);
}

std::vector<ClusterEvent> VolumeBindingEvents() {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  const uint32_t add_update = action::kAdd | action::kUpdate;
  return {event(resource::kStorageClass, add_update),
          event(resource::kPersistentVolumeClaim, add_update),
          event(resource::kPersistentVolume, add_update),
          event(resource::kNode, action::kAdd | action::kUpdateNodeLabel),
          event(resource::kCSINode, add_update),
          event(resource::kCSIDriver, add_update),
          event(resource::kCSIStorageCapacity, add_update)};
}

std::string ClaimStorageClass(const k8s::PersistentVolumeClaim& claim) {
  const auto& annotations = claim.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class");
      it != annotations.end()) {
    return it->second;
  }
  return claim.spec().has_storage_class_name() ? claim.spec().storage_class_name() : "";
}

bool HasAccessMode(const google::protobuf::RepeatedPtrField<std::string>& modes,
                   std::string_view mode) {
  for (const std::string& m : modes) {
    if (m == mode) return true;
  }
  return false;
}

std::optional<std::set<std::string>> LabelZonesToSet(std::string_view value) {
  std::set<std::string> zones;
  size_t start = 0;
  while (true) {
    size_t end = value.find("__", start);
    std::string_view part =
        value.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    // strings.TrimSpace: Unicode white space; the ASCII ones are what labels can hold.
    size_t first = part.find_first_not_of(" \t\n\r\f\v");
    if (first == std::string_view::npos) return std::nullopt;
    size_t last = part.find_last_not_of(" \t\n\r\f\v");
    zones.insert(std::string(part.substr(first, last - first + 1)));
    if (end == std::string_view::npos) break;
    start = end + 2;
  }
  return zones;
}

std::string EphemeralClaimName(const Pod& pod, const k8s::Volume& volume) {
  return pod.name() + "-" + volume.name();
}

std::string EphemeralClaimNotForPod(const Pod& pod, const k8s::PersistentVolumeClaim& claim) {
  const std::string claim_ns(ClaimNamespace(claim));
  bool controlled = false;
  for (const auto& ref : claim.metadata().owner_references()) {
    // metav1.IsControlledBy: the controller reference's UID is the owner's.
    if (ref.has_controller() && ref.controller()) {
      controlled = ref.uid() == pod.uid();
      break;
    }
  }
  if (claim_ns == pod.ns() && controlled) return "";
  return "PVC " + claim_ns + "/" + claim.metadata().name() + " was not created for pod " +
         pod.ns() + "/" + pod.name() + " (pod is not owner)";
}

bool IsClaimUsedByPods(const Snapshot& snapshot, std::string_view key) {
  for (const NodeInfo* node : snapshot.node_infos()) {
    for (const PodInfoPtr& info : node->pods()) {
      const Pod& pod = *info->pod;
      for (const auto& volume : pod.obj.spec().volumes()) {
        if (volume.has_persistent_volume_claim() &&
            NamespacedName(pod.ns(), volume.persistent_volume_claim().claim_name()) == key) {
          return true;
        }
      }
    }
  }
  return false;
}

std::string NamespacedName(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  key.append(ns).append("/").append(name);
  return key;
}

}  // namespace schedcheck::reference
