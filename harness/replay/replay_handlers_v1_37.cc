// Replayer at compat 1.37: the informer event handlers of kube-scheduler v1.37.2
// (pkg/scheduler/eventhandlers.go) over the v1.37 queue, the queue calls of the cycles, and the
// flush instants of that queue.
#include <algorithm>
#include <limits>

#include "harness/replay/replayer_internal.h"
#include "reference/queue/update_events.h"

namespace schedcheck::replay {
namespace {

namespace ev = reference::event_v1_37;
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
constexpr int64_t kBackoffFlushPeriodNs = 1 * kNanosPerSecond;
constexpr int64_t kLeftoverFlushPeriodNs = 30 * kNanosPerSecond;

int64_t NextTick(int64_t after, int64_t period) { return (after / period + 1) * period; }
int64_t TickAtOrAfter(int64_t at, int64_t period) {
  if (at <= 0) return 0;
  return (at + period - 1) / period * period;
}

reference::EventObjects PodObjects(reference::PodPtr old_pod, reference::PodPtr new_pod) {
  reference::EventObjects o;
  o.old_pod = std::move(old_pod);
  o.new_pod = std::move(new_pod);
  return o;
}

reference::EventObjects NodeObjects(reference::NodePtr old_node, reference::NodePtr new_node) {
  reference::EventObjects o;
  o.old_node = std::move(old_node);
  o.new_node = std::move(new_node);
  return o;
}

// getLEPriorityPreCheck: only pods of lower or equal priority.
reference::PreEnqueueCheck LowerOrEqualPriority(int32_t priority) {
  return [priority](const reference::Pod& pod) { return pod.priority <= priority; };
}

}  // namespace

// --- the queue of the run's level ---

reference::Nominator& Replayer::nominator() {
  return v1_37() ? queue37_->nominator() : queue_->nominator();
}

std::optional<reference::QueuedPodInfo> Replayer::QueuePop() {
  return v1_37() ? queue37_->Pop() : queue_->Pop();
}

void Replayer::QueueDone(const reference::Pod& pod) {
  if (v1_37()) {
    queue37_->Done(pod.uid());
  } else {
    queue_->Done(pod.key);
  }
}

void Replayer::MoveAllV1_37(const reference::ClusterEvent& event,
                            const reference::EventObjects& objects,
                            const reference::PreEnqueueCheck& pre_check) {
  cluster_events_.emplace_back(clock_.NowNs(), reference::EventLabelV1_37(event));
  queue37_->MoveAllToActiveOrBackoffQueue(event, objects, pre_check);
}

int64_t Replayer::NextQueueInstantV1_37(int64_t now) const {
  int64_t next = kNever;
  if (std::optional<int64_t> expiry = queue37_->NextBackoffExpiryNs()) {
    // A flush at tick T releases a pod whose (window-aligned) expiry is before truncate(T): T is
    // a second after the expiry at the earliest.
    int64_t release = *expiry == std::numeric_limits<int64_t>::min()
                          ? 0
                          : TickAtOrAfter(*expiry + kBackoffFlushPeriodNs, kBackoffFlushPeriodNs);
    next = std::max(NextTick(now, kBackoffFlushPeriodNs), release);
  }
  const int64_t timeout = 300 * kNanosPerSecond;  // podMaxInUnschedulablePodsDuration
  if (std::optional<int64_t> last = queue37_->OldestUnschedulableActivityNs()) {
    // Moved by the first leftover tick T with T - last > timeout (gated pods too, at 1.37); the
    // pod with the oldest `last` is due first.
    int64_t due = NextTick(*last + timeout, kLeftoverFlushPeriodNs);
    next = std::min(next, std::max(NextTick(now, kLeftoverFlushPeriodNs), due));
  }
  return next;
}

// --- informer handlers ---

// updatePod / addPod / deletePod of eventhandlers.go, for one pod event (the API server's view
// already updated by OnPod).
Outcome Replayer::OnPodV1_37(reference::PodPtr old, reference::PodPtr pod, bool deleted) {
  if (deleted) {
    if (!old->node_name().empty()) {
      (void)cache_.RemovePod(*old);  // deleteAssignedPodFromCache
      MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(old, nullptr));
    } else if (ProfileFor(*old)) {
      DeletePendingPodV1_37(old, /*in_binding=*/false);
    }
    return Outcome::Ok();
  }
  if (!old) {
    if (!pod->node_name().empty()) {
      (void)cache_.AddPod(pod);  // addAssignedPodToCache
      MoveAllV1_37(ev::AssignedPodAdd(), PodObjects(nullptr, pod));
    } else if (ProfileFor(*pod)) {
      // addPodToSchedulingQueue; with GenericWorkload every new pending pod is also an event
      // for the unschedulable pool (a pod that completes a gang).
      queue37_->Add(pod);
      if (generic_workload_) MoveAllV1_37(ev::UnscheduledPodAdd(), PodObjects(nullptr, pod));
    }
    return Outcome::Ok();
  }
  const bool was_assigned = !old->node_name().empty();
  const bool is_assigned = !pod->node_name().empty();
  if (was_assigned) {
    // updateAssignedPodInCache: this pod is assigned, so it cannot be a target pod.
    (void)cache_.UpdatePod(pod);
    auto events =
        reference::PodSchedulingPropertiesChange(pod->obj, old->obj, false, pod_resource_gates_);
    std::vector<reference::ClusterEvent> list =
        events.ok()
            ? *events
            : std::vector<reference::ClusterEvent>{{std::string(reference::resource::kAssignedPod),
                                                    reference::action::kUpdateV1_37, ""}};
    for (const reference::ClusterEvent& e : list) MoveAllV1_37(e, PodObjects(old, pod));
  } else if (is_assigned) {
    // A binding: an add for the assigned handler, then the pod leaves the queue.
    (void)cache_.AddPod(pod);
    MoveAllV1_37(ev::AssignedPodAdd(), PodObjects(nullptr, pod));
    if (ProfileFor(*old)) DeletePendingPodV1_37(old, /*in_binding=*/true);
  } else if (ProfileFor(*old)) {
    UpdatePendingPodV1_37(old, pod);
  }
  return Outcome::Ok();
}

