// noderesources/requested_to_capacity_ratio.go (v1.27): bin packing by a configured
// piecewise-linear shape of each resource's utilization.
#include <cmath>
#include <functional>
#include <utility>

#include "reference/base/go_int.h"
#include "reference/plugins/helper/shape_score.h"
#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kMaxUtilization = 100;
// config.MaxCustomPriorityScore: configured shape scores range over 0..10.
constexpr int64_t kMaxCustomPriorityScore = 10;

// buildRequestedToCapacityRatioScorerFunction.
ResourceScorerFunc BuildRequestedToCapacityRatioScorerFunction(
    std::vector<FunctionShapePoint> scoring_function_shape, std::vector<ResourceSpec> resources) {
  std::function<int64_t(int64_t)> raw_scoring_function =
      BuildBrokenLinearFunction(std::move(scoring_function_shape));
  auto resource_scoring_function = [raw_scoring_function](int64_t requested, int64_t capacity) {
    if (capacity == 0 || requested > capacity) return raw_scoring_function(kMaxUtilization);
    return raw_scoring_function(GoMul(requested, kMaxUtilization) / capacity);
  };
  return [resource_scoring_function, resources = std::move(resources)](
             std::span<const int64_t> requested, std::span<const int64_t> allocable) -> int64_t {
    int64_t node_score = 0, weight_sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocable[i] == 0) continue;
      const int64_t weight = resources[i].weight;
      const int64_t resource_score = resource_scoring_function(requested[i], allocable[i]);
      if (resource_score > 0) {
        node_score += resource_score * weight;
        weight_sum += weight;
      }
    }
    if (weight_sum == 0) return 0;
    return static_cast<int64_t>(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  };
}

}  // namespace

ResourceScorerFunc RequestedToCapacityRatioScorer(std::vector<ResourceSpec> resources,
                                                  const std::vector<UtilizationShapePoint>& shape) {
  std::vector<FunctionShapePoint> shapes;
  shapes.reserve(shape.size());
  for (const UtilizationShapePoint& point : shape) {
    // MaxCustomPriorityScore may differ from MaxNodeScore: scale to the scheduler's range.
    shapes.push_back({point.utilization, point.score * (kMaxNodeScore / kMaxCustomPriorityScore)});
  }
  return BuildRequestedToCapacityRatioScorerFunction(std::move(shapes), std::move(resources));
}

}  // namespace schedcheck::reference
