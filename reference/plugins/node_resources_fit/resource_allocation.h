// Resource-allocation scoring shared by NodeResourcesFit (LeastAllocated, MostAllocated,
// RequestedToCapacityRatio) and NodeResourcesBalancedAllocation: noderesources/
// resource_allocation.go, least_allocated.go, most_allocated.go and
// requested_to_capacity_ratio.go of v1.27, plus the ResourceSpec argument parsing both plugins use.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/api/objects.h"
#include "reference/base/go_int.h"
#include "reference/base/result.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/framework/status.h"

namespace schedcheck::reference {

// One entry of `scoringStrategy.resources` / BalancedAllocation `resources` (config.ResourceSpec).
struct ResourceSpec {
  std::string name;
  int64_t weight = 0;
};

// The v1 default: cpu and memory, weight 1 each.
std::vector<ResourceSpec> DefaultResourceSpecs();

// Parses a JSON array of {name, weight} at `field` (e.g. "scoringStrategy.resources"), applying
// the v1 defaulting: an empty or absent list becomes DefaultResourceSpecs(), weight 0 becomes 1.
// Unknown keys and wrongly typed values are errors naming the field.
Result<std::vector<ResourceSpec>> ParseResourceSpecs(const nlohmann::json& value,
                                                     const std::string& field);

// One point of the RequestedToCapacityRatio shape, as configured (score in 0..10).
struct UtilizationShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};

// The `scorer func(requested, allocable []int64) int64` of resourceAllocationScorer: both lists
// are index-aligned with the configured resources; a resource left out for this node has
// allocatable 0.
using ResourceScorerFunc = std::function<int64_t(std::span<const int64_t> requested,
                                                 std::span<const int64_t> allocatable)>;

// v1.37's scorer: `func(requested, allocated, allocatable []int64) int64`, where `allocated` is
// the node's requests without the pod (BalancedAllocation scores the change the pod makes).
using ResourceScorerWithAllocatedFunc =
    std::function<int64_t(std::span<const int64_t> requested, std::span<const int64_t> allocated,
                          std::span<const int64_t> allocatable)>;

// calculateResourceAllocatableRequest's results for one resource: the node's allocatable, its
// requests with the pod, and (v1.37) without it.
struct AllocatableRequest {
  int64_t allocatable = 0;
  int64_t requested = 0;
  int64_t allocated = 0;
};

// resourceAllocationScorer (resource_allocation.go).
struct ResourceAllocationScorer {
  std::string name;
  // Requested (true) or NonZeroRequested (false) for cpu and memory.
  bool use_requested = false;
  ResourceScorerFunc scorer;
  std::vector<ResourceSpec> resources;
  // Set by v1.37 BalancedAllocation; when set it is used instead of `scorer`.
  ResourceScorerWithAllocatedFunc scorer_with_allocated;

  // score: Error "node not found" / "resources not found", else `scorer` over the resources.
  // `pod_requests` is CalculatePodResourceRequestList(pod, resources).
  Status Score(const Pod& pod, const NodeInfo& node_info, const std::vector<int64_t>& pod_requests,
               int64_t* score) const;
  // calculateResourceAllocatableRequest: (allocatable, node requested + pod request); (0, 0)
  // for a scalar resource the pod does not request, or one the node does not list.
  AllocatableRequest CalculateResourceAllocatableRequest(const NodeInfo& node_info,
                                                         std::string_view resource,
                                                         int64_t pod_request) const;
  // calculatePodResourceRequest: the pod's request of `resource` (cpu in millicores), with the
  // non-zero defaults for missing cpu / memory container requests unless use_requested
  // (Pod::score_non_zero_*, which BuildPod computes by the pod's level).
  int64_t CalculatePodResourceRequest(const Pod& pod, std::string_view resource) const;
  std::vector<int64_t> CalculatePodResourceRequestList(
      const Pod& pod, const std::vector<ResourceSpec>& resources) const;
};

// least_allocated.go: leastResourceScorer and leastRequestedScore.
ResourceScorerFunc LeastResourceScorer(std::vector<ResourceSpec> resources);
inline int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) return 0;
  // Go's int64 product wraps for a capacity beyond about 9.2e16 (82 PiB of memory); so does this.
  return GoMul(GoSub(capacity, requested), kMaxNodeScore) / capacity;
}

// most_allocated.go: mostResourceScorer and mostRequestedScore.
ResourceScorerFunc MostResourceScorer(std::vector<ResourceSpec> resources);
inline int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  // `requested` might exceed `capacity`: pods without requests count the non-zero defaults.
  if (requested > capacity) requested = capacity;
  return GoDiv(GoMul(requested, kMaxNodeScore), capacity);
}

// requested_to_capacity_ratio.go: requestedToCapacityRatioScorer.
// REQUIRES: `shape` is non-empty with strictly increasing utilizations (validated args).
ResourceScorerFunc RequestedToCapacityRatioScorer(std::vector<ResourceSpec> resources,
                                                  const std::vector<UtilizationShapePoint>& shape);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_
