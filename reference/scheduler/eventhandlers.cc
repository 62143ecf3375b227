// The Scheduler's informer event handlers for pods and nodes at v1.27 (eventhandlers.go), the
// routing of pod events that both levels share, preCheckForNode, and the kinds only plugins read.
#include "reference/scheduler/eventhandlers.h"

#include <map>

#include "reference/api/selectors.h"
#include "reference/plugins/node_ports/node_ports.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"
#include "reference/queue/events.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

std::map<std::string, std::string> ConditionStatuses(const k8s::Node& node) {
  std::map<std::string, std::string> out;
  for (const auto& c : node.status().conditions()) out[c.type()] = c.status();
  return out;
}

bool SameMap(const google::protobuf::Map<std::string, std::string>& a,
             const google::protobuf::Map<std::string, std::string>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end() || it->second != v) return false;
  }
  return true;
}

bool SameTaints(const k8s::Node& a, const k8s::Node& b) {
  if (a.spec().taints_size() != b.spec().taints_size()) return false;
  for (int i = 0; i < a.spec().taints_size(); ++i) {
    const auto& x = a.spec().taints(i);
    const auto& y = b.spec().taints(i);
    if (x.key() != y.key() || x.value() != y.value() || x.effect() != y.effect() ||
        x.time_added() != y.time_added()) {
      return false;
    }
  }
  return true;
}

ClusterEvent Predefined(std::string_view label) { return *PredefinedClusterEvent(label); }

bool Terminal(const Pod& pod) {
  const std::string& phase = pod.obj.status().phase();
  return phase == "Succeeded" || phase == "Failed";
}

// The store of a kind keyed by "namespace/name" ("default" for an empty namespace).
template <typename Object>
void StoreNamespaced(WatchEvent type, const Object& object,
                     std::map<std::string, Object, std::less<>>* store) {
  const std::string& ns = object.metadata().namespace_();
  std::string key = (ns.empty() ? "default" : ns) + "/" + object.metadata().name();
  if (type == WatchEvent::kDeleted) {
    store->erase(key);
  } else {
    (*store)[key] = object;
  }
}

// The store of a cluster-scoped kind, keyed by name.
template <typename Map, typename Object>
void StoreByName(WatchEvent type, const Object& object, Map* store) {
  if (type == WatchEvent::kDeleted) {
    store->erase(object.metadata().name());
  } else {
    (*store)[object.metadata().name()] = object;
  }
}

}  // namespace

std::optional<ClusterEvent> NodeUpdateEvent(const k8s::Node& old_node, const k8s::Node& new_node) {
  if (old_node.spec().unschedulable() != new_node.spec().unschedulable() &&
      !new_node.spec().unschedulable()) {
    return Predefined("NodeSpecUnschedulableChange");
  }
  if (!SameMap(old_node.status().allocatable(), new_node.status().allocatable())) {
    return Predefined("NodeAllocatableChange");
  }
  if (!SameMap(old_node.metadata().labels(), new_node.metadata().labels()))
    return Predefined("NodeLabelChange");
  if (!SameTaints(old_node, new_node)) return Predefined("NodeTaintChange");
  if (ConditionStatuses(old_node) != ConditionStatuses(new_node))
    return Predefined("NodeConditionChange");
  return std::nullopt;
}

bool PreCheckForNode(const Pod& pod, const NodeInfo& node, const Features& features) {
  if (node.node() == nullptr) return false;
  const k8s::Node& n = node.node()->obj;
  // AdmissionCheck without includeAllFailures: the first failure decides.
  if (!Fits(pod, node, features).empty()) return false;
  if (!PodMatchesRequiredNodeAffinity(pod.obj, n)) return false;
  if (!pod.node_name().empty() && pod.node_name() != n.metadata().name()) return false;
  if (!FitsPorts(pod, node)) return false;
  const k8s::Taint* untolerated =
      FindUntoleratedTaint(n.spec().taints(), pod.obj.spec().tolerations(),
                           [](const k8s::Taint& t) { return t.effect() == "NoSchedule"; });
  return untolerated == nullptr;
}

void Scheduler::OnPod(WatchEvent type, PodPtr pod) {
  const std::string key = pod->key;
  auto it = pods_.find(key);
  PodPtr old = it == pods_.end() ? nullptr : it->second;
  // Terminal pods are outside the scheduler's informer (field selector): they look deleted.
  if (type == WatchEvent::kDeleted || Terminal(*pod)) {
    if (!old) return;
    pods_.erase(key);
    pod = nullptr;
  } else {
    pods_[key] = pod;
  }
  // GenericWorkload: the cache's pod-group members first (AddPodGroupMember and friends), so
  // that the queue's PreEnqueue counts the pod itself.
  if (features_.generic_workload) {
    if (pod == nullptr) {
      cache_.pod_groups().DeletePod(*old);
    } else if (old == nullptr) {
      cache_.pod_groups().AddPod(pod);
    } else {
      cache_.pod_groups().UpdatePod(old, pod);
    }
  }
  if (queueing_hints()) {
    OnPodV1_37(old, pod);
  } else {
    OnPodV1_27(old, pod);
  }
}

