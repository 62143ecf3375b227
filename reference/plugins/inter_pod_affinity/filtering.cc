// InterPodAffinity PreFilter, PreFilter extensions and Filter (upstream filtering.go, v1.27).
#include <string>
#include <utility>

#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

namespace schedcheck::reference {
namespace interpodaffinity {
namespace {

// getPreFilterState.
PreFilterState* GetPreFilterState(const CycleState& cycle_state, std::string* err) {
  auto* s = cycle_state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
  if (s == nullptr) {
    *err = "error reading \"" + std::string(InterPodAffinity::kPreFilterStateKey) +
           "\" from cycleState: not found";
  }
  return s;
}

// The count at (key, value); 0 for a pair without matches (Go's map read).
int64_t CountAt(const TopologyToMatchedTermCount& m, const std::string& key,
                const std::string& value) {
  auto it = m.find(TopologyPair{key, value});
  return it == m.end() ? 0 : it->second;
}

// satisfyExistingPodsAntiAffinity: scheduling the pod onto the node would break no existing
// pod's anti-affinity term.
bool SatisfyExistingPodsAntiAffinity(const PreFilterState& state, const NodeInfo& node_info) {
  if (!state.existing_anti_affinity_counts.empty()) {
    // Any of the node's labels that is a matched topology pair.
    for (const auto& [topology_key, topology_value] : node_info.node()->labels()) {
      if (CountAt(state.existing_anti_affinity_counts, topology_key, topology_value) > 0) {
        return false;
      }
    }
  }
  return true;
}

// satisfyPodAntiAffinity: the node satisfies the incoming pod's anti-affinity rules.
bool SatisfyPodAntiAffinity(const PreFilterState& state, const NodeInfo& node_info) {
  if (!state.anti_affinity_counts.empty()) {
    const auto& labels = node_info.node()->labels();
    for (const AffinityTerm& term : state.pod_info->required_anti_affinity_terms) {
      auto topology_value = labels.find(term.topology_key);
      if (topology_value == labels.end()) continue;
      if (CountAt(state.anti_affinity_counts, term.topology_key, topology_value->second) > 0) {
        return false;
      }
    }
  }
  return true;
}

// satisfyPodAffinity: the node satisfies the incoming pod's affinity rules.
bool SatisfyPodAffinity(const PreFilterState& state, const NodeInfo& node_info) {
  bool pods_exist = true;
  const auto& labels = node_info.node()->labels();
  for (const AffinityTerm& term : state.pod_info->required_affinity_terms) {
    auto topology_value = labels.find(term.topology_key);
    // All topology labels must exist on the node.
    if (topology_value == labels.end()) return false;
    if (CountAt(state.affinity_counts, term.topology_key, topology_value->second) <= 0) {
      pods_exist = false;
    }
  }
  if (!pods_exist) {
    // This pod may be the first of a series that have affinity to themselves: when no other pod
    // in the cluster matches the terms, the pod matches its own terms and the node has all the
    // topologies, let it pass, or it would stay pending forever.
    return state.affinity_counts.empty() &&
           PodMatchesAllAffinityTerms(state.pod_info->required_affinity_terms,
                                      *state.pod_info->pod);
  }
  return true;
}

}  // namespace

void PreFilterState::UpdateWithPod(const PodInfo& p_info, const Node& node, int64_t multiplier) {
  UpdateWithAntiAffinityTerms(existing_anti_affinity_counts, p_info.required_anti_affinity_terms,
                              *pod_info->pod, &namespace_labels, node, multiplier);
  UpdateWithAffinityTerms(affinity_counts, pod_info->required_affinity_terms, *p_info.pod, node,
                          multiplier);
  // The incoming pod's terms have the namespaceSelector merged into the namespaces: no
  // namespace labels of the updated pod.
  UpdateWithAntiAffinityTerms(anti_affinity_counts, pod_info->required_anti_affinity_terms,
                              *p_info.pod, nullptr, node, multiplier);
}

}  // namespace interpodaffinity

using interpodaffinity::PreFilterState;

InterPodAffinity::TopologyToMatchedTermCount InterPodAffinity::GetExistingAntiAffinityCounts(
    const Pod& pod, const Labels& ns_labels, const std::vector<const NodeInfo*>& nodes) const {
  TopologyToMatchedTermCount result;
  for (const NodeInfo* node_info : nodes) {
    const Node* node = node_info->node();
    if (node == nullptr) continue;  // "Node not found"
    TopologyToMatchedTermCount topo_map;
    for (const PodInfoPtr& existing_pod : node_info->pods_with_required_anti_affinity()) {
      interpodaffinity::UpdateWithAntiAffinityTerms(
          topo_map, existing_pod->required_anti_affinity_terms, pod, &ns_labels, *node, 1);
    }
    interpodaffinity::Append(result, topo_map);
  }
  return result;
}

std::pair<InterPodAffinity::TopologyToMatchedTermCount,
          InterPodAffinity::TopologyToMatchedTermCount>
InterPodAffinity::GetIncomingAffinityAntiAffinityCounts(
    const PodInfo& pod_info, const std::vector<const NodeInfo*>& all_nodes) const {
  TopologyToMatchedTermCount affinity_counts;
  TopologyToMatchedTermCount anti_affinity_counts;
  if (pod_info.required_affinity_terms.empty() && pod_info.required_anti_affinity_terms.empty()) {
    return {affinity_counts, anti_affinity_counts};
  }
  for (const NodeInfo* node_info : all_nodes) {
    const Node* node = node_info->node();
    if (node == nullptr) continue;  // "Node not found"
    TopologyToMatchedTermCount affinity;
    TopologyToMatchedTermCount anti_affinity;
    for (const PodInfoPtr& existing_pod : node_info->pods()) {
      interpodaffinity::UpdateWithAffinityTerms(affinity, pod_info.required_affinity_terms,
                                                *existing_pod->pod, *node, 1);
      // The incoming pod's terms have the namespaceSelector merged into the namespaces: no
      // namespace labels of the existing pod.
      interpodaffinity::UpdateWithAntiAffinityTerms(anti_affinity,
                                                    pod_info.required_anti_affinity_terms,
                                                    *existing_pod->pod, nullptr, *node, 1);
    }
    interpodaffinity::Append(affinity_counts, affinity);
    interpodaffinity::Append(anti_affinity_counts, anti_affinity);
  }
  return {affinity_counts, anti_affinity_counts};
}

Status InterPodAffinity::PreFilter(CycleState& cycle_state, const Pod& pod,
                                   [[maybe_unused]] PreFilterResult* result) {
  const std::vector<const NodeInfo*>& all_nodes = handle_.snapshot->node_infos();
  const std::vector<const NodeInfo*>& nodes_with_required_anti_affinity_pods =
      handle_.snapshot->have_pods_with_required_anti_affinity();

  auto s = std::make_unique<PreFilterState>();
  auto pod_info = interpodaffinity::NewPodInfo(pod);
  if (!pod_info.ok()) {
    return Status(Code::kUnschedulableAndUnresolvable, "parsing pod: " + pod_info.message());
  }
  for (AffinityTerm& t : (*pod_info)->required_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t, handle_);
  }
  for (AffinityTerm& t : (*pod_info)->required_anti_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t, handle_);
  }
  s->pod_info = *pod_info;
  s->namespace_labels = interpodaffinity::GetNamespaceLabelsSnapshot(pod.ns(), handle_);

  s->existing_anti_affinity_counts = GetExistingAntiAffinityCounts(
      pod, s->namespace_labels, nodes_with_required_anti_affinity_pods);
  std::tie(s->affinity_counts, s->anti_affinity_counts) =
      GetIncomingAffinityAntiAffinityCounts(*s->pod_info, all_nodes);

  if (s->existing_anti_affinity_counts.empty() && s->pod_info->required_affinity_terms.empty() &&
      s->pod_info->required_anti_affinity_terms.empty()) {
    return Status(Code::kSkip);
  }
  cycle_state.Write(std::string(kPreFilterStateKey), std::move(s));
  return Status();
}

