// PodTopologySpread's v1.37 EventsToRegister and queueing hints (podtopologyspread/plugin.go at
// v1.37.2). Every hint works on the rejected pod's DoNotSchedule constraints (getConstraints).
#include <string>
#include <vector>

#include "reference/plugins/pod_topology_spread/common.h"
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

using pod_topology_spread::SpreadConstraint;

// involvedInTopologySpreading: the other pod is bound or nominated, in the same namespace.
bool InvolvedInTopologySpreading(const Pod& incoming, const Pod& with_spreading) {
  if (incoming.node_name().empty() && incoming.obj.status().nominated_node_name().empty()) {
    return false;
  }
  return incoming.ns() == with_spreading.ns();
}

bool HasConstraintWithNodeTaintsPolicyHonor(const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints) {
    if (c.honor_node_taints) return true;
  }
  return false;
}

// podLabelsMatchSpreadConstraints: some constraint's selector matches.
bool PodLabelsMatchSpreadConstraints(const std::vector<SpreadConstraint>& constraints,
                                     const Labels& labels) {
  for (const SpreadConstraint& c : constraints) {
    if (c.selector.Matches(labels)) return true;
  }
  return false;
}

// isSchedulableAfterPodLabelChange: Queue when the label change flips whether some constraint's
// selector matches the pod.
QueueingHint IsSchedulableAfterPodLabelChange(const Pod& original, const Pod& modified,
                                              const std::vector<SpreadConstraint>& constraints) {
  if (SemanticEqualMaps(original.labels(), modified.labels())) return QueueingHint::kQueueSkip;
  for (const SpreadConstraint& c : constraints) {
    if (c.selector.Matches(original.labels()) != c.selector.Matches(modified.labels())) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kQueueSkip;
}

// checkTopologyKeyLabelsChanged.
bool TopologyKeyLabelsChanged(const Labels& original, const Labels& modified,
                              const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints) {
    if (pod_topology_spread::LabelOrEmpty(original, c.topology_key) !=
        pod_topology_spread::LabelOrEmpty(modified, c.topology_key)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<ClusterEventWithHint> PodTopologySpread::EventsToRegisterWithHints() const {
  auto bind = [this](auto member) {
    return
        [this, member](const Pod& pod, const EventObjects& e) { return (this->*member)(pod, e); };
  };
  return {
      {{std::string(resource::kAssignedPod),
        action::kAdd | action::kUpdatePodLabel | action::kDelete, ""},
       bind(&PodTopologySpread::IsSchedulableAfterAssignedPodChange)},
      {{std::string(resource::kTargetPod), action::kUpdatePodToleration | action::kUpdatePodLabel,
        ""},
       bind(&PodTopologySpread::IsSchedulableAfterTargetPodChange)},
      {{std::string(resource::kNode),
        action::kAdd | action::kDelete | action::kUpdateNodeLabel | action::kUpdateNodeTaint, ""},
       bind(&PodTopologySpread::IsSchedulableAfterNodeChange)},
  };
}

Result<QueueingHint> PodTopologySpread::IsSchedulableAfterTargetPodChange(
    const Pod& pod, const EventObjects& e) const {
  auto constraints = GetConstraints(pod);
  if (!constraints.ok()) return constraints.error();
  if (!SemanticEqualLists(e.new_pod->obj.spec().tolerations(),
                          e.old_pod->obj.spec().tolerations()) &&
      HasConstraintWithNodeTaintsPolicyHonor(*constraints)) {
    return QueueingHint::kQueue;
  }
  return IsSchedulableAfterPodLabelChange(*e.old_pod, *e.new_pod, *constraints);
}

Result<QueueingHint> PodTopologySpread::IsSchedulableAfterAssignedPodChange(
    const Pod& pod, const EventObjects& e) const {
  if ((e.new_pod && !InvolvedInTopologySpreading(*e.new_pod, pod)) ||
      (e.old_pod && !InvolvedInTopologySpreading(*e.old_pod, pod))) {
    return QueueingHint::kQueueSkip;
  }
  auto constraints = GetConstraints(pod);
  if (!constraints.ok()) return constraints.error();
  if (e.new_pod && e.old_pod) {
    return IsSchedulableAfterPodLabelChange(*e.old_pod, *e.new_pod, *constraints);
  }
  // An added pod, or a deleted one: does it count for some constraint?
  const Pod& changed = e.new_pod ? *e.new_pod : *e.old_pod;
  return PodLabelsMatchSpreadConstraints(*constraints, changed.labels()) ? QueueingHint::kQueue
                                                                         : QueueingHint::kQueueSkip;
}

Result<QueueingHint> PodTopologySpread::IsSchedulableAfterNodeChange(const Pod& pod,
                                                                     const EventObjects& e) const {
  auto constraints = GetConstraints(pod);
  if (!constraints.ok()) return constraints.error();
  const bool original_matching =
      e.old_node &&
      pod_topology_spread::NodeLabelsMatchSpreadConstraints(e.old_node->labels(), *constraints);
  const bool modified_matching =
      e.new_node &&
      pod_topology_spread::NodeLabelsMatchSpreadConstraints(e.new_node->labels(), *constraints);
  if (e.old_node && e.new_node) {
    // An update: the node enters or leaves the spreading, moves domain, or changes taints.
    if (original_matching != modified_matching) return QueueingHint::kQueue;
    if (modified_matching &&
        (TopologyKeyLabelsChanged(e.old_node->labels(), e.new_node->labels(), *constraints) ||
         !SemanticEqualLists(e.old_node->obj.spec().taints(), e.new_node->obj.spec().taints()))) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kQueueSkip;
  }
  // An added node counts when it carries every topology key; so does a deleted one.
  return (e.new_node ? modified_matching : original_matching) ? QueueingHint::kQueue
                                                              : QueueingHint::kQueueSkip;
}

}  // namespace schedcheck::reference
