// Replayer: the informer event handlers (eventhandlers.go,
// docs/SEMANTICS.md#informer-event-handlers-and-precheckfornode).
#include <algorithm>
#include <charconv>

#include "harness/replay/replayer_internal.h"
#include "reference/queue/events.h"
#include "reference/queue/pre_check.h"

namespace schedcheck::replay {
namespace {

bool Terminal(const reference::Pod& pod) {
  const std::string& phase = pod.obj.status().phase();
  return phase == "Succeeded" || phase == "Failed";
}

reference::ClusterEvent Predefined(std::string_view label) {
  return *reference::PredefinedClusterEvent(label);
}

std::string PodKey(const k8s::Pod& pod) {
  return (pod.metadata().namespace_().empty() ? "default" : pod.metadata().namespace_()) + "/" +
         pod.metadata().name();
}

// The global default class Priority admission picks: the lowest value among classes marked
// globalDefault (several exist only after a race); equal values in name order.
const k8s::PriorityClass* DefaultPriorityClass(
    const std::map<std::string, k8s::PriorityClass>& classes) {
  const k8s::PriorityClass* out = nullptr;
  for (const auto& [name, pc] : classes) {
    if (pc.global_default() && (out == nullptr || pc.value() < out->value())) out = &pc;
  }
  return out;
}

// A Service / ReplicationController / ReplicaSet / StatefulSet event: the informer's store, read by
// PodTopologySpread's default constraints. No cluster event: no v1.27 plugin registers these
// kinds, so the queue does not move on them.
template <typename Object>
void StoreSelectorObject(trace::EventType type, const Object& object,
                         std::map<std::string, Object, std::less<>>* store) {
  const std::string& ns = object.metadata().namespace_();
  std::string key = (ns.empty() ? "default" : ns) + "/" + object.metadata().name();
  if (type == trace::DELETED) {
    store->erase(key);
  } else {
    (*store)[key] = object;
  }
}

}  // namespace

// The Priority admission plugin (plugin/pkg/admission/priority, v1.27), for traces that hold pods
// as clients wrote them: on create, spec.priority and spec.preemptionPolicy come from the named
// class, or from the global default class when none is named (else 0 and PreemptLowerPriority);
// what the pod already carries stays (the API server would refuse a different value). On update
// the API server keeps what admission set at create, so a write without them keeps the stored
// pod's (a class deleted or added meanwhile changes nothing). A class that does not exist leaves
// the pod without a priority (the API server would refuse the pod).
void Replayer::AdmitPriority(trace::EventType type, k8s::Pod* pod) const {
  k8s::PodSpec* spec = pod->mutable_spec();
  if (type == trace::DELETED) return;
  if (auto it = api_pods_.find(PodKey(*pod)); it != api_pods_.end()) {
    const k8s::PodSpec& stored = it->second->obj.spec();
    if (!spec->has_priority() && stored.has_priority()) spec->set_priority(stored.priority());
    if (!spec->has_preemption_policy() && stored.has_preemption_policy()) {
      spec->set_preemption_policy(stored.preemption_policy());
    }
    return;
  }
  const k8s::PriorityClass* pc = nullptr;
  if (spec->priority_class_name().empty()) {
    pc = DefaultPriorityClass(objects_.priority_classes);
  } else if (auto it = objects_.priority_classes.find(spec->priority_class_name());
             it != objects_.priority_classes.end()) {
    pc = &it->second;
  } else {
    return;
  }
  if (!spec->has_priority()) spec->set_priority(pc != nullptr ? pc->value() : 0);
  if (!spec->has_preemption_policy()) {
    // A class's preemptionPolicy defaults to PreemptLowerPriority (scheduling/v1 defaults).
    spec->set_preemption_policy(pc != nullptr && pc->has_preemption_policy()
                                    ? pc->preemption_policy()
                                    : "PreemptLowerPriority");
  }
}

Outcome Replayer::Deliver(const trace::ApiEvent& event, size_t index) {
  std::string where = "record " + std::to_string(index);
  switch (event.object_case()) {
    case trace::ApiEvent::kPod: {
      k8s::Pod obj = event.pod();
      AdmitPriority(event.type(), &obj);
      auto pod = reference::BuildPod(std::move(obj), features_);
      if (!pod.ok())
        return Error{where + ": pod " + event.pod().metadata().name() + ": " + pod.message()};
      return OnPod(event.type(), *pod);
    }
    case trace::ApiEvent::kNode: {
      auto node = reference::BuildNode(event.node());
      if (!node.ok())
        return Error{where + ": node " + event.node().metadata().name() + ": " + node.message()};
      return OnNode(event.type(), *node);
    }
    case trace::ApiEvent::kNamespace:
      if (event.type() == trace::DELETED) {
        objects_.namespaces.erase(event.namespace_().metadata().name());
      } else {
        objects_.namespaces[event.namespace_().metadata().name()] = event.namespace_();
      }
      return Outcome::Ok();
    case trace::ApiEvent::kPriorityClass:
      if (event.type() == trace::DELETED) {
        objects_.priority_classes.erase(event.priority_class().metadata().name());
      } else {
        objects_.priority_classes[event.priority_class().metadata().name()] =
            event.priority_class();
      }
      return Outcome::Ok();
    case trace::ApiEvent::kPodDisruptionBudget: {
      const auto& pdb = event.pod_disruption_budget();
      std::string ns =
          pdb.metadata().namespace_().empty() ? "default" : pdb.metadata().namespace_();
      std::string key = ns + "/" + pdb.metadata().name();
      if (event.type() == trace::DELETED) {
        objects_.pdbs.erase(key);
      } else {
        objects_.pdbs[key] = pdb;
      }
      return Outcome::Ok();
    }
    case trace::ApiEvent::kService:
      StoreSelectorObject(event.type(), event.service(), &objects_.services);
      return Outcome::Ok();
    case trace::ApiEvent::kReplicationController:
      StoreSelectorObject(event.type(), event.replication_controller(),
                          &objects_.replication_controllers);
      return Outcome::Ok();
    case trace::ApiEvent::kReplicaSet:
      StoreSelectorObject(event.type(), event.replica_set(), &objects_.replica_sets);
      return Outcome::Ok();
    case trace::ApiEvent::kStatefulSet:
      StoreSelectorObject(event.type(), event.stateful_set(), &objects_.stateful_sets);
      return Outcome::Ok();
    case trace::ApiEvent::kPersistentVolume:
    case trace::ApiEvent::kPersistentVolumeClaim:
    case trace::ApiEvent::kStorageClass:
    case trace::ApiEvent::kCsiNode:
    case trace::ApiEvent::kCsiDriver:
    case trace::ApiEvent::kCsiStorageCapacity:
      return OnStorage(event);
    case trace::ApiEvent::OBJECT_NOT_SET:
      break;
  }
  return Error{where + ": field api.object: missing"};
}

Outcome Replayer::OnPod(trace::EventType type, reference::PodPtr pod) {
  const std::string key = pod->key;
  auto it = api_pods_.find(key);
  reference::PodPtr old = it == api_pods_.end() ? nullptr : it->second;
  // Terminal pods are outside the scheduler's informer (field selector): they look deleted.
  if (type == trace::DELETED || Terminal(*pod)) {
    if (!old) return Outcome::Ok();
    api_pods_.erase(key);
    if (v1_37()) return OnPodV1_37(old, nullptr, /*deleted=*/true);
    if (!old->node_name().empty()) {
      DeleteAssignedPod(old);
    } else {
      queue_->Delete(*old);
    }
    return Outcome::Ok();
  }
  api_pods_[key] = pod;
  if (v1_37()) return OnPodV1_37(old, pod, /*deleted=*/false);
  if (!old) {
    if (!pod->node_name().empty()) {
      AddAssignedPod(pod);
    } else if (ProfileFor(*pod)) {
      queue_->Add(pod);
    }
    return Outcome::Ok();
  }
  bool was_assigned = !old->node_name().empty();
  bool is_assigned = !pod->node_name().empty();
  if (was_assigned && is_assigned) {
    (void)cache_.UpdatePod(pod);
    queue_->AssignedPodUpdated(*pod);
  } else if (!was_assigned && is_assigned) {
    // Bound (by us or by someone else): a delete for the pending handler, an add for the assigned
    // one.
    queue_->Delete(*old);
    AddAssignedPod(pod);
  } else if (!was_assigned && !is_assigned) {
    UpdatePendingPod(old, pod);
  } else {
    DeleteAssignedPod(old);
    if (ProfileFor(*pod)) queue_->Add(pod);
  }
  return Outcome::Ok();
}

void Replayer::UpdatePendingPod(const reference::PodPtr& old_pod,
                                const reference::PodPtr& new_pod) {
  if (v1_37()) {
    if (ProfileFor(*old_pod)) UpdatePendingPodV1_37(old_pod, new_pod);
    return;
  }
  const std::string& rv = new_pod->obj.metadata().resource_version();
  if (!rv.empty() && rv == old_pod->obj.metadata().resource_version()) return;  // a re-delivery
  if (cache_.IsAssumedPod(new_pod->uid())) return;
  if (!ProfileFor(*new_pod)) return;
  queue_->Update(old_pod, new_pod);
}

void Replayer::AddAssignedPod(const reference::PodPtr& pod) {
  (void)cache_.AddPod(pod);  // confirms an assumed pod
  queue_->AssignedPodAdded(*pod);
}

void Replayer::DeleteAssignedPod(const reference::PodPtr& pod) {
  (void)cache_.RemovePod(*pod);
  MoveAll(Predefined("AssignedPodDelete"));
}

Outcome Replayer::OnNode(trace::EventType type, reference::NodePtr node) {
  if (v1_37()) return OnNodeV1_37(type, node);
  const std::string name = node->name();
  auto pre_check = [this, name](const reference::Pod& pod) {
    const reference::NodeInfo* info = cache_.GetNodeInfo(name);
    return info != nullptr && reference::PreCheckForNode(pod, *info);
  };
  auto it = api_nodes_.find(name);
  if (type == trace::DELETED) {
    if (it == api_nodes_.end()) return Outcome::Ok();
    api_nodes_.erase(it);
    (void)cache_.RemoveNode(name);  // v1.27: no move request on node delete
    return Outcome::Ok();
  }
  if (it == api_nodes_.end()) {
    api_nodes_[name] = node;
    (void)cache_.AddNode(node);
    MoveAll(Predefined("NodeAdd"), pre_check);
    return Outcome::Ok();
  }
  reference::NodePtr old = it->second;
  it->second = node;
  (void)cache_.UpdateNode(node);
  if (auto event = NodeUpdateEvent(old->obj, node->obj)) MoveAll(*event, pre_check);
  return Outcome::Ok();
}

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
void KeepForAssumeCache(trace::EventType type, const std::string& key, const Object& delivered,
                        const std::map<std::string, Object, std::less<>>& store,
                        std::map<std::string, Object, std::less<>>* kept) {
  auto it = kept->find(key);
  if (type == trace::DELETED) {
    if (it != kept->end()) kept->erase(it);
    return;
  }
  const Object* cached =
      it != kept->end() ? &it->second : reference::ClusterObjects::Find(store, key);
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

Outcome Replayer::OnStorage(const trace::ApiEvent& event) {
  const trace::EventType type = event.type();
  // Stores the object (or removes it) and returns the event's objects as the informer hands them
  // over: the previous object of an update or delete, the new one of an add or update.
  auto store = [type](auto object, bool namespaced, auto* map) {
    using Object = decltype(object);
    const std::string& ns = object.metadata().namespace_();
    std::string key = object.metadata().name();
    if (namespaced) key = (ns.empty() ? "default" : ns) + "/" + key;
    reference::EventObjects objects;
    if (auto it = map->find(key); it != map->end()) {
      objects.old_object = std::make_shared<const Object>(std::move(it->second));
      map->erase(it);
    }
    if (type != trace::DELETED) {
      objects.new_object = std::make_shared<const Object>(object);
      (*map)[key] = std::move(object);
    }
    return objects;
  };
  auto kind = [&](const reference::EventObjects& objects) {
    return type == trace::DELETED ? trace::DELETED
           : objects.old_object   ? trace::MODIFIED
                                  : trace::ADDED;
  };
  auto move = [&](const reference::EventObjects& objects, std::string_view resource,
                  std::string_view short_name, const k8s::StorageClass* added_class = nullptr) {
    // A delete of an object the informer never held delivers nothing.
    if (type == trace::DELETED && !objects.old_object) return;
    MoveForStorage(kind(objects), resource, short_name, added_class, objects);
  };
  switch (event.object_case()) {
    case trace::ApiEvent::kPersistentVolume: {
      k8s::PersistentVolume pv = event.persistent_volume();
      StampVersion(pv.mutable_metadata());
      if (!v1_37()) {
        KeepForAssumeCache(type, pv.metadata().name(), pv, objects_.persistent_volumes,
                           &objects_.assume_cache_kept_pvs);
      }
      move(store(std::move(pv), false, &objects_.persistent_volumes),
           reference::resource::kPersistentVolume, "Pv");
      break;
    }
    case trace::ApiEvent::kPersistentVolumeClaim: {
      k8s::PersistentVolumeClaim pvc = event.persistent_volume_claim();
      StampVersion(pvc.mutable_metadata());
      if (!v1_37()) {
        const std::string& ns = pvc.metadata().namespace_();
        KeepForAssumeCache(type, (ns.empty() ? "default" : ns) + "/" + pvc.metadata().name(), pvc,
                           objects_.persistent_volume_claims, &objects_.assume_cache_kept_claims);
      }
      move(store(std::move(pvc), true, &objects_.persistent_volume_claims),
           reference::resource::kPersistentVolumeClaim, "Pvc");
      break;
    }
    case trace::ApiEvent::kStorageClass: {
      k8s::StorageClass sc = event.storage_class();
      // The API server's default (SetDefaults_StorageClass), as the adapters apply it.
      if (!sc.has_volume_binding_mode()) sc.set_volume_binding_mode("Immediate");
      move(store(sc, false, &objects_.storage_classes), reference::resource::kStorageClass,
           "StorageClass", &sc);
      break;
    }
    case trace::ApiEvent::kCsiNode:
      move(store(event.csi_node(), false, &objects_.csi_nodes), reference::resource::kCSINode,
           "CSINode");
      break;
    case trace::ApiEvent::kCsiDriver:
      move(store(event.csi_driver(), false, &objects_.csi_drivers), reference::resource::kCSIDriver,
           "CSIDriver");
      break;
    case trace::ApiEvent::kCsiStorageCapacity:
      move(store(event.csi_storage_capacity(), true, &objects_.csi_storage_capacities),
           reference::resource::kCSIStorageCapacity, "CSIStorageCapacity");
      break;
    default:
      break;
  }
  return Outcome::Ok();
}

void Replayer::StampVersion(k8s::ObjectMeta* meta) {
  // As the adapters' API server (adapterkit Objects.stamp): a missing version becomes a decimal
  // integer above every one given so far, from 2^40 up; VolumeBinding's assume cache compares them.
  constexpr uint64_t kStampBase = uint64_t{1} << 40;
  const std::string& given = meta->resource_version();
  if (given.empty()) {
    version_stamp_ = std::max(version_stamp_, kStampBase) + 1;
    meta->set_resource_version(std::to_string(version_stamp_));
    return;
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(given.data(), given.data() + given.size(), n);
  if (ec == std::errc() && end == given.data() + given.size()) {
    version_stamp_ = std::max(version_stamp_, n);
  }
}

void Replayer::MoveForStorage(trace::EventType type, std::string_view resource,
                              std::string_view short_name, const k8s::StorageClass* added_class,
                              const reference::EventObjects& objects) {
  auto registered = registered_actions_.find(resource);
  if (registered == registered_actions_.end()) return;
  uint32_t action = type == trace::ADDED     ? reference::action::kAdd
                    : type == trace::DELETED ? reference::action::kDelete
                                             : reference::action::kUpdate;
  if ((registered->second & action) == 0) return;
  if (v1_37()) {
    MoveAllV1_37(
        reference::ClusterEvent{std::string(resource),
                                type == trace::MODIFIED ? reference::action::kUpdateV1_37 : action,
                                ""},
        objects, nullptr);
    return;
  }
  // v1.27 onStorageClassAdd: only a WaitForFirstConsumer class moves pods.
  if (added_class != nullptr && type == trace::ADDED &&
      added_class->volume_binding_mode() != "WaitForFirstConsumer") {
    return;
  }
  const char* suffix = type == trace::ADDED ? "Add" : type == trace::DELETED ? "Delete" : "Update";
  MoveAll(reference::ClusterEvent{std::string(resource), action, std::string(short_name) + suffix},
          nullptr);
}

void Replayer::MoveAll(const reference::ClusterEvent& event,
                       const std::function<bool(const reference::Pod&)>& pre_check) {
  cluster_events_.emplace_back(clock_.NowNs(), event.label);
  queue_->MoveAllToActiveOrBackoffQueue(event, pre_check);
}

}  // namespace schedcheck::replay
