// Resource-allocation scoring shared by NodeResourcesFit (LeastAllocated, MostAllocated,
// RequestedToCapacityRatio) and NodeResourcesBalancedAllocation (noderesources/
// resource_allocation.go and the strategy files of v1.27), plus the ResourceSpec argument
// parsing both plugins use.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/accel/batch_plugin.h"
#include "reference/api/objects.h"
#include "reference/base/result.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/framework/status.h"

namespace schedcheck::reference {

// Which field of a Resource a configured resource name reads; decided once per configured
// name instead of by string compares for every node.
enum class ResourceKind { kUnclassified, kCpu, kMemory, kEphemeralStorage, kScalar, kOther };
ResourceKind ClassifyResource(std::string_view name);

// One entry of `scoringStrategy.resources` / BalancedAllocation `resources`.
struct ResourceSpec {
  std::string name;
  int64_t weight = 0;
  ResourceKind kind = ResourceKind::kUnclassified;  // set by the parsers; else classified per use
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

// Per-resource vectors, index-aligned with the ResourceSpec list. A resource that is skipped
// for this node (allocatable 0, or a scalar the pod does not request) has allocatable 0.
using ResourceScorer =
    std::function<int64_t(std::span<const int64_t> requested, std::span<const int64_t> allocatable)>;

ResourceScorer LeastAllocatedScorer(std::vector<ResourceSpec> resources);
ResourceScorer MostAllocatedScorer(std::vector<ResourceSpec> resources);
// REQUIRES: `shape` is non-empty with strictly increasing utilizations (validated args).
ResourceScorer RequestedToCapacityRatioScorer(std::vector<ResourceSpec> resources,
                                              const std::vector<UtilizationShapePoint>& shape);

// leastRequestedScore / mostRequestedScore upstream, for one resource. Inline: batch scoring
// calls them for every node and resource.
inline int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}
inline int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  // Pods without requests count with the non-zero defaults, so requested may exceed capacity.
  if (requested > capacity) requested = capacity;
  return requested * kMaxNodeScore / capacity;
}

// calculateResourceAllocatableRequest: (allocatable, node requested + pod request) of one
// resource. `use_requested` selects the node's real Requested and the pod's raw requests
// (BalancedAllocation); otherwise cpu and memory use the non-zero views (docs/SEMANTICS.md#resource-accounting).
// A scalar resource the pod does not request yields (0, 0): it is left out of scoring.
struct AllocatableRequest {
  int64_t allocatable = 0;
  int64_t requested = 0;
};
AllocatableRequest CalculateResourceAllocatableRequest(const NodeInfo& node, const Pod& pod,
                                                       std::string_view resource,
                                                       bool use_requested);
// The same with the resource classified beforehand; inline, as batch scoring calls it for every
// node and resource.
inline AllocatableRequest CalculateResourceAllocatableRequest(const NodeInfo& node, const Pod& pod,
                                                              std::string_view resource, ResourceKind kind,
                                                              bool use_requested) {
  if (kind == ResourceKind::kUnclassified) kind = ClassifyResource(resource);
  const Resource& node_requested = use_requested ? node.requested() : node.non_zero_requested();
  const Resource& alloc = node.allocatable();
  switch (kind) {
    case ResourceKind::kCpu:
      return {alloc.milli_cpu, node_requested.milli_cpu + (use_requested ? pod.requests.milli_cpu : pod.non_zero_milli_cpu)};
    case ResourceKind::kMemory:
      return {alloc.memory, node_requested.memory + (use_requested ? pod.requests.memory : pod.non_zero_memory)};
    case ResourceKind::kEphemeralStorage:
      return {alloc.ephemeral_storage, node.requested().ephemeral_storage + pod.requests.ephemeral_storage};
    case ResourceKind::kScalar: {
      // A scalar resource the pod does not ask for is left out of the node's score.
      int64_t pod_request = pod.requests.Scalar(resource);
      if (pod_request == 0) return {};
      return {alloc.Scalar(resource), node.requested().Scalar(resource) + pod_request};
    }
    default:
      return {};  // e.g. "pods": never part of a pod's request vector
  }
}


// Σ per_resource(requested_r, allocatable_r)·w_r / Σ w_r over the resources the node has
// (allocatable > 0), integer division: the shape LeastAllocated and MostAllocated share. Inline so
// batch scoring calls `per_resource` directly.
template <typename PerResource>
int64_t WeightedAverageScore(const std::vector<ResourceSpec>& resources, std::span<const int64_t> requested,
                             std::span<const int64_t> allocatable, PerResource per_resource) {
  int64_t node_score = 0, weight_sum = 0;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    node_score += per_resource(requested[i], allocatable[i]) * resources[i].weight;
    weight_sum += resources[i].weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

// resourceAllocationScorer.score: builds the per-resource vectors and applies `scorer`.
// Error when the NodeInfo has no node or no resources are configured.
Status ScoreResourceAllocation(const NodeInfo& node, const Pod& pod,
                               const std::vector<ResourceSpec>& resources, bool use_requested,
                               const ResourceScorer& scorer, int64_t* score);

// The default resources, cpu then memory (in that order, any weights): the batch scorers then
// read the two fields directly.
inline bool IsCpuThenMemory(const std::vector<ResourceSpec>& resources) {
  return resources.size() == 2 && resources[0].kind == ResourceKind::kCpu && resources[1].kind == ResourceKind::kMemory;
}

// ScoreResourceAllocation for every node of a batch (scores[i] for nodes[i]), with any callable
// `scorer(requested, allocatable)` taking spans: the per-resource values live on the stack, and
// a lambda scorer is inlined. Error as ScoreResourceAllocation for the first node without a node.
inline constexpr size_t kMaxInlineScoredResources = 16;
template <typename Scorer>
Status ScoreResourceAllocationOnNodes(NodeBatch nodes, const Pod& pod, const std::vector<ResourceSpec>& resources,
                                      bool use_requested, const Scorer& scorer, int64_t* scores) {
  if (resources.empty()) return Status::Error("resources not found");
  if (resources.size() > kMaxInlineScoredResources) {  // no room on the stack: node by node
    const ResourceScorer as_function = [&scorer](std::span<const int64_t> req, std::span<const int64_t> alloc) {
      return scorer(req, alloc);
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
      Status s = ScoreResourceAllocation(*nodes[i], pod, resources, use_requested, as_function, &scores[i]);
      if (!s.IsSuccess()) return s;
    }
    return Status();
  }
  int64_t requested[kMaxInlineScoredResources];
  int64_t allocatable[kMaxInlineScoredResources];
  const size_t r = resources.size();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr) return Status::Error("node not found");
    for (size_t k = 0; k < r; ++k) {
      const AllocatableRequest ar =
          CalculateResourceAllocatableRequest(node, pod, resources[k].name, resources[k].kind, use_requested);
      allocatable[k] = ar.allocatable;
      requested[k] = ar.allocatable == 0 ? 0 : ar.requested;
    }
    scores[i] = scorer(std::span<const int64_t>(requested, r), std::span<const int64_t>(allocatable, r));
  }
  return Status();
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_RESOURCE_ALLOCATION_H_