// The pod informer's filtered handlers at v1.27: assigned pods go to the cache, pending pods of
// a profile to the queue; a pod that changes sides is a delete for one and an add for the other.
// `pod` is null for a delete.
void Scheduler::OnPodV1_27(const PodPtr& old, const PodPtr& pod) {
  if (pod == nullptr) {
    if (!old->node_name().empty()) {
      DeletePodFromCache(old);
    } else {
      queue_->Delete(*old);  // deletePodFromSchedulingQueue
    }
    return;
  }
  if (!old) {
    if (!pod->node_name().empty()) {
      AddPodToCache(pod);
    } else if (ProfileFor(*pod)) {
      AddPodToSchedulingQueue(pod);
    }
    return;
  }
  bool was_assigned = !old->node_name().empty();
  bool is_assigned = !pod->node_name().empty();
  if (was_assigned && is_assigned) {
    // updatePodInCache
    (void)cache_.UpdatePod(pod);
    queue_->AssignedPodUpdated(old, pod, Predefined("AssignedPodUpdate"));
  } else if (!was_assigned && is_assigned) {
    // Bound (by us or by someone else): a delete for the pending handler, an add for the assigned
    // one.
    queue_->Delete(*old);
    AddPodToCache(pod);
  } else if (!was_assigned && !is_assigned) {
    UpdatePodInSchedulingQueue(old, pod);
  } else {
    DeletePodFromCache(old);
    if (ProfileFor(*pod)) AddPodToSchedulingQueue(pod);
  }
}

void Scheduler::AddPodToSchedulingQueue(const PodPtr& pod) { queue_->Add(pod); }

void Scheduler::UpdatePodInSchedulingQueue(const PodPtr& old_pod, const PodPtr& new_pod) {
  if (queueing_hints()) {
    if (ProfileFor(*old_pod)) UpdatePodInSchedulingQueueV1_37(old_pod, new_pod);
    return;
  }
  const std::string& rv = new_pod->obj.metadata().resource_version();
  if (!rv.empty() && rv == old_pod->obj.metadata().resource_version()) return;  // a re-delivery
  if (cache_.IsAssumedPod(new_pod->uid())) return;
  if (!ProfileFor(*new_pod)) return;
  queue_->Update(old_pod, new_pod);
}

void Scheduler::AddPodToCache(const PodPtr& pod) {
  (void)cache_.AddPod(pod);  // confirms an assumed pod
  queue_->AssignedPodAdded(pod);
}

void Scheduler::DeletePodFromCache(const PodPtr& pod) {
  (void)cache_.RemovePod(*pod);
  MoveAll(Predefined("AssignedPodDelete"));
}

void Scheduler::OnNode(WatchEvent type, NodePtr node) {
  if (queueing_hints()) {
    OnNodeV1_37(type, node);
  } else {
    OnNodeV1_27(type, node);
  }
}

// addNodeToCache, updateNodeInCache, deleteNodeFromCache of v1.27.
void Scheduler::OnNodeV1_27(WatchEvent type, const NodePtr& node) {
  const std::string name = node->name();
  auto pre_check = [this, name](const Pod& pod) {
    const NodeInfo* info = cache_.GetNodeInfo(name);
    return info != nullptr && PreCheckForNode(pod, *info, features_);
  };
  auto it = nodes_.find(name);
  if (type == WatchEvent::kDeleted) {
    if (it == nodes_.end()) return;
    nodes_.erase(it);
    (void)cache_.RemoveNode(name);  // v1.27: no move request on node delete
    return;
  }
  if (it == nodes_.end()) {
    nodes_[name] = node;
    (void)cache_.AddNode(node);
    MoveAll(Predefined("NodeAdd"), pre_check);
    return;
  }
  NodePtr old = it->second;
  it->second = node;
  (void)cache_.UpdateNode(node);
  if (auto event = NodeUpdateEvent(old->obj, node->obj)) MoveAll(*event, pre_check);
}

void Scheduler::MoveAll(const ClusterEvent& event,
                        const std::function<bool(const Pod&)>& pre_check) {
  if (listener_.move_request) listener_.move_request(event.label);
  if (listener_.move_event) listener_.move_event(event);
  queue_->MoveAllToActiveOrBackoffQueue(event, EventObjects(), pre_check);
}

void Scheduler::OnNamespace(WatchEvent type, const k8s::Namespace& ns) {
  StoreByName(type, ns, &objects_.namespaces);
}

void Scheduler::OnPriorityClass(WatchEvent type, const k8s::PriorityClass& pc) {
  StoreByName(type, pc, &objects_.priority_classes);
}

void Scheduler::OnPodDisruptionBudget(WatchEvent type, const k8s::PodDisruptionBudget& pdb) {
  const std::string& ns = pdb.metadata().namespace_();
  std::string key = (ns.empty() ? "default" : ns) + "/" + pdb.metadata().name();
  if (type == WatchEvent::kDeleted) {
    objects_.pdbs.erase(key);
  } else {
    objects_.pdbs[key] = pdb;
  }
}

// Services, ReplicationControllers, ReplicaSets and StatefulSets: the informers' stores, read by
// PodTopologySpread's default constraints. No cluster event: no v1.27 plugin registers these
// kinds, so the queue does not move on them.
void Scheduler::OnService(WatchEvent type, const k8s::Service& service) {
  StoreNamespaced(type, service, &objects_.services);
}

void Scheduler::OnReplicationController(WatchEvent type, const k8s::ReplicationController& rc) {
  StoreNamespaced(type, rc, &objects_.replication_controllers);
}

void Scheduler::OnReplicaSet(WatchEvent type, const k8s::ReplicaSet& rs) {
  StoreNamespaced(type, rs, &objects_.replica_sets);
}

void Scheduler::OnStatefulSet(WatchEvent type, const k8s::StatefulSet& ss) {
  StoreNamespaced(type, ss, &objects_.stateful_sets);
}

}  // namespace schedcheck::reference
