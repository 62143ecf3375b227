#include "reference/accel/pod_topology_spread/fast_constraint.h"

#include <utility>

namespace schedcheck::reference::pod_topology_spread::fast {

std::vector<FastConstraint> Compile(std::vector<SpreadConstraint> constraints) {
  std::vector<FastConstraint> out;
  out.reserve(constraints.size());
  for (SpreadConstraint& c : constraints) {
    FastConstraint f;
    f.topology_key_id = InternLabel(c.topology_key);
    if (!c.selector.nothing) f.selector = CompiledLabelSelector(c.selector.selector);
    f.selector_empty = c.selector.Empty();
    f.spec = std::move(c);
    out.push_back(std::move(f));
  }
  return out;
}

bool NodeLabelsMatchSpreadConstraints(const LabelIds& node_labels,
                                      const std::vector<FastConstraint>& constraints) {
  for (const FastConstraint& c : constraints) {
    if (!node_labels.Has(c.topology_key_id)) return false;
  }
  return true;
}

bool MatchNodeInclusionPolicies(const FastConstraint& constraint, const Pod& pod,
                                const RequiredNodeAffinity& affinity, const Node& node) {
  if (constraint.spec.honor_node_affinity && !affinity.Matches(node)) return false;
  if (constraint.spec.honor_node_taints &&
      FindUntoleratedTaint(node.obj.spec().taints(), pod.obj.spec().tolerations(),
                           IsNoScheduleOrNoExecute) != nullptr) {
    return false;
  }
  return true;
}

int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods, const FastConstraint& constraint,
                           LabelId ns) {
  if (constraint.selector_empty) return 0;
  int count = 0;
  for (const PodInfoPtr& info : pods) {
    const Pod& p = *info->pod;
    // Cheapest tests first: the interned fields sit on the pod's first cache line.
    if (p.namespace_id != ns || !constraint.Matches(p)) continue;
    if (!p.terminating()) ++count;
  }
  return count;
}

LabelId HostnameKeyId() {
  static const LabelId id = InternLabel(kLabelHostname);
  return id;
}

}  // namespace schedcheck::reference::pod_topology_spread::fast
