#include "reference/base/feature_gates.h"

#include <array>

namespace schedcheck::reference {
namespace {

struct GateSpec {
  std::string_view name;
  bool default_value;
  std::string_view stage;  // at v1.37.2 (pkg/features/kube_features.go)
  // Whether the reference models the non-default value (else only the default is accepted).
  bool other_value_modelled;
};

// The gates kube-scheduler v1.37.2 reads while placing pods, queueing them or preempting, with
// their defaults at the tag. GA gates locked to their default are left out: upstream refuses to
// set them too.
constexpr std::array<GateSpec, 32> kGatesV1_37 = {{
    // Alpha gates kube-scheduler reads (pod groups, DRA attributes, ...): default only, but for
    // SchedulerPreQueueingHints below.
    {"CompositePodGroup", false, "alpha", false},
    {"DRADerivedAttributes", false, "alpha", false},
    {"DRADeviceCompatibilityGroups", false, "alpha", false},
    {"DRAListTypeAttributes", false, "alpha", false},
    {"DRANodeAllocatableResources", false, "alpha", false},
    {"DRAOptionalNodeOperations", false, "alpha", false},
    // The DRA gates below change only how DynamicResources allocates devices for pods with
    // resourceClaims; pods without claims get PreFilter Skip either way. A replay refuses DRA
    // objects with the first four off (the allocator is modelled at the defaults, row
    // "DynamicResources" of docs/DEVIATIONS.md).
    {"DRAConsumableCapacity", true, "beta", true},
    {"DRADeviceBindingConditions", true, "beta", true},
    {"DRAFractionalCapacityRange", true, "beta", true},
    {"DRAPartitionableDevices", true, "beta", true},
    {"DRASchedulerFilterTimeout", true, "beta", true},
    {"DRAWorkloadResourceClaims", false, "beta", true},
    // On: GangScheduling joins the default profile, every new pending pod is an
    // UnscheduledPodAdd event for the unschedulable pool, and the batch serves a pod of the same
    // cycle. Pod groups themselves are not modelled (pods carry no spec.schedulingGroup).
    {"GenericWorkload", false, "beta", true},
    // Off: pod-level status resources are not counted (pod_requests.h, PodResourceGates).
    {"InPlacePodLevelResourcesVerticalScaling", true, "beta", true},
    {"InPlacePodVerticalScalingSchedulerPreemption", false, "alpha", false},
    {"InterPodAffinityHostnameFastPath", false, "alpha", false},
    // Off: PodTopologySpread ignores matchLabelKeys (FilterTopologySpreadConstraints).
    {"MatchLabelKeysInPodTopologySpread", true, "beta", true},
    // The API server's merge of matchLabelKeys into labelSelector on create; kube-scheduler does
    // not read it, but it depends on MatchLabelKeysInPodTopologySpread (off needs it off too).
    {"MatchLabelKeysInPodTopologySpreadSelectorMerge", true, "beta", true},
    // Off: no PreBindPreFlight and no nominatedNodeName written in the binding cycle (replay).
    {"NominatedNodeNameForExpectation", true, "beta", true},
    // Off, v1.37 never reuses a previous pod's scores: the reference, which never batches, is
    // then exact for every profile (replay otherwise refuses profiles that could batch).
    {"OpportunisticBatching", true, "beta", true},
    // Off: spec.resources is not counted in a pod's requests (pod_requests.h, PodResourceGates).
    {"PodLevelResources", true, "beta", true},
    // Not read by kube-scheduler (API defaulting and the kubelet's QoS class), but on by default
    // and depending on PodLevelResources: turning that off needs them off too, as upstream says.
    {"PodLevelResourcesFixDefaulting", true, "beta", true},
    {"PodLevelResourcesFixKubeletQOSClass", true, "beta", true},
    {"PodGroupPreemptionPolicy", false, "alpha", false},
    // On: the API dispatcher queues the scheduler's status patches, bindings and nomination
    // clearing; under the replay conventions each call runs as it is queued (virtual time, API
    // calls take no time), so the decisions are the gate-off ones (docs/DEVIATIONS.md).
    {"SchedulerAsyncAPICalls", false, "beta", true},
    // Off: DefaultPreemption's synchronous prepareCandidate (deletions, then nominations cleared).
    {"SchedulerAsyncPreemption", true, "beta", true},
    // Off: the queue of v1.33 and before for pods in backoff (SchedulingQueueV1_37's setup).
    {"SchedulerPopFromBackoffQ", true, "beta", true},
    // On: a move request first asks the plugins' PreQueueingHints which pods to look at. Only
    // DynamicResources has one, for ResourceClaim events, which never happen in the model (no DRA
    // object), so no request is narrowed and the decisions are the gate-off ones.
    {"SchedulerPreQueueingHints", false, "alpha", true},
    // Off: VolumeBinding does not score, and a configured shape is refused (VolumeBinding::New).
    {"StorageCapacityScoring", true, "beta", true},
    {"TaintTolerationComparisonOperators", false, "alpha", false},
    {"TopologyAwareWorkloadScheduling", false, "alpha", false},
    // Off: NodeVolumeLimits admits a node whose CSINode lacks the pod's CSI driver.
    {"VolumeLimitScaling", true, "beta", true},
}};

// Upstream's dependencies among these gates (defaultKubernetesFeatureGateDependencies at the
// tag): a gate that is on needs each gate it depends on to be on. The GA gates some of them also
// depend on (InPlacePodVerticalScaling, NodeDeclaredFeatures, DynamicResourceAllocation,
// DRAResourceClaimDeviceStatus) are locked on.
struct GateDependency {
  std::string_view gate;
  std::string_view needs;
};
constexpr std::array<GateDependency, 6> kDependenciesV1_37 = {{
    {"DRAFractionalCapacityRange", "DRAConsumableCapacity"},
    {"DRAWorkloadResourceClaims", "GenericWorkload"},
    {"InPlacePodLevelResourcesVerticalScaling", "PodLevelResources"},
    {"MatchLabelKeysInPodTopologySpreadSelectorMerge", "MatchLabelKeysInPodTopologySpread"},
    {"PodLevelResourcesFixDefaulting", "PodLevelResources"},
    {"PodLevelResourcesFixKubeletQOSClass", "PodLevelResources"},
}};

const GateSpec* Find(std::string_view name) {
  for (const GateSpec& g : kGatesV1_37) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// strconv.ParseBool.
bool ParseBool(std::string_view s, bool* out) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (s == t) return *out = true, true;
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (s == f) return *out = false, true;
  }
  return false;
}

}  // namespace

