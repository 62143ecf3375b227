// FastInterPodAffinity PreScore, Score and NormalizeScore: the plain scoring.cc's results with
// interned labels and per-node contributions kept across cycles.
#include <string>

#include "reference/accel/inter_pod_affinity/cache_keys.h"
#include "reference/accel/inter_pod_affinity/contribution_cache.h"
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace interpodaffinity::fast {
namespace {

// The functions below add to a node's Contribution to the TopologyScores.

// processTerm for an existing pod's term against the incoming pod (with its namespace labels):
// weight x multiplier at (key, node[key]) when the term matches and the node has the key.
void ProcessExistingTerm(Contribution& m, const CompiledExistingTerm& term, int32_t weight,
                         const Pod& pod, const Labels& ns_labels, const Node& node,
                         int32_t multiplier) {
  if (!term.Matches(pod, ns_labels)) return;
  LabelId value = node.label_ids.Get(term.topology_key());
  if (value == kNoLabel) return;
  m.Add(term.topology_key(), value, int64_t{GoMul32(weight, multiplier)});
}

// processTerm for one of the incoming pod's preferred terms against an existing pod.
void ProcessIncomingTerms(Contribution& m, const std::vector<CompiledTerm>& terms,
                          const Pod& existing, const Node& node, int32_t multiplier) {
  for (const CompiledTerm& t : terms) {
    if (!t.Matches(existing)) continue;
    LabelId value = node.label_ids.Get(t.topology_key());
    if (value == kNoLabel) continue;
    m.Add(t.topology_key(), value, int64_t{GoMul32(t.weight(), multiplier)});
  }
}

struct Incoming {
  const Pod& pod;
  // Its preferred terms, namespaceSelectors merged, compiled.
  std::vector<CompiledTerm> preferred_affinity_terms;
  std::vector<CompiledTerm> preferred_anti_affinity_terms;
  const Labels& namespace_labels;
};

// processExistingPod: the incoming pod's preferred terms against `existing`, then the existing
// pod's required affinity (hardPodAffinityWeight) and preferred terms (`terms`: its terms
// compiled) against the incoming pod.
void ProcessExistingPod(const Incoming& in, const PodInfo& existing, const CompiledPodTerms& terms,
                        const Node& node, int32_t hard_weight, Contribution& m) {
  if (node.label_ids.size() == 0) return;
  ProcessIncomingTerms(m, in.preferred_affinity_terms, *existing.pod, node, 1);
  ProcessIncomingTerms(m, in.preferred_anti_affinity_terms, *existing.pod, node, -1);
  if (hard_weight > 0) {
    for (const CompiledExistingTerm& t : terms.required_affinity_terms) {
      ProcessExistingTerm(m, t, hard_weight, in.pod, in.namespace_labels, node, 1);
    }
  }
  for (const CompiledExistingTerm& t : terms.preferred_affinity_terms) {
    ProcessExistingTerm(m, t, t.weight(), in.pod, in.namespace_labels, node, 1);
  }
  for (const CompiledExistingTerm& t : terms.preferred_anti_affinity_terms) {
    ProcessExistingTerm(m, t, t.weight(), in.pod, in.namespace_labels, node, -1);
  }
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
}  // namespace interpodaffinity::fast

namespace ipa = interpodaffinity::fast;
using ipa::PreScoreState;

Status FastInterPodAffinity::PreScore(CycleState& state, const Pod& pod,
                                      const std::vector<const NodeInfo*>& nodes) {
  // v1.37 (PreScoreV1_37): no early return for an empty node list; the shortcut below reads the
  // spec before parsing and answers Skip, and so does a PreScore that accumulated nothing.
  const bool skip = handle_.features.skip_when_nothing_to_do;
  if (!skip && nodes.empty()) return Status();  // v1.27: nothing to score, no state written
  if (skip && args_.ignore_preferred_terms_of_existing_pods) {
    const k8s::PodSpec& spec = pod.obj.spec();
    const bool spec_has_preferred =
        spec.has_affinity() && ((spec.affinity().has_pod_affinity() &&
                                 !spec.affinity()
                                      .pod_affinity()
                                      .preferred_during_scheduling_ignored_during_execution()
                                      .empty()) ||
                                (spec.affinity().has_pod_anti_affinity() &&
                                 !spec.affinity()
                                      .pod_anti_affinity()
                                      .preferred_during_scheduling_ignored_during_execution()
                                      .empty()));
    if (!spec_has_preferred) return Status(Code::kSkip);
  }
  auto s = std::make_unique<PreScoreState>();
  auto info = interpodaffinity::NewPodInfo(pod);
  if (!info.ok()) return Status::Error("failed to parse pod: " + info.message());
  PodInfo& incoming = **info;
  const bool has_preferred =
      !incoming.preferred_affinity_terms.empty() || !incoming.preferred_anti_affinity_terms.empty();
  // Option: only the incoming pod's own preferences trigger the work below.
  if (args_.ignore_preferred_terms_of_existing_pods && !has_preferred) {
    state.Write(std::string(InterPodAffinity::kPreScoreStateKey), std::move(s));
    return Status();
  }
  for (WeightedAffinityTerm& t : incoming.preferred_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t.term, handle_);
  }
  for (WeightedAffinityTerm& t : incoming.preferred_anti_affinity_terms) {
    interpodaffinity::MergeAffinityTermNamespacesIfNotEmpty(t.term, handle_);
  }
  const Labels ns_labels = interpodaffinity::GetNamespaceLabelsSnapshot(pod.ns(), handle_);
  const ipa::Incoming in{*incoming.pod, ipa::CompileTerms(incoming.preferred_affinity_terms),
                         ipa::CompileTerms(incoming.preferred_anti_affinity_terms), ns_labels};
  // Without preferred terms of its own, only existing pods with (anti-)affinity can contribute.
  const std::vector<const NodeInfo*>& all =
      has_preferred ? handle_.snapshot->node_infos() : handle_.snapshot->have_pods_with_affinity();
  // Each node's contribution is remembered across cycles (contribution_cache.h): only nodes
  // that changed since are walked.
  const std::string key =
      ipa::ScoreKey(pod, ns_labels, args_.hard_pod_affinity_weight,
                    incoming.preferred_affinity_terms, incoming.preferred_anti_affinity_terms);
  ipa::AccumulateContributions(
      all, *score_cache_.For(key), s->topology_score, [&](const NodeInfo& n, ipa::Contribution& c) {
        const std::vector<PodInfoPtr>& pods = has_preferred ? n.pods() : n.pods_with_affinity();
        for (const PodInfoPtr& existing : pods) {
          ipa::ProcessExistingPod(in, *existing, existing_terms_.Get(existing), *n.node(),
                                  args_.hard_pod_affinity_weight, c);
        }
      });
  // v1.37: nothing accumulated on any node, nothing to score.
  if (skip && s->topology_score.empty()) return Status(Code::kSkip);
  state.Write(std::string(InterPodAffinity::kPreScoreStateKey), std::move(s));
  return Status();
}

Status FastInterPodAffinity::Score(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                   const NodeInfo& node, int64_t* score) {
  *score = 0;
  std::string err;
  const PreScoreState* s = ipa::ReadPreScoreState(state, &err);
  if (s == nullptr) return Status::Error(err);
  if (node.node() == nullptr) return Status::Error("node not found");
  *score = s->topology_score.Sum(node.node()->label_ids);
  return Status();
}

bool FastInterPodAffinity::UniformScore(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                        int64_t* score) const {
  std::string err;
  const ipa::PreScoreState* s = ipa::ReadPreScoreState(state, &err);
  if (s == nullptr || !s->topology_score.empty()) return false;
  *score = 0;
  return true;
}

bool FastInterPodAffinity::UniformNormalizedScore(const CycleState& state,
                                                  [[maybe_unused]] const Pod& pod, int64_t uniform,
                                                  int64_t* normalized) const {
  std::string err;
  const ipa::PreScoreState* s = ipa::ReadPreScoreState(state, &err);
  // Nothing accumulated: NormalizeScore leaves the scores as they are.
  if (s == nullptr || !s->topology_score.empty()) return false;
  *normalized = uniform;
  return true;
}

Status FastInterPodAffinity::NormalizeScore(const CycleState& state,
                                            [[maybe_unused]] const Pod& pod,
                                            NodeScoreList& scores) {
  std::string err;
  const PreScoreState* s = ipa::ReadPreScoreState(state, &err);
  if (s == nullptr) return Status::Error(err);
  // Nothing accumulated: the raw scores (all zero) stay.
  if (s->topology_score.empty()) return Status();
  interpodaffinity::NormalizeTopologyScores(scores);
  return Status();
}

}  // namespace schedcheck::reference