Status InterPodAffinity::AddPod(CycleState& cycle_state,
                                [[maybe_unused]] const Pod& pod_to_schedule,
                                const PodInfo& pod_info_to_add, const NodeInfo& node_info) {
  std::string err;
  PreFilterState* state = interpodaffinity::GetPreFilterState(cycle_state, &err);
  if (state == nullptr) return Status::Error(err);
  if (node_info.node() == nullptr) return Status::Error("node not found");
  state->UpdateWithPod(pod_info_to_add, *node_info.node(), 1);
  return Status();
}

Status InterPodAffinity::RemovePod(CycleState& cycle_state,
                                   [[maybe_unused]] const Pod& pod_to_schedule,
                                   const PodInfo& pod_info_to_remove, const NodeInfo& node_info) {
  std::string err;
  PreFilterState* state = interpodaffinity::GetPreFilterState(cycle_state, &err);
  if (state == nullptr) return Status::Error(err);
  if (node_info.node() == nullptr) return Status::Error("node not found");
  state->UpdateWithPod(pod_info_to_remove, *node_info.node(), -1);
  return Status();
}

Status InterPodAffinity::Filter(const CycleState& cycle_state, [[maybe_unused]] const Pod& pod,
                                const NodeInfo& node_info) {
  if (node_info.node() == nullptr) return Status::Error("node not found");
  std::string err;
  const PreFilterState* state = interpodaffinity::GetPreFilterState(cycle_state, &err);
  if (state == nullptr) return Status::Error(err);
  if (!interpodaffinity::SatisfyPodAffinity(*state, node_info)) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  std::string(kErrReasonAffinityRulesNotMatch));
  }
  if (!interpodaffinity::SatisfyPodAntiAffinity(*state, node_info)) {
    return Status(Code::kUnschedulable, std::string(kErrReasonAntiAffinityRulesNotMatch));
  }
  if (!interpodaffinity::SatisfyExistingPodsAntiAffinity(*state, node_info)) {
    return Status(Code::kUnschedulable, std::string(kErrReasonExistingAntiAffinityRulesNotMatch));
  }
  return Status();
}

}  // namespace schedcheck::reference
