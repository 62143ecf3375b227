// NodeResourcesFit's v1.37 EventsToRegister and queueing hints (noderesources/fit.go at v1.37.2,
// default feature gates: InPlacePodVerticalScaling on, so scale-downs are registered;
// InPlacePodVerticalScalingSchedulerPreemption off, so scale-ups are not and no pod is a deferred
// resize). The DeviceClass registration of DRAExtendedResource is left out: schedcheck models no
// DeviceClass, so that event never happens (docs/DEVIATIONS.md).
#include <string>

#include "reference/api/pod_requests.h"
#include "reference/api/resource.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference {
namespace {

// isSchedulableAfterAssignedPodDelete: any bound or nominated pod's deletion may free room.
Result<QueueingHint> IsSchedulableAfterAssignedPodDelete(const Pod&, const EventObjects& e) {
  const Pod& deleted = *e.old_pod;
  if (deleted.node_name().empty() && deleted.obj.status().nominated_node_name().empty()) {
    return QueueingHint::kQueueSkip;
  }
  return QueueingHint::kQueue;
}

// isSchedulableAfterTargetPodScaleDown: the rejected pod now asks for less.
Result<QueueingHint> IsSchedulableAfterTargetPodScaleDown(const Pod&, const EventObjects&) {
  return QueueingHint::kQueue;
}

// The options fit.go passes here: status resources counted, pod-level status resources as the
// InPlacePodLevelResourcesVerticalScaling gate says (pod-level requests always: the options do
// not skip them, whatever PodLevelResources says).
PodResourcesOptions StatusAwareOptions(bool in_place_pod_level) {
  PodResourcesOptions opts;
  opts.use_status_resources = true;
  opts.in_place_pod_level_resources_vertical_scaling_enabled = in_place_pod_level;
  return opts;
}

Result<Resource> StatusAwareRequests(const k8s::Pod& pod, bool in_place_pod_level) {
  Result<ResourceList> list = PodRequests(pod, StatusAwareOptions(in_place_pod_level));
  if (!list.ok()) return list.error();
  return ResourceFromList(*list);
}

// haveEnoughRelevantResourcesDecreased: the modified pod is bound and one resource the target
// pod requests (non-zero) went down.
Result<bool> HaveEnoughRelevantResourcesDecreased(const Pod& target, const Pod& original,
                                                  const Pod& modified, bool in_place_pod_level) {
  if (modified.node_name().empty()) return false;
  Result<Resource> before = StatusAwareRequests(original.obj, in_place_pod_level);
  if (!before.ok()) return before.error();
  Result<Resource> after = StatusAwareRequests(modified.obj, in_place_pod_level);
  if (!after.ok()) return after.error();
  Result<ResourceList> wanted = PodRequests(target.obj, StatusAwareOptions(in_place_pod_level));
  if (!wanted.ok()) return wanted.error();
  for (const auto& [name, value] : *wanted) {
    if (value == 0) continue;
    if (name == kResourceCpu || name == kResourceMemory || name == kResourceEphemeralStorage ||
        IsScalarResourceName(name)) {
      if (before->Get(name) > after->Get(name)) return true;
    }
  }
  return false;
}

// isSchedulableAfterAssignedPodScaleDown.
Result<QueueingHint> IsSchedulableAfterAssignedPodScaleDown(const Pod& pod, const EventObjects& e,
                                                            bool in_place_pod_level) {
  Result<bool> decreased =
      HaveEnoughRelevantResourcesDecreased(pod, *e.old_pod, *e.new_pod, in_place_pod_level);
  if (!decreased.ok()) return decreased.error();
  return *decreased ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

// haveAnyRequestedResourcesIncreased: more pods allowed, or more of a resource the pod requests
// (with no DeviceClass, no extended resource is delegated to DRA).
bool HaveAnyRequestedResourcesIncreased(const Pod& pod, const Node& original,
                                        const Node& modified) {
  const Resource& request = ComputePodResourceRequest(pod);
  const Resource& before = original.allocatable;
  const Resource& after = modified.allocatable;
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalar.empty()) {
    return false;
  }
  if ((request.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (request.memory > 0 && after.memory > before.memory) ||
      (request.ephemeral_storage > 0 && after.ephemeral_storage > before.ephemeral_storage)) {
    return true;
  }
  for (const auto& [name, value] : request.scalar) {
    if (value == 0) continue;
    if (after.Scalar(name) > before.Scalar(name)) return true;
  }
  return false;
}

// isSchedulableAfterNodeChange: QueueSkip unless the pod fits the new node on its own (an empty
// NodeInfo of it, isFit); then Queue for an added node, and for an update only when the node
// offers more of something the pod asks for.
Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod& pod, const EventObjects& e,
                                                  const Features& features) {
  NodeInfo modified(e.new_node);
  if (!FitsRequest(ComputePodResourceRequest(pod), modified, {}, {}, features).empty()) {
    return QueueingHint::kQueueSkip;
  }
  if (e.old_node == nullptr) return QueueingHint::kQueue;
  return HaveAnyRequestedResourcesIncreased(pod, *e.old_node, *e.new_node)
             ? QueueingHint::kQueue
             : QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> NodeResourcesFit::EventsToRegisterWithHints() const {
  return {
      {{std::string(resource::kAssignedPod), action::kDelete, ""},
       IsSchedulableAfterAssignedPodDelete},
      {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeAllocatable, ""},
       [features = features_](const Pod& pod, const EventObjects& e) {
         return IsSchedulableAfterNodeChange(pod, e, features);
       }},
      {{std::string(resource::kAssignedPod), action::kUpdatePodScaleDown, ""},
       [in_place = features_.in_place_pod_level_resources_vertical_scaling](const Pod& pod,
                                                                            const EventObjects& e) {
         return IsSchedulableAfterAssignedPodScaleDown(pod, e, in_place);
       }},
      {{std::string(resource::kTargetPod), action::kUpdatePodScaleDown, ""},
       IsSchedulableAfterTargetPodScaleDown},
  };
}

}  // namespace schedcheck::reference
