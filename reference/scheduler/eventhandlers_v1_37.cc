// The Scheduler's informer event handlers for pods and nodes at v1.37 (eventhandlers.go at
// v1.37.2) over the v1.37 queue.
#include <algorithm>

#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/queue/update_events.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

namespace ev = event_v1_37;

EventObjects PodObjects(PodPtr old_pod, PodPtr new_pod) {
  EventObjects o;
  o.old_pod = std::move(old_pod);
  o.new_pod = std::move(new_pod);
  return o;
}

EventObjects NodeObjects(NodePtr old_node, NodePtr new_node) {
  EventObjects o;
  o.old_node = std::move(old_node);
  o.new_node = std::move(new_node);
  return o;
}

// getLEPriorityPreCheck: only pods of lower or equal priority.
PreEnqueueCheck LowerOrEqualPriority(int32_t priority) {
  return [priority](const Pod& pod) { return pod.priority <= priority; };
}

}  // namespace

void Scheduler::MoveAllV1_37(const ClusterEvent& event, const EventObjects& objects,
                             const PreEnqueueCheck& pre_check) {
  if (listener_.move_request) listener_.move_request(EventLabelV1_37(event));
  if (listener_.move_event) listener_.move_event(event);
  queue_->MoveAllToActiveOrBackoffQueue(event, objects, pre_check);
}

// updatePod / addPod / deletePod of eventhandlers.go for one pod event (the informer's store
// already updated by OnPod); `pod` is null for a delete.
void Scheduler::OnPodV1_37(const PodPtr& old, const PodPtr& pod) {
  if (pod == nullptr) {
    if (!old->node_name().empty()) {
      (void)cache_.RemovePod(*old);  // deleteAssignedPodFromCache
      MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(old, nullptr));
    } else if (ProfileFor(*old)) {
      DeletePodFromSchedulingQueueV1_37(old, /*in_binding=*/false);
    }
    return;
  }
  if (!old) {
    if (!pod->node_name().empty()) {
      (void)cache_.AddPod(pod);  // addAssignedPodToCache
      MoveAllV1_37(ev::AssignedPodAdd(), PodObjects(nullptr, pod));
    } else if (ProfileFor(*pod)) {
      // addPodToSchedulingQueue; with GenericWorkload every new pending pod is also an event
      // for the unschedulable pool (a pod that completes a gang).
      queue_->Add(pod);
      if (features_.generic_workload)
        MoveAllV1_37(ev::UnscheduledPodAdd(), PodObjects(nullptr, pod));
    }
    return;
  }
  const bool was_assigned = !old->node_name().empty();
  const bool is_assigned = !pod->node_name().empty();
  if (was_assigned) {
    // updateAssignedPodInCache: this pod is assigned, so it cannot be a target pod.
    (void)cache_.UpdatePod(pod);
    auto events = PodSchedulingPropertiesChange(pod->obj, old->obj, false, pod_resource_gates_);
    std::vector<ClusterEvent> list =
        events.ok() ? *events
                    : std::vector<ClusterEvent>{
                          {std::string(resource::kAssignedPod), action::kUpdateV1_37, ""}};
    for (const ClusterEvent& e : list) MoveAllV1_37(e, PodObjects(old, pod));
  } else if (is_assigned) {
    // A binding: an add for the assigned handler, then the pod leaves the queue.
    (void)cache_.AddPod(pod);
    MoveAllV1_37(ev::AssignedPodAdd(), PodObjects(nullptr, pod));
    if (ProfileFor(*old)) DeletePodFromSchedulingQueueV1_37(old, /*in_binding=*/true);
  } else if (ProfileFor(*old)) {
    UpdatePodInSchedulingQueueV1_37(old, pod);
  }
}

// updatePodInSchedulingQueue.
void Scheduler::UpdatePodInSchedulingQueueV1_37(const PodPtr& old_pod, const PodPtr& new_pod) {
  const std::string& rv = new_pod->obj.metadata().resource_version();
  if (!rv.empty() && rv == old_pod->obj.metadata().resource_version()) return;  // a re-delivery
  if (cache_.IsAssumedPod(new_pod->uid())) {
    // An assumed pod whose deletion has started (a graceful delete while its binding runs).
    if (!new_pod->obj.metadata().deletion_timestamp().empty() &&
        old_pod->obj.metadata().deletion_timestamp().empty()) {
      HandleAssumedPodDeletionV1_37(new_pod->uid());
    }
    return;
  }
  queue_->Update(old_pod, new_pod);
  const std::string& old_nominated = old_pod->obj.status().nominated_node_name();
  if (!old_nominated.empty() && old_nominated != new_pod->obj.status().nominated_node_name()) {
    // The space it held on its old nominated node is free for pods not above it.
    MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(old_pod, nullptr),
                 LowerOrEqualPriority(old_pod->priority));
  }
}

// handleAssumedPodDeletion: a pod deleted while its binding cycle runs. Unless it waits on Permit
// (its binding then fails and frees the space itself), the assumed pod leaves the cache now (its
// binding cycle's ForgetPod then fails and moves nothing); either way the freed space moves other
// pods. (A pod waiting on Permit is not rejected at once here: it fails at its Permit timeout.)
void Scheduler::HandleAssumedPodDeletionV1_37(const std::string& uid) {
  PodPtr assumed = cache_.GetPod(uid);
  if (assumed == nullptr) return;
  const bool waits_on_permit =
      std::any_of(bindings_.begin(), bindings_.end(), [&](const Binding& b) {
        return b.assumed->uid() == uid && !b.pending_waits.empty() && !b.in_pre_bind;
      });
  if (!waits_on_permit) (void)cache_.ForgetPod(*assumed);  // RemoveAssumedPod
  MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(assumed, nullptr));
}

// deletePodFromSchedulingQueue.
void Scheduler::DeletePodFromSchedulingQueueV1_37(const PodPtr& pod, bool in_binding) {
  queue_->Delete(*pod);
  if (in_binding) return;
  if (cache_.IsAssumedPod(pod->uid())) {
    HandleAssumedPodDeletionV1_37(pod->uid());
    return;
  }
  if (!pod->obj.status().nominated_node_name().empty()) {
    MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(pod, nullptr),
                 LowerOrEqualPriority(pod->priority));
  }
}

// addNodeToCache, updateNodeInCache, deleteNodeFromCache of v1.37.
void Scheduler::OnNodeV1_37(WatchEvent type, const NodePtr& node) {
  const std::string name = node->name();
  auto it = nodes_.find(name);
  if (type == WatchEvent::kDeleted) {
    if (it == nodes_.end()) return;
    NodePtr old = it->second;
    nodes_.erase(it);
    MoveAllV1_37({std::string(resource::kNode), action::kDelete, ""}, NodeObjects(old, nullptr));
    (void)cache_.RemoveNode(name);
    return;
  }
  if (it == nodes_.end()) {
    nodes_[name] = node;
    (void)cache_.AddNode(node);
    MoveAllV1_37({std::string(resource::kNode), action::kAdd, ""}, NodeObjects(nullptr, node));
    return;
  }
  NodePtr old = it->second;
  it->second = node;
  (void)cache_.UpdateNode(node);
  for (const ClusterEvent& e : NodeSchedulingPropertiesChange(node->obj, old->obj)) {
    MoveAllV1_37(e, NodeObjects(old, node));
  }
}

}  // namespace schedcheck::reference
