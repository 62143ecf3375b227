// The Scheduler's informer event handlers for the storage kinds (PersistentVolume, claim,
// StorageClass, CSINode, CSIDriver, CSIStorageCapacity): the informer's store, VolumeBinding's
// assume cache at v1.27, and the move upstream's handler for that kind makes when some profile
// registered the kind with that action (addAllEventHandlers).
#include <charconv>

#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

// getObjVersion: a resourceVersion as an integer; nullopt when it is not one.
std::optional<int64_t> IntegerVersion(const std::string& text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// v1.27 assumeCache.add: the cache takes a delivered object when it has none for the key, or when
// both versions are integers and the delivered one is newer; else it keeps its own (ClusterObjects
// assume_cache_kept_*). A delete removes it. Called before the store takes `delivered`.
template <typename Object>
void KeepForAssumeCache(WatchEvent type, const std::string& key, const Object& delivered,
                        const std::map<std::string, Object, std::less<>>& store,
                        std::map<std::string, Object, std::less<>>* kept) {
  auto it = kept->find(key);
  if (type == WatchEvent::kDeleted) {
    if (it != kept->end()) kept->erase(it);
    return;
  }
  const Object* cached = it != kept->end() ? &it->second : ClusterObjects::Find(store, key);
  if (cached == nullptr) return;
  std::optional<int64_t> delivered_version =
      IntegerVersion(delivered.metadata().resource_version());
  std::optional<int64_t> cached_version = IntegerVersion(cached->metadata().resource_version());
  if (delivered_version && cached_version && *delivered_version > *cached_version) {
    if (it != kept->end()) kept->erase(it);
    return;
  }
  if (it == kept->end()) (*kept)[key] = *cached;
}

}  // namespace

template <typename Object>
void Scheduler::OnStorageObject(WatchEvent type, Object object, bool namespaced,
                                std::map<std::string, Object, std::less<>>* store,
                                std::string_view resource, std::string_view short_name,
                                const k8s::StorageClass* added_class) {
  const std::string& ns = object.metadata().namespace_();
  std::string key = object.metadata().name();
  if (namespaced) key = (ns.empty() ? "default" : ns) + "/" + key;
  EventObjects objects;
  if (auto it = store->find(key); it != store->end()) {
    objects.old_object = std::make_shared<const Object>(std::move(it->second));
    store->erase(it);
  }
  if (type != WatchEvent::kDeleted) {
    objects.new_object = std::make_shared<const Object>(object);
    (*store)[key] = std::move(object);
  }
  // A delete of an object the informer never held delivers nothing.
  if (type == WatchEvent::kDeleted && !objects.old_object) return;
  // The change counts the fast engine's volume memos read (ClusterObjects::ChangeCount).
  const void* changed = store;
  ClusterObjects::ChangeCount* counts = changed == &objects_.csi_nodes ? &objects_.csi_node_changes
                                        : changed == &objects_.persistent_volumes ||
                                                changed == &objects_.persistent_volume_claims ||
                                                changed == &objects_.storage_classes
                                            ? &objects_.volume_changes
                                            : nullptr;
  if (counts != nullptr) ++(objects.old_object ? counts->updates : counts->adds);
  const WatchEvent kind = type == WatchEvent::kDeleted ? WatchEvent::kDeleted
                          : objects.old_object         ? WatchEvent::kModified
                                                       : WatchEvent::kAdded;
  MoveForStorage(kind, resource, short_name, added_class, objects);
}

void Scheduler::OnPersistentVolume(WatchEvent type, k8s::PersistentVolume pv) {
  if (!features_.volume_assume_cache_is_passive) {
    KeepForAssumeCache(type, pv.metadata().name(), pv, objects_.persistent_volumes,
                       &objects_.assume_cache_kept_pvs);
  }
  OnStorageObject(type, std::move(pv), false, &objects_.persistent_volumes,
                  resource::kPersistentVolume, "Pv");
}

