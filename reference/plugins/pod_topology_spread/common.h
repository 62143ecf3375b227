// The constraint model shared by PodTopologySpread's filtering and scoring halves (v1.27
// podtopologyspread/common.go): constraints as the scheduler uses them, the node eligibility
// rules (all topology keys present, nodeAffinityPolicy, nodeTaintsPolicy) and pod counting.
// Internal to the plugin.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/api/objects.h"
#include "reference/api/selectors.h"
#include "reference/base/result.h"
#include "reference/framework/pod_info.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::pod_topology_spread {

inline constexpr std::string_view kDoNotSchedule = "DoNotSchedule";
inline constexpr std::string_view kScheduleAnyway = "ScheduleAnyway";
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";

// topologyPair.
struct TopologyPair {
  std::string key;
  std::string value;
  auto operator<=>(const TopologyPair&) const = default;
};

// labels.Selector as upstream builds it from a constraint: a nil labelSelector is "Nothing";
// a present one is its matchLabels AND matchExpressions (plus the matchLabelKeys additions).
struct SpreadSelector {
  bool nothing = true;
  k8s::LabelSelector selector;

  // labels.Selector.Empty(): true only for a present selector without any requirement (it
  // matches every pod). Nothing is not Empty.
  bool Empty() const {
    return !nothing && selector.match_labels().empty() && selector.match_expressions().empty();
  }
  bool Matches(const Labels& labels) const {
    return !nothing && LabelSelectorMatches(selector, labels);
  }
};

// topologySpreadConstraint: an API constraint with defaults applied (v1.27 gates:
// MinDomainsInPodTopologySpread, NodeInclusionPolicyInPodTopologySpread and
// MatchLabelKeysInPodTopologySpread all on).
struct SpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  SpreadSelector selector;
  int32_t min_domains = 1;          // unset minDomains counts as 1
  bool honor_node_affinity = true;  // nodeAffinityPolicy: default Honor
  bool honor_node_taints = false;   // nodeTaintsPolicy: default Ignore
};

// filterTopologySpreadConstraints: the constraints whose whenUnsatisfiable equals `action`, in
// spec order. Error when a labelSelector is malformed (LabelSelectorAsSelector fails).
// `match_label_keys`: the MatchLabelKeysInPodTopologySpread gate (v1.37 beta, on; always on at
// v1.27); off, matchLabelKeys are ignored.
Result<std::vector<SpreadConstraint>> FilterTopologySpreadConstraints(
    const google::protobuf::RepeatedPtrField<k8s::TopologySpreadConstraint>& constraints,
    const Labels& pod_labels, std::string_view action, bool match_label_keys = true);

// nodeLabelsMatchSpreadConstraints: the node carries every constraint's topology key.
bool NodeLabelsMatchSpreadConstraints(const Labels& node_labels,
                                      const std::vector<SpreadConstraint>& constraints);

// topologySpreadConstraint.matchNodeInclusionPolicies: with nodeAffinityPolicy Honor the
// incoming pod's nodeSelector and required node affinity must match the node; with
// nodeTaintsPolicy Honor the node must carry no NoSchedule/NoExecute taint the pod does not
// tolerate.
bool MatchNodeInclusionPolicies(const SpreadConstraint& constraint, const Pod& pod,
                                const Node& node);

// countPodsMatchSelector: pods in namespace `ns`, not terminating, whose labels match.
// [v1.27 quirk] an Empty selector (labelSelector `{}`) counts 0, not every pod (#116607).
int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods, const SpreadSelector& selector,
                           const std::string& ns);

// node.Labels[key] in Go: "" when the label is absent.
std::string LabelOrEmpty(const Labels& labels, const std::string& key);

}  // namespace schedcheck::reference::pod_topology_spread

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_COMMON_H_
