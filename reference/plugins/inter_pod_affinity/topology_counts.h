// The topology maps InterPodAffinity builds each cycle, over label strings as upstream has them:
// topologyPair and topologyToMatchedTermCount with its update methods (filtering.go), scoreMap
// with processTerm / processTerms (scoring.go). Go's methods on the map types are free functions
// here taking the map first.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reference/api/objects.h"
#include "reference/api/selectors.h"
#include "reference/framework/pod_info.h"

namespace schedcheck::reference::interpodaffinity {

struct TopologyPair {
  std::string key;
  std::string value;
  auto operator<=>(const TopologyPair&) const = default;
};

// topologyToMatchedTermCount. A pair whose count drops to zero is erased (update), so that an
// empty map means "no matches".
using TopologyToMatchedTermCount = std::map<TopologyPair, int64_t>;

// append.
void Append(TopologyToMatchedTermCount& m, const TopologyToMatchedTermCount& to_append);

// update: adds `value` at (tk, node.labels[tk]) when the node has the label.
void Update(TopologyToMatchedTermCount& m, const Node& node, const std::string& tk, int64_t value);

// podMatchesAllAffinityTerms: false for no terms. The terms are an incoming pod's, whose
// namespaceSelectors were merged into namespaces, hence no namespace labels.
bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms, const Pod& pod);

// updateWithAffinityTerms: `value` for each term's topology, when `pod` matches ALL the terms.
void UpdateWithAffinityTerms(TopologyToMatchedTermCount& m, const std::vector<AffinityTerm>& terms,
                             const Pod& pod, const Node& node, int64_t value);

// updateWithAntiAffinityTerms: `value` for each term that matches `pod`. `ns_labels` are the
// labels of `pod`'s namespace, null for an incoming pod's merged terms.
void UpdateWithAntiAffinityTerms(TopologyToMatchedTermCount& m,
                                 const std::vector<AffinityTerm>& terms, const Pod& pod,
                                 const Labels* ns_labels, const Node& node, int64_t value);

// scoreMap: topology key -> topology value -> accumulated weight (may be negative).
using ScoreMap = std::map<std::string, std::map<std::string, int64_t>>;

// processTerm: weight x multiplier at (term's key, node's value) when the term matches `pod`
// and the node has the key.
void ProcessTerm(ScoreMap& m, const AffinityTerm& term, int32_t weight, const Pod& pod,
                 const Labels* ns_labels, const Node& node, int32_t multiplier);

// processTerms.
void ProcessTerms(ScoreMap& m, const std::vector<WeightedAffinityTerm>& terms, const Pod& pod,
                  const Labels* ns_labels, const Node& node, int32_t multiplier);

// append.
void Append(ScoreMap& m, const ScoreMap& other);

}  // namespace schedcheck::reference::interpodaffinity

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_
