#include "reference/plugins/inter_pod_affinity/topology_counts.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference::interpodaffinity {

void Append(TopologyToMatchedTermCount& m, const TopologyToMatchedTermCount& to_append) {
  for (const auto& [pair, count] : to_append) m[pair] += count;
}

void Update(TopologyToMatchedTermCount& m, const Node& node, const std::string& tk, int64_t value) {
  auto tv = node.labels().find(tk);
  if (tv == node.labels().end()) return;
  const TopologyPair pair{tk, tv->second};
  m[pair] += value;
  // value could be negative, hence the entry is deleted when it is down to zero.
  if (m[pair] == 0) m.erase(pair);
}

bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  for (const AffinityTerm& t : terms) {
    if (!t.Matches(pod, nullptr)) return false;
  }
  return true;
}

void UpdateWithAffinityTerms(TopologyToMatchedTermCount& m, const std::vector<AffinityTerm>& terms,
                             const Pod& pod, const Node& node, int64_t value) {
  if (!PodMatchesAllAffinityTerms(terms, pod)) return;
  for (const AffinityTerm& t : terms) Update(m, node, t.topology_key, value);
}

void UpdateWithAntiAffinityTerms(TopologyToMatchedTermCount& m,
                                 const std::vector<AffinityTerm>& terms, const Pod& pod,
                                 const Labels* ns_labels, const Node& node, int64_t value) {
  for (const AffinityTerm& t : terms) {
    if (t.Matches(pod, ns_labels)) Update(m, node, t.topology_key, value);
  }
}

void ProcessTerm(ScoreMap& m, const AffinityTerm& term, int32_t weight, const Pod& pod,
                 const Labels* ns_labels, const Node& node, int32_t multiplier) {
  if (!term.Matches(pod, ns_labels)) return;
  auto tp_value = node.labels().find(term.topology_key);
  if (tp_value == node.labels().end()) return;
  // int32 x int32 as in Go: a weight of math.MinInt32 negated stays math.MinInt32.
  m[term.topology_key][tp_value->second] += GoMul32(weight, multiplier);
}

void ProcessTerms(ScoreMap& m, const std::vector<WeightedAffinityTerm>& terms, const Pod& pod,
                  const Labels* ns_labels, const Node& node, int32_t multiplier) {
  for (const WeightedAffinityTerm& t : terms) {
    ProcessTerm(m, t.term, t.weight, pod, ns_labels, node, multiplier);
  }
}

void Append(ScoreMap& m, const ScoreMap& other) {
  for (const auto& [topology, o_scores] : other) {
    std::map<std::string, int64_t>& scores = m[topology];
    for (const auto& [value, score] : o_scores) scores[value] += score;
  }
}

}  // namespace schedcheck::reference::interpodaffinity