void Scheduler::OnPersistentVolumeClaim(WatchEvent type, k8s::PersistentVolumeClaim claim) {
  if (!features_.volume_assume_cache_is_passive) {
    const std::string& ns = claim.metadata().namespace_();
    KeepForAssumeCache(type, (ns.empty() ? "default" : ns) + "/" + claim.metadata().name(), claim,
                       objects_.persistent_volume_claims, &objects_.assume_cache_kept_claims);
  }
  OnStorageObject(type, std::move(claim), true, &objects_.persistent_volume_claims,
                  resource::kPersistentVolumeClaim, "Pvc");
}

void Scheduler::OnStorageClass(WatchEvent type, k8s::StorageClass storage_class) {
  const k8s::StorageClass added = storage_class;
  OnStorageObject(type, std::move(storage_class), false, &objects_.storage_classes,
                  resource::kStorageClass, "StorageClass", &added);
}

void Scheduler::OnCSINode(WatchEvent type, k8s::CSINode csi_node) {
  OnStorageObject(type, std::move(csi_node), false, &objects_.csi_nodes, resource::kCSINode,
                  "CSINode");
}

void Scheduler::OnCSIDriver(WatchEvent type, k8s::CSIDriver driver) {
  OnStorageObject(type, std::move(driver), false, &objects_.csi_drivers, resource::kCSIDriver,
                  "CSIDriver");
}

void Scheduler::OnCSIStorageCapacity(WatchEvent type, k8s::CSIStorageCapacity capacity) {
  OnStorageObject(type, std::move(capacity), true, &objects_.csi_storage_capacities,
                  resource::kCSIStorageCapacity, "CSIStorageCapacity");
}

void Scheduler::MoveForStorage(WatchEvent type, std::string_view resource,
                               std::string_view short_name, const k8s::StorageClass* added_class,
                               const EventObjects& objects) {
  auto registered = registered_actions_.find(resource);
  if (registered == registered_actions_.end()) return;
  uint32_t action = type == WatchEvent::kAdded     ? reference::action::kAdd
                    : type == WatchEvent::kDeleted ? reference::action::kDelete
                                                   : reference::action::kUpdate;
  if ((registered->second & action) == 0) return;
  if (queueing_hints()) {
    MoveAllV1_37(
        ClusterEvent{std::string(resource),
                     type == WatchEvent::kModified ? reference::action::kUpdateV1_37 : action, ""},
        objects, nullptr);
    return;
  }
  // v1.27 onStorageClassAdd: only a WaitForFirstConsumer class moves pods.
  if (added_class != nullptr && type == WatchEvent::kAdded &&
      added_class->volume_binding_mode() != "WaitForFirstConsumer") {
    return;
  }
  const char* suffix = type == WatchEvent::kAdded     ? "Add"
                       : type == WatchEvent::kDeleted ? "Delete"
                                                      : "Update";
  MoveAll(ClusterEvent{std::string(resource), action, std::string(short_name) + suffix}, nullptr);
}

// The DRA kinds share the storage kinds' handler (eventhandlers_dra.cc).
template void Scheduler::OnStorageObject(WatchEvent, k8s::ResourceClaim, bool,
                                         std::map<std::string, k8s::ResourceClaim, std::less<>>*,
                                         std::string_view, std::string_view,
                                         const k8s::StorageClass*);
template void Scheduler::OnStorageObject(WatchEvent, k8s::ResourceSlice, bool,
                                         std::map<std::string, k8s::ResourceSlice, std::less<>>*,
                                         std::string_view, std::string_view,
                                         const k8s::StorageClass*);
template void Scheduler::OnStorageObject(WatchEvent, k8s::DeviceClass, bool,
                                         std::map<std::string, k8s::DeviceClass, std::less<>>*,
                                         std::string_view, std::string_view,
                                         const k8s::StorageClass*);

}  // namespace schedcheck::reference
