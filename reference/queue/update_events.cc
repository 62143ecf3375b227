#include "reference/queue/update_events.h"

#include <google/protobuf/util/message_differencer.h>

#include <map>
#include <string>

#include "reference/api/pod_requests.h"
#include "reference/api/quantity.h"
#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

using StringMap = google::protobuf::Map<std::string, std::string>;

// Semantic equality of two ResourceLists: the same names, each quantity equal in value ("1" and
// "1000m" are equal), compared in thousandths. A quantity that does not parse equals only the
// same text.
bool SameResourceList(const StringMap& a, const StringMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, text] : a) {
    auto it = b.find(name);
    if (it == b.end()) return false;
    if (it->second == text) continue;
    Result<Quantity> x = Quantity::Parse(text);
    Result<Quantity> y = Quantity::Parse(it->second);
    if (!x.ok() || !y.ok() || x->MilliValue() != y->MilliValue()) return false;
  }
  return true;
}

// The condition statuses by type (a later duplicate type wins, as in the Go map).
std::map<std::string, std::string> ConditionStatuses(
    const google::protobuf::RepeatedPtrField<k8s::NodeCondition>& conditions) {
  std::map<std::string, std::string> out;
  for (const k8s::NodeCondition& c : conditions) out[c.type()] = c.status();
  return out;
}

// resource.PodRequests with the options the event extractors pass (InPlacePodVerticalScaling on,
// InPlacePodLevelResourcesVerticalScaling as the gate says).
Result<ResourceList> StatusAwareRequests(const k8s::Pod& pod, const PodResourceGates& gates) {
  PodResourcesOptions opts;
  opts.use_status_resources = true;
  opts.in_place_pod_level_resources_vertical_scaling_enabled =
      gates.in_place_pod_level_resources_vertical_scaling;
  return PodRequests(pod, opts);
}

// extractPodScaleDown: a request removed or lowered.
bool ScaledDown(const ResourceList& new_requests, const ResourceList& old_requests) {
  for (const auto& [name, old_value] : old_requests) {
    auto it = new_requests.find(name);
    if (it == new_requests.end() || old_value > it->second) return true;
  }
  return false;
}

}  // namespace

std::vector<ClusterEvent> NodeSchedulingPropertiesChange(const k8s::Node& new_node,
                                                         const k8s::Node& old_node) {
  namespace bits = action;
  std::vector<uint32_t> actions;
  // spec.unschedulable lifted is reported as a taint change.
  if (new_node.spec().unschedulable() != old_node.spec().unschedulable() &&
      !new_node.spec().unschedulable()) {
    actions.push_back(bits::kUpdateNodeTaint);
  }
  if (!SameResourceList(old_node.status().allocatable(), new_node.status().allocatable())) {
    actions.push_back(bits::kUpdateNodeAllocatable);
  }
  if (!SemanticEqualMaps(new_node.metadata().labels(), old_node.metadata().labels())) {
    actions.push_back(bits::kUpdateNodeLabel);
  }
  if (!SemanticEqualLists(new_node.spec().taints(), old_node.spec().taints())) {
    actions.push_back(bits::kUpdateNodeTaint);
  }
  if (ConditionStatuses(old_node.status().conditions()) !=
      ConditionStatuses(new_node.status().conditions())) {
    actions.push_back(bits::kUpdateNodeCondition);
  }
  if (!SemanticEqualMaps(old_node.metadata().annotations(), new_node.metadata().annotations())) {
    actions.push_back(bits::kUpdateNodeAnnotation);
  }
  const auto& old_features = old_node.status().declared_features();
  const auto& new_features = new_node.status().declared_features();
  if (old_features.size() != new_features.size() ||
      !std::equal(old_features.begin(), old_features.end(), new_features.begin())) {
    actions.push_back(bits::kUpdateNodeDeclaredFeature);
  }
  std::vector<ClusterEvent> events;
  for (uint32_t a : actions) events.push_back({std::string(resource::kNode), a, ""});
  return events;
}

// resourceclaim.PodStatusEqual and PodExtendedStatusEqual.
static bool ClaimStatusesEqual(const k8s::PodStatus& a, const k8s::PodStatus& b) {
  const auto& x = a.resource_claim_statuses();
  const auto& y = b.resource_claim_statuses();
  if (x.size() != y.size()) return false;
  for (int i = 0; i < x.size(); ++i) {
    if (x[i].name() != y[i].name() ||
        x[i].has_resource_claim_name() != y[i].has_resource_claim_name() ||
        x[i].resource_claim_name() != y[i].resource_claim_name()) {
      return false;
    }
  }
  return google::protobuf::util::MessageDifferencer::Equals(a.extended_resource_claim_status(),
                                                            b.extended_resource_claim_status()) &&
         a.has_extended_resource_claim_status() == b.has_extended_resource_claim_status();
}

Result<std::vector<ClusterEvent>> PodSchedulingPropertiesChange(const k8s::Pod& new_pod,
                                                                const k8s::Pod& old_pod,
                                                                bool is_target_pod,
                                                                const PodResourceGates& gates) {
  namespace bits = action;
  const std::string_view r = !new_pod.spec().node_name().empty() ? resource::kAssignedPod
                             : is_target_pod                     ? resource::kTargetPod
                                                                 : resource::kUnscheduledPod;
  Result<ResourceList> new_requests = StatusAwareRequests(new_pod, gates);
  if (!new_requests.ok()) return Error{"new pod: " + new_requests.message()};
  Result<ResourceList> old_requests = StatusAwareRequests(old_pod, gates);
  if (!old_requests.ok()) return Error{"old pod: " + old_requests.message()};

  std::vector<uint32_t> actions;
  if (!SemanticEqualMaps(new_pod.metadata().labels(), old_pod.metadata().labels())) {
    actions.push_back(bits::kUpdatePodLabel);
  }
  if (ScaledDown(*new_requests, *old_requests)) actions.push_back(bits::kUpdatePodScaleDown);
  // extractPodScaleUp is the same test with the roles swapped: a request added or raised.
  if (ScaledDown(*old_requests, *new_requests)) actions.push_back(bits::kUpdatePodScaleUp);
  if (new_pod.spec().scheduling_gates().empty() && !old_pod.spec().scheduling_gates().empty()) {
    actions.push_back(bits::kUpdatePodSchedulingGatesEliminated);
  }
  // Tolerations can only be added (API validation), so a different count is the change.
  if (new_pod.spec().tolerations_size() != old_pod.spec().tolerations_size()) {
    actions.push_back(bits::kUpdatePodToleration);
  }
  // extractPodGeneratedResourceClaimChange (DynamicResourceAllocation, on at v1.37): the claims
  // the ResourceClaim controller made for the pod changed.
  if (!ClaimStatusesEqual(new_pod.status(), old_pod.status())) {
    actions.push_back(bits::kUpdatePodGeneratedResourceClaim);
  }
  if (actions.empty()) actions.push_back(bits::kUpdateV1_37);
  std::vector<ClusterEvent> events;
  for (uint32_t a : actions) events.push_back({std::string(r), a, ""});
  return events;
}

}  // namespace schedcheck::reference
