// The constraint model shared by PodTopologySpread's filtering and scoring halves (v1.27
// podtopologyspread/common.go): constraints as the scheduler uses them, the node eligibility
// rules (all topology keys present, nodeAffinityPolicy, nodeTaintsPolicy) and pod counting.
// Internal to the plugin folder.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference/api/label_ids.h"
#include "reference/api/objects.h"
#include "reference/api/selectors.h"
#include "reference/base/result.h"
#include "reference/framework/pod_info.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::pod_topology_spread {

inline constexpr std::string_view kDoNotSchedule = "DoNotSchedule";
inline constexpr std::string_view kScheduleAnyway = "ScheduleAnyway";
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";

// labels.Selector as upstream builds it from a constraint: a nil labelSelector is "Nothing";
// a present one is its matchLabels AND matchExpressions (plus the matchLabelKeys additions).
struct SpreadSelector {
  bool nothing = true;
  k8s::LabelSelector selector;
  // `selector` compiled once per cycle: it is matched against every pod on every node.
  CompiledLabelSelector compiled;

  // labels.Selector.Empty(): true only for a present selector without any requirement (it
  // matches every pod). Nothing is not Empty. Set with `selector`, as it is read per node.
  bool empty = false;
  bool Empty() const { return empty; }
  bool Matches(const Pod& pod) const { return compiled.Matches(pod.label_ids); }
};

// topologySpreadConstraint: an API constraint with defaults applied (v1.27 gates:
// MinDomainsInPodTopologySpread, NodeInclusionPolicyInPodTopologySpread and
// MatchLabelKeysInPodTopologySpread all on).
struct SpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  LabelId topology_key_id = kNoLabel;  // topology_key interned, for lookups in node label_ids
  SpreadSelector selector;
  int32_t min_domains = 1;            // unset minDomains counts as 1
  bool honor_node_affinity = true;    // nodeAffinityPolicy: default Honor
  bool honor_node_taints = false;     // nodeTaintsPolicy: default Ignore
};

// filterTopologySpreadConstraints: the constraints whose whenUnsatisfiable equals `action`, in
// spec order. Error when a labelSelector is malformed (LabelSelectorAsSelector fails).
Result<std::vector<SpreadConstraint>> FilterTopologySpreadConstraints(
    const google::protobuf::RepeatedPtrField<k8s::TopologySpreadConstraint>& constraints,
    const Labels& pod_labels, std::string_view action);

// nodeLabelsMatchSpreadConstraints: the node carries every constraint's topology key.
bool NodeLabelsMatchSpreadConstraints(const LabelIds& node_labels,
                                      const std::vector<SpreadConstraint>& constraints);

// matchNodeInclusionPolicies: with nodeAffinityPolicy Honor the incoming pod's nodeSelector and
// required node affinity must match the node; with nodeTaintsPolicy Honor the node must carry
// no NoSchedule/NoExecute taint the pod does not tolerate.
// `affinity` is the pod's RequiredNodeAffinity, prepared once by the caller.
bool MatchNodeInclusionPolicies(const SpreadConstraint& constraint, const Pod& pod,
                                const RequiredNodeAffinity& affinity, const Node& node);

// countPodsMatchSelector: pods in namespace `ns` (an interned namespace), not terminating, whose
// labels match.
// [v1.27 quirk] an Empty selector (labelSelector `{}`) counts 0, not every pod (#116607).
int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods, const SpreadSelector& selector,
                           LabelId ns);

// kubernetes.io/hostname interned.
LabelId HostnameKeyId();

}  // namespace schedcheck::reference::pod_topology_spread

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_
