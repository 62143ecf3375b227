#include "reference/plugins/pod_topology_spread/common.h"

#include <utility>

namespace schedcheck::reference::pod_topology_spread {
namespace {

// LabelSelectorAsSelector plus the matchLabelKeys merge (mergeLabelSetWithSelector).
Result<SpreadSelector> BuildSelector(const k8s::TopologySpreadConstraint& c,
                                     const Labels& pod_labels, bool match_label_keys) {
  SpreadSelector out;
  if (!c.has_label_selector()) return out;  // Nothing; matchLabelKeys cannot change that
  if (!LabelSelectorValid(c.label_selector())) {
    return Error{"invalid labelSelector for topologyKey \"" + c.topology_key() + "\""};
  }
  out.nothing = false;
  out.selector = c.label_selector();
  if (!match_label_keys) return out;  // MatchLabelKeysInPodTopologySpread off
  // Keys absent from the pod are ignored. Each present key adds a `key = value` requirement
  // ANDed with the selector (a requirement, not a matchLabels entry, so that a selector that
  // already names the key with another value still ANDs both).
  for (const std::string& key : c.match_label_keys()) {
    auto it = pod_labels.find(key);
    if (it == pod_labels.end()) continue;
    k8s::LabelSelectorRequirement* req = out.selector.add_match_expressions();
    req->set_key(key);
    req->set_operator_("In");
    req->add_values(it->second);
  }
  return out;
}

}  // namespace

Result<std::vector<SpreadConstraint>> FilterTopologySpreadConstraints(
    const google::protobuf::RepeatedPtrField<k8s::TopologySpreadConstraint>& constraints,
    const Labels& pod_labels, std::string_view action, bool match_label_keys) {
  std::vector<SpreadConstraint> result;
  for (const k8s::TopologySpreadConstraint& c : constraints) {
    if (c.when_unsatisfiable() != action) continue;
    Result<SpreadSelector> selector = BuildSelector(c, pod_labels, match_label_keys);
    if (!selector.ok()) return selector.error();
    SpreadConstraint tsc;
    tsc.max_skew = c.max_skew();
    tsc.topology_key = c.topology_key();
    tsc.selector = std::move(*selector);
    if (c.has_min_domains()) tsc.min_domains = c.min_domains();
    if (c.has_node_affinity_policy()) tsc.honor_node_affinity = c.node_affinity_policy() == "Honor";
    if (c.has_node_taints_policy()) tsc.honor_node_taints = c.node_taints_policy() == "Honor";
    result.push_back(std::move(tsc));
  }
  return result;
}

bool NodeLabelsMatchSpreadConstraints(const Labels& node_labels,
                                      const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints) {
    if (node_labels.find(c.topology_key) == node_labels.end()) return false;
  }
  return true;
}

bool MatchNodeInclusionPolicies(const SpreadConstraint& constraint, const Pod& pod,
                                const Node& node) {
  if (constraint.honor_node_affinity && !PodMatchesRequiredNodeAffinity(pod.obj, node.obj)) {
    return false;
  }
  if (constraint.honor_node_taints &&
      FindUntoleratedTaint(node.obj.spec().taints(), pod.obj.spec().tolerations(),
                           IsNoScheduleOrNoExecute) != nullptr) {
    return false;
  }
  return true;
}

int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods, const SpreadSelector& selector,
                           const std::string& ns) {
  if (selector.Empty()) return 0;
  int count = 0;
  for (const PodInfoPtr& info : pods) {
    const Pod& p = *info->pod;
    // Bypass terminating pods (kubernetes#87621).
    if (p.terminating() || p.ns() != ns) continue;
    if (selector.Matches(p.labels())) ++count;
  }
  return count;
}

std::string LabelOrEmpty(const Labels& labels, const std::string& key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

}  // namespace schedcheck::reference::pod_topology_spread
