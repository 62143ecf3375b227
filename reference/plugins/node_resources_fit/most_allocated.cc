// noderesources/most_allocated.go (v1.27): favors nodes with most requested resources.
#include <utility>

#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {

// (cpu(MaxNodeScore * requested * cpuWeight / capacity) + memory(...) + ...) / weightSum
ResourceScorerFunc MostResourceScorer(std::vector<ResourceSpec> resources) {
  return [resources = std::move(resources)](std::span<const int64_t> requested,
                                            std::span<const int64_t> allocable) -> int64_t {
    int64_t node_score = 0, weight_sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocable[i] == 0) continue;
      const int64_t weight = resources[i].weight;
      const int64_t resource_score = MostRequestedScore(requested[i], allocable[i]);
      node_score += resource_score * weight;
      weight_sum += weight;
    }
    if (weight_sum == 0) return 0;
    return node_score / weight_sum;
  };
}

}  // namespace schedcheck::reference
