// InterPodAffinity PreScore, Score and NormalizeScore (upstream scoring.go, v1.27).
#include <limits>
#include <string>

#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

namespace schedcheck::reference {
namespace interpodaffinity {
namespace {

// getPreScoreState.
const PreScoreState* GetPreScoreState(const CycleState& cycle_state, std::string* err) {
  auto* s = cycle_state.ReadAs<PreScoreState>(InterPodAffinity::kPreScoreStateKey);
  if (s == nullptr) {
    *err = "failed to read \"" + std::string(InterPodAffinity::kPreScoreStateKey) +
           "\" from cycleState: not found";
  }
  return s;
}

}  // namespace

void NormalizeTopologyScores(NodeScoreList& scores) {
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (const NodeScore& ns : scores) {
    if (ns.score > max_count) max_count = ns.score;
    if (ns.score < min_count) min_count = ns.score;
  }
  const int64_t max_min_diff = max_count - min_count;
  for (NodeScore& ns : scores) {
    double f_score = 0;
    // Upstream's float expression (the ratio first), then truncation.
    if (max_min_diff > 0) {
      f_score = static_cast<double>(kMaxNodeScore) *
                (static_cast<double>(ns.score - min_count) / static_cast<double>(max_min_diff));
    }
    ns.score = static_cast<int64_t>(f_score);
  }
}

}  // namespace interpodaffinity

using interpodaffinity::PreScoreState;
using interpodaffinity::ScoreMap;

void InterPodAffinity::ProcessExistingPod(const PreScoreState& state, const PodInfo& existing_pod,
                                          const NodeInfo& existing_pod_node_info,
                                          const Pod& incoming_pod, ScoreMap& topo_score) const {
  const Node& existing_pod_node = *existing_pod_node_info.node();
  if (existing_pod_node.labels().empty()) return;
  // The incoming pod's preferred terms (namespaceSelectors merged: no namespace labels of the
  // existing pod), +weight for affinity, -weight for anti-affinity, at the existing pod's node's
  // topology value.
  interpodaffinity::ProcessTerms(topo_score, state.pod_info->preferred_affinity_terms,
                                 *existing_pod.pod, nullptr, existing_pod_node, 1);
  interpodaffinity::ProcessTerms(topo_score, state.pod_info->preferred_anti_affinity_terms,
                                 *existing_pod.pod, nullptr, existing_pod_node, -1);
  // The existing pod's hard affinity terms matching the incoming pod, by hardPodAffinityWeight.
  if (args_.hard_pod_affinity_weight > 0) {
    for (const AffinityTerm& t : existing_pod.required_affinity_terms) {
      interpodaffinity::ProcessTerm(topo_score, t, args_.hard_pod_affinity_weight, incoming_pod,
                                    &state.namespace_labels, existing_pod_node, 1);
    }
  }
  // The existing pod's soft terms matching the incoming pod.
  interpodaffinity::ProcessTerms(topo_score, existing_pod.preferred_affinity_terms, incoming_pod,
                                 &state.namespace_labels, existing_pod_node, 1);
  interpodaffinity::ProcessTerms(topo_score, existing_pod.preferred_anti_affinity_terms,
                                 incoming_pod, &state.namespace_labels, existing_pod_node, -1);
}

std::unique_ptr<interpodaffinity::PreScoreState> InterPodAffinity::AccumulateScores(
    const Pod& pod, std::shared_ptr<PodInfo> pod_info, bool has_constraints,
    bool* any_score) const {
  auto state = std::make_unique<PreScoreState>();
  for (WeightedAffinityTerm& t : pod_info->preferred_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t.term, handle_);
  }
  for (WeightedAffinityTerm& t : pod_info->preferred_anti_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t.term, handle_);
  }
  state->pod_info = std::move(pod_info);
  state->namespace_labels = interpodaffinity::GetNamespaceLabelsSnapshot(pod.ns(), handle_);
  // Unless the pod has preferred terms, only nodes hosting pods with affinity, and only those
  // pods, matter.
  const std::vector<const NodeInfo*>& all_nodes = has_constraints
                                                      ? handle_.snapshot->node_infos()
                                                      : handle_.snapshot->have_pods_with_affinity();
  for (const NodeInfo* node_info : all_nodes) {
    if (node_info->node() == nullptr) continue;
    const std::vector<PodInfoPtr>& pods_to_process =
        has_constraints ? node_info->pods() : node_info->pods_with_affinity();
    ScoreMap topo_score;
    for (const PodInfoPtr& existing_pod : pods_to_process) {
      ProcessExistingPod(*state, *existing_pod, *node_info, pod, topo_score);
    }
    *any_score = *any_score || !topo_score.empty();
    interpodaffinity::Append(state->topology_score, topo_score);
  }
  return state;
}

