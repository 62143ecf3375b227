#include "reference/plugins/inter_pod_affinity/topology_counts.h"

namespace schedcheck::reference::interpodaffinity {

TopologyToMatchedTermCount::TopologyToMatchedTermCount(
    std::initializer_list<std::pair<TopologyPair, int64_t>> counts) {
  for (const auto& [pair, count] : counts) Add(InternLabel(pair.key), InternLabel(pair.value), count);
}

int64_t TopologyToMatchedTermCount::Get(const TopologyPair& pair) const {
  return Get(InternLabel(pair.key), InternLabel(pair.value));
}

}  // namespace schedcheck::reference::interpodaffinity
