#include "reference/plugins/gang_scheduling/gang_scheduling.h"

namespace schedcheck::reference {
namespace {

const char kQuorumNotMetAtPreEnqueue[] =
    "waiting for minCount pods from a gang to appear in scheduling queue";
const char kQuorumNotMetAtPermit[] = "waiting for minCount pods from a gang to be scheduled";

// areSameHierarchy without CompositePodGroup: the same namespace and group name.
bool SameGroup(const Pod& pod, std::string_view ns, std::string_view name) {
  return pod.obj.metadata().namespace_() == ns && SchedulingGroupName(pod) == name;
}

}  // namespace

Result<std::unique_ptr<Plugin>> GangScheduling::New(const PluginArgs& args, const Handle& handle) {
  if (!handle.features.gang_scheduling_plugin) {
    return Error{"GangScheduling does not exist at compat 1.27 (new in v1.35)"};
  }
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"GangScheduling takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<GangScheduling>(handle));
}

Status GangScheduling::PreEnqueue(const Pod& pod) {
  const std::string_view group = SchedulingGroupName(pod);
  if (group.empty()) return Status();
  const std::string& ns = pod.obj.metadata().namespace_();
  const PodGroupStates* groups = handle_.pod_groups;
  const k8s::PodGroup* pod_group = groups == nullptr ? nullptr : groups->GetPodGroup(ns, group);
  if (pod_group == nullptr) {
    // The pod is unschedulable until its PodGroup object is created.
    return Status(Code::kUnschedulableAndUnresolvable, "waiting for pods's pod group \"" +
                                                           std::string(group) +
                                                           "\" to appear in scheduling queue");
  }
  const std::optional<int> min_count = GangMinCount(*pod_group);
  if (!min_count) return Status();  // only gangs are held back
  // The group's state exists: it holds the PodGroup object.
  if (groups->GetState(ns, group)->AllPodsCount() < *min_count) {
    return Status(Code::kUnschedulableAndUnresolvable, kQuorumNotMetAtPreEnqueue);
  }
  return Status();
}

Status GangScheduling::Permit([[maybe_unused]] CycleState& state, const Pod& pod,
                              [[maybe_unused]] const std::string& node, int64_t* timeout_ns) {
  *timeout_ns = 0;
  const std::string_view group = SchedulingGroupName(pod);
  if (group.empty()) return Status();
  const std::string& ns = pod.obj.metadata().namespace_();
  const std::string key = PodGroupKey(ns, group);
  const PodGroupStates* groups = handle_.pod_groups;
  const PodGroupState* pg_state = groups == nullptr ? nullptr : groups->GetState(ns, group);
  if (pg_state == nullptr) {
    return Status::Error("failed to get podGroup " + key +
                         ": pod group state not found for pod group " + key);
  }
  if (!pg_state->pod_group) {
    return Status::Error("failed to get podGroup " + key +
                         ": pod group object not found for pod group " + key);
  }
  // permitPodGroup.
  const std::optional<int> min_count = GangMinCount(*pg_state->pod_group);
  if (!min_count) return Status();
  if (pg_state->ScheduledPodsCount() < *min_count) {
    // Members still in the queue may have been waiting for this one to be scheduled.
    if (handle_.waiting_pods != nullptr)
      handle_.waiting_pods->Activate(pg_state->UnscheduledPods());
    *timeout_ns = kGangPermitTimeoutNs;
    return Status(Code::kWait, kQuorumNotMetAtPermit);
  }
  // The quorum is met: this pod goes on, and so does every member waiting on Permit.
  if (handle_.waiting_pods != nullptr) {
    for (const std::string& uid : pg_state->AssumedPods()) {
      (void)handle_.waiting_pods->Allow(uid, kName);
    }
  }
  return Status();
}

Status GangScheduling::PlacementFeasible(int min_count, int scheduled, int remaining) {
  if (remaining + scheduled < min_count) {
    return Status(Code::kUnschedulable, "minCount (" + std::to_string(min_count) +
                                            ") cannot be satisfied: " + std::to_string(scheduled) +
                                            " scheduled, " + std::to_string(remaining) +
                                            " remaining");
  }
  if (scheduled < min_count) {
    return Status(Code::kWait, "minCount (" + std::to_string(min_count) +
                                   ") is not yet satisfied: " + std::to_string(scheduled) +
                                   " scheduled, " + std::to_string(remaining) + " remaining");
  }
  return Status();
}

Result<QueueingHint> GangScheduling::IsSchedulableAfterPodAdded(const Pod& pod,
                                                                const EventObjects& objects) const {
  const PodPtr& added = objects.new_pod;
  if (added == nullptr) return Error{"expected Pod, but got nothing"};
  if (SchedulingGroupName(pod).empty() || SchedulingGroupName(*added).empty()) {
    return QueueingHint::kQueueSkip;
  }
  return SameGroup(pod, added->obj.metadata().namespace_(), SchedulingGroupName(*added))
             ? QueueingHint::kQueue
             : QueueingHint::kQueueSkip;
}

Result<QueueingHint> GangScheduling::IsSchedulableAfterPodGroupAdded(
    const Pod& pod, const EventObjects& objects) const {
  Result<std::pair<const k8s::PodGroup*, const k8s::PodGroup*>> typed = As<k8s::PodGroup>(objects);
  if (!typed.ok()) return typed.error();
  const k8s::PodGroup* added = typed->second;
  if (added == nullptr) return Error{"expected PodGroup, but got nothing"};
  if (SchedulingGroupName(pod).empty()) return QueueingHint::kQueueSkip;
  return SameGroup(pod, added->metadata().namespace_(), added->metadata().name())
             ? QueueingHint::kQueue
             : QueueingHint::kQueueSkip;
}

Result<QueueingHint> GangScheduling::IsSchedulableAfterPodGroupUpdated(
    const Pod& pod, const EventObjects& objects) const {
  Result<std::pair<const k8s::PodGroup*, const k8s::PodGroup*>> typed = As<k8s::PodGroup>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_group, new_group] = *typed;
  if (old_group == nullptr || new_group == nullptr) {
    return Error{"expected PodGroup, but got nothing"};
  }
  if (SchedulingGroupName(pod).empty()) return QueueingHint::kQueueSkip;
  if (!SameGroup(pod, new_group->metadata().namespace_(), new_group->metadata().name())) {
    return QueueingHint::kQueueSkip;
  }
  // Only a gang whose minCount decreased may now be schedulable.
  const std::optional<int> old_min = GangMinCount(*old_group);
  const std::optional<int> new_min = GangMinCount(*new_group);
  if (!old_min || !new_min || *new_min >= *old_min) return QueueingHint::kQueueSkip;
  return QueueingHint::kQueue;
}

std::vector<ClusterEventWithHint> GangScheduling::EventsToRegisterWithHints() const {
  auto bind = [this](auto method) {
    return [this, method](const Pod& pod, const EventObjects& objects) {
      return (this->*method)(pod, objects);
    };
  };
  const std::string unscheduled(resource::kUnscheduledPod);
  const std::string assigned(resource::kAssignedPod);
  const std::string pod_group(resource::kPodGroup);
  // PodSchedulingGroup is immutable: no pod Update event can complete a gang.
  return {{{unscheduled, action::kAdd, ""}, bind(&GangScheduling::IsSchedulableAfterPodAdded)},
          {{assigned, action::kAdd, ""}, bind(&GangScheduling::IsSchedulableAfterPodAdded)},
          {{pod_group, action::kAdd, ""}, bind(&GangScheduling::IsSchedulableAfterPodGroupAdded)},
          {{pod_group, action::kUpdateV1_37, ""},
           bind(&GangScheduling::IsSchedulableAfterPodGroupUpdated)}};
}

}  // namespace schedcheck::reference