Status InterPodAffinity::PreScore(CycleState& cycle_state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes) {
  if (handle_.features.skip_when_nothing_to_do) return PreScoreV1_37(cycle_state, pod);
  if (nodes.empty()) return Status();  // no nodes to score: no state written
  // This rule parses the pod before the ignorePreferredTermsOfExistingPods shortcut, where
  // upstream parses it after; a pod that does not parse fails PreFilter first.
  auto pod_info = interpodaffinity::NewPodInfo(pod);
  if (!pod_info.ok()) return Status::Error("failed to parse pod: " + pod_info.message());
  const bool has_preferred_affinity_constraints = !(*pod_info)->preferred_affinity_terms.empty();
  const bool has_preferred_anti_affinity_constraints =
      !(*pod_info)->preferred_anti_affinity_terms.empty();
  const bool has_constraints =
      has_preferred_affinity_constraints || has_preferred_anti_affinity_constraints;
  // Optionally ignore existing pods' preferences when the incoming pod has none.
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    cycle_state.Write(std::string(kPreScoreStateKey), std::make_unique<PreScoreState>());
    return Status();
  }
  bool any_score = false;
  cycle_state.Write(std::string(kPreScoreStateKey),
                    AccumulateScores(pod, std::move(*pod_info), has_constraints, &any_score));
  return Status();
}

// v1.37: no early return for an empty node list; the shortcut for
// ignorePreferredTermsOfExistingPods reads the spec before parsing and answers Skip, and so does
// a PreScore that accumulated nothing on any node.
Status InterPodAffinity::PreScoreV1_37(CycleState& cycle_state, const Pod& pod) {
  const k8s::PodSpec& spec = pod.obj.spec();
  const bool has_preferred_affinity_constraints =
      spec.has_affinity() && spec.affinity().has_pod_affinity() &&
      !spec.affinity()
           .pod_affinity()
           .preferred_during_scheduling_ignored_during_execution()
           .empty();
  const bool has_preferred_anti_affinity_constraints =
      spec.has_affinity() && spec.affinity().has_pod_anti_affinity() &&
      !spec.affinity()
           .pod_anti_affinity()
           .preferred_during_scheduling_ignored_during_execution()
           .empty();
  const bool has_constraints =
      has_preferred_affinity_constraints || has_preferred_anti_affinity_constraints;
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    return Status(Code::kSkip);
  }
  auto pod_info = interpodaffinity::NewPodInfo(pod);
  if (!pod_info.ok()) return Status::Error("failed to parse pod: " + pod_info.message());
  bool any_score = false;
  auto state = AccumulateScores(pod, std::move(*pod_info), has_constraints, &any_score);
  if (!any_score) return Status(Code::kSkip);
  cycle_state.Write(std::string(kPreScoreStateKey), std::move(state));
  return Status();
}

Status InterPodAffinity::Score(const CycleState& cycle_state, [[maybe_unused]] const Pod& pod,
                               const NodeInfo& node_info, int64_t* score) {
  *score = 0;
  std::string err;
  const PreScoreState* s = interpodaffinity::GetPreScoreState(cycle_state, &err);
  if (s == nullptr) return Status::Error(err);
  if (node_info.node() == nullptr) return Status::Error("node not found");
  const auto& labels = node_info.node()->labels();
  // The sum of the weights at the node's value of every topology key.
  for (const auto& [tp_key, tp_values] : s->topology_score) {
    auto v = labels.find(tp_key);
    if (v == labels.end()) continue;
    auto weight = tp_values.find(v->second);
    if (weight != tp_values.end()) *score += weight->second;
  }
  return Status();
}

Status InterPodAffinity::NormalizeScore(const CycleState& cycle_state,
                                        [[maybe_unused]] const Pod& pod, NodeScoreList& scores) {
  std::string err;
  const PreScoreState* s = interpodaffinity::GetPreScoreState(cycle_state, &err);
  if (s == nullptr) return Status::Error(err);
  if (s->topology_score.empty()) return Status();
  interpodaffinity::NormalizeTopologyScores(scores);
  return Status();
}

}  // namespace schedcheck::reference
