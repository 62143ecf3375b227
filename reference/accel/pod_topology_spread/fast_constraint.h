// PodTopologySpread constraints prepared for the fast engine: the plain constraint
// (reference/plugins/pod_topology_spread/common.h) with its topology key interned and its
// selector compiled (reference/accel/base/compiled_label_selector.h), so that the per-node work
// reads integers, and the common.go helpers over those. Same answers as the plain helpers.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_CONSTRAINT_H_
#define SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_CONSTRAINT_H_

#include <vector>

#include "reference/accel/base/compiled_node_selector.h"
#include "reference/api/label_ids.h"
#include "reference/api/objects.h"
#include "reference/api/selectors.h"
#include "reference/framework/pod_info.h"
#include "reference/plugins/pod_topology_spread/common.h"

namespace schedcheck::reference::pod_topology_spread::fast {

struct FastConstraint {
  SpreadConstraint spec;
  LabelId topology_key_id = kNoLabel;  // spec.topology_key interned
  CompiledLabelSelector selector;      // spec.selector compiled
  bool selector_empty = false;         // spec.selector.Empty()

  bool Matches(const Pod& pod) const { return selector.Matches(pod.label_ids); }
};

std::vector<FastConstraint> Compile(std::vector<SpreadConstraint> constraints);

// NodeLabelsMatchSpreadConstraints on interned labels.
bool NodeLabelsMatchSpreadConstraints(const LabelIds& node_labels,
                                      const std::vector<FastConstraint>& constraints);

// MatchNodeInclusionPolicies with the pod's RequiredNodeAffinity prepared once by the caller.
bool MatchNodeInclusionPolicies(const FastConstraint& constraint, const Pod& pod,
                                const RequiredNodeAffinity& affinity, const Node& node);

// CountPodsMatchSelector on interned labels and namespace.
int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods, const FastConstraint& constraint,
                           LabelId ns);

// kubernetes.io/hostname interned.
LabelId HostnameKeyId();

}  // namespace schedcheck::reference::pod_topology_spread::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_CONSTRAINT_H_
