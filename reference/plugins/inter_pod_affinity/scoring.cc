// InterPodAffinity PreScore, Score and NormalizeScore (upstream scoring.go, v1.27).
#include <limits>
#include <string>

#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

namespace schedcheck::reference {
namespace interpodaffinity {
namespace {

// processTerm: weight x multiplier at (key, node[key]) when `pod` matches and the node has it.
void ProcessTerm(ScoreMap& m, const AffinityTerm& term, int32_t weight, const Pod& pod,
                 const Labels* ns_labels, const Node& node, int32_t multiplier) {
  if (!term.Matches(pod, ns_labels)) return;
  auto it = node.labels().find(term.topology_key);
  if (it == node.labels().end()) return;
  m[term.topology_key][it->second] += static_cast<int64_t>(weight * multiplier);
}

void ProcessTerms(ScoreMap& m, const std::vector<WeightedAffinityTerm>& terms, const Pod& pod,
                  const Labels* ns_labels, const Node& node, int32_t multiplier) {
  for (const WeightedAffinityTerm& t : terms) {
    ProcessTerm(m, t.term, t.weight, pod, ns_labels, node, multiplier);
  }
}

struct Incoming {
  const PodInfo& info;  // preferred terms with namespaceSelectors merged
  const Labels& namespace_labels;
};

// processExistingPod: the incoming pod's preferred terms against `existing`, then the existing
// pod's required affinity (hardPodAffinityWeight) and preferred terms against the incoming pod.
void ProcessExistingPod(const Incoming& in, const PodInfo& existing, const Node& node,
                        int32_t hard_weight, ScoreMap& m) {
  if (node.labels().empty()) return;
  // The incoming pod's selectors are merged into namespaces: no namespace labels needed.
  ProcessTerms(m, in.info.preferred_affinity_terms, *existing.pod, nullptr, node, 1);
  ProcessTerms(m, in.info.preferred_anti_affinity_terms, *existing.pod, nullptr, node, -1);
  const Pod& pod = *in.info.pod;
  if (hard_weight > 0) {
    for (const AffinityTerm& t : existing.required_affinity_terms) {
      ProcessTerm(m, t, hard_weight, pod, &in.namespace_labels, node, 1);
    }
  }
  ProcessTerms(m, existing.preferred_affinity_terms, pod, &in.namespace_labels, node, 1);
  ProcessTerms(m, existing.preferred_anti_affinity_terms, pod, &in.namespace_labels, node, -1);
}

const PreScoreState* ReadPreScoreState(const CycleState& state, std::string* err) {
  auto* s = state.ReadAs<PreScoreState>(InterPodAffinity::kPreScoreStateKey);
  if (s == nullptr) {
    *err = "failed to read \"" + std::string(InterPodAffinity::kPreScoreStateKey) +
           "\" from cycleState: not found";
  }
  return s;
}

}  // namespace
}  // namespace interpodaffinity

using interpodaffinity::PreScoreState;

Status InterPodAffinity::PreScore(CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes) {
  if (nodes.empty()) return Status();  // v1.27: nothing to score, no state written
  auto s = std::make_unique<PreScoreState>();
  auto info = NewIncomingPodInfo(pod);
  if (!info.ok()) return Status::Error("failed to parse pod: " + info.message());
  PodInfo& incoming = **info;
  const bool has_preferred = !incoming.preferred_affinity_terms.empty() ||
                             !incoming.preferred_anti_affinity_terms.empty();
  // Option: only the incoming pod's own preferences trigger the work below.
  if (args_.ignore_preferred_terms_of_existing_pods && !has_preferred) {
    state.Write(std::string(kPreScoreStateKey), std::move(s));
    return Status();
  }
  for (WeightedAffinityTerm& t : incoming.preferred_affinity_terms) {
    MergeAffinityTermNamespacesIfNotEmpty(t.term);
  }
  for (WeightedAffinityTerm& t : incoming.preferred_anti_affinity_terms) {
    MergeAffinityTermNamespacesIfNotEmpty(t.term);
  }
  const Labels ns_labels = NamespaceLabelsSnapshot(pod.ns());
  const interpodaffinity::Incoming in{incoming, ns_labels};
  // Without preferred terms of its own, only existing pods with (anti-)affinity can contribute.
  const std::vector<const NodeInfo*>& all = has_preferred
                                                ? handle_.snapshot->node_infos()
                                                : handle_.snapshot->have_pods_with_affinity();
  for (const NodeInfo* n : all) {
    if (n->node() == nullptr) continue;
    const std::vector<PodInfoPtr>& pods = has_preferred ? n->pods() : n->pods_with_affinity();
    for (const PodInfoPtr& existing : pods) {
      interpodaffinity::ProcessExistingPod(in, *existing, *n->node(),
                                           args_.hard_pod_affinity_weight, s->topology_score);
    }
  }
  state.Write(std::string(kPreScoreStateKey), std::move(s));
  return Status();
}

Status InterPodAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                               int64_t* score) {
  (void)pod;
  *score = 0;
  std::string err;
  const PreScoreState* s = interpodaffinity::ReadPreScoreState(state, &err);
  if (s == nullptr) return Status::Error(err);
  if (node.node() == nullptr) return Status::Error("node not found");
  for (const auto& [key, values] : s->topology_score) {
    auto label = node.node()->labels().find(key);
    if (label == node.node()->labels().end()) continue;
    auto it = values.find(label->second);
    if (it != values.end()) *score += it->second;
  }
  return Status();
}

Status InterPodAffinity::NormalizeScore(const CycleState& state, const Pod& pod,
                                        NodeScoreList& scores) {
  (void)pod;
  std::string err;
  const PreScoreState* s = interpodaffinity::ReadPreScoreState(state, &err);
  if (s == nullptr) return Status::Error(err);
  // Nothing accumulated: the raw scores (all zero) stay.
  if (s->topology_score.empty()) return Status();
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (const NodeScore& ns : scores) {
    if (ns.score > max_count) max_count = ns.score;
    if (ns.score < min_count) min_count = ns.score;
  }
  const int64_t diff = max_count - min_count;
  for (NodeScore& ns : scores) {
    double f = 0;
    // Same float expression as upstream (ratio first), then truncation.
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(ns.score - min_count) / static_cast<double>(diff));
    }
    ns.score = static_cast<int64_t>(f);
  }
  return Status();
}

}  // namespace schedcheck::reference