// updatePodInSchedulingQueue.
void Replayer::UpdatePendingPodV1_37(const reference::PodPtr& old_pod,
                                     const reference::PodPtr& new_pod) {
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
  queue37_->Update(old_pod, new_pod);
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
void Replayer::HandleAssumedPodDeletionV1_37(const std::string& uid) {
  reference::PodPtr assumed = cache_.GetPod(uid);
  if (assumed == nullptr) return;
  const bool waits_on_permit =
      std::any_of(bindings_.begin(), bindings_.end(), [&](const Binding& b) {
        return b.assumed->uid() == uid && !b.waiting_plugin.empty() && !b.in_pre_bind;
      });
  if (!waits_on_permit) (void)cache_.ForgetPod(*assumed);  // RemoveAssumedPod
  MoveAllV1_37(ev::AssignedPodDelete(), PodObjects(assumed, nullptr));
}

// deletePodFromSchedulingQueue.
void Replayer::DeletePendingPodV1_37(const reference::PodPtr& pod, bool in_binding) {
  queue37_->Delete(*pod);
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

Outcome Replayer::OnNodeV1_37(trace::EventType type, reference::NodePtr node) {
  const std::string name = node->name();
  auto it = api_nodes_.find(name);
  if (type == trace::DELETED) {
    if (it == api_nodes_.end()) return Outcome::Ok();
    reference::NodePtr old = it->second;
    api_nodes_.erase(it);
    MoveAllV1_37({std::string(reference::resource::kNode), reference::action::kDelete, ""},
                 NodeObjects(old, nullptr));
    (void)cache_.RemoveNode(name);
    return Outcome::Ok();
  }
  if (it == api_nodes_.end()) {
    api_nodes_[name] = node;
    (void)cache_.AddNode(node);
    MoveAllV1_37({std::string(reference::resource::kNode), reference::action::kAdd, ""},
                 NodeObjects(nullptr, node));
    return Outcome::Ok();
  }
  reference::NodePtr old = it->second;
  it->second = node;
  (void)cache_.UpdateNode(node);
  for (const reference::ClusterEvent& e :
       reference::NodeSchedulingPropertiesChange(node->obj, old->obj)) {
    MoveAllV1_37(e, NodeObjects(old, node));
  }
  return Outcome::Ok();
}

}  // namespace schedcheck::replay