Result<FeatureGates> ParseFeatureGates(std::string_view text) {
  FeatureGates gates;
  if (Trim(text).empty()) return gates;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string_view entry = Trim(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      return Error{"feature gates: \"" + std::string(entry) + "\": expected NAME=true|false"};
    }
    const std::string name(Trim(entry.substr(0, eq)));
    bool value = false;
    if (name.empty() || !ParseBool(Trim(entry.substr(eq + 1)), &value)) {
      return Error{"feature gates: \"" + std::string(entry) + "\": expected NAME=true|false"};
    }
    gates[name] = value;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return gates;
}

std::string FeatureGatesText(const FeatureGates& gates) {
  std::string out;
  for (const auto& [name, value] : gates)
    out += (out.empty() ? "" : ",") + name + "=" + (value ? "true" : "false");
  return out;
}

std::string CheckFeatureGates(const FeatureGates& gates, std::string_view compat) {
  if (gates.empty()) return "";
  if (compat != "1.37") {
    return "feature gates are taken at compat 1.37 only (compat " + std::string(compat) +
           " runs with its release's defaults)";
  }
  for (const auto& [name, value] : gates) {
    const GateSpec* g = Find(name);
    if (g == nullptr) {
      return "feature gate " + name +
             ": not a gate kube-scheduler v1.37.2 reads while scheduling that can be set (GA "
             "gates are locked to their defaults)";
    }
    if (value != g->default_value && !g->other_value_modelled) {
      return "feature gate " + name + "=" + (value ? "true" : "false") +
             ": schedcheck models the " + std::string(g->stage) + " gate " + name +
             " only at its v1.37.2 default (" + (g->default_value ? "true" : "false") + ")";
    }
  }
  // As upstream's feature gate refuses them, in its words (one entry per dependent gate).
  std::string unmet;
  for (const GateDependency& d : kDependenciesV1_37) {
    if (GateEnabled(gates, d.gate) && !GateEnabled(gates, d.needs)) {
      unmet += std::string(unmet.empty() ? "" : ", ") + std::string(d.gate) +
               " is enabled, but depends on features that are disabled: [" + std::string(d.needs) +
               "]";
    }
  }
  if (!unmet.empty()) return "feature gates " + FeatureGatesText(gates) + ": [" + unmet + "]";
  return "";
}

bool GateEnabled(const FeatureGates& gates, std::string_view name) {
  if (auto it = gates.find(std::string(name)); it != gates.end()) return it->second;
  const GateSpec* g = Find(name);
  return g != nullptr && g->default_value;
}

}  // namespace schedcheck::reference
