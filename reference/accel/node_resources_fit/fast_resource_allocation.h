// Batch resource-allocation scoring for the fast NodeResourcesFit and
// NodeResourcesBalancedAllocation: the arithmetic of ResourceAllocationScorer::Score
// (plugins/node_resources_fit/resource_allocation.h) over runs of nodes, with each configured
// resource classified once instead of by string compares per node, and the per-resource values
// on the stack. Gives exactly the plain scores (fast_node_resources_fit_equivalence_test).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_RESOURCE_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/api/objects.h"
#include "reference/base/go_int.h"
#include "reference/framework/node_info.h"
#include "reference/framework/status.h"
#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {

// Which field of a Resource a configured resource name reads.
enum class ResourceKind { kCpu, kMemory, kEphemeralStorage, kScalar, kOther };
ResourceKind ClassifyResource(std::string_view name);

// A configured resource with its kind.
struct ClassifiedResource {
  std::string name;
  int64_t weight = 0;
  ResourceKind kind = ResourceKind::kOther;
};
std::vector<ClassifiedResource> ClassifyResources(const std::vector<ResourceSpec>& resources);

// The default resources, cpu then memory (in that order, any weights): the batch scorers then
// read the two fields directly.
inline bool IsCpuThenMemory(const std::vector<ClassifiedResource>& resources) {
  return resources.size() == 2 && resources[0].kind == ResourceKind::kCpu &&
         resources[1].kind == ResourceKind::kMemory;
}

// ResourceAllocationScorer::CalculateResourceAllocatableRequest with the pod's request of
// CalculatePodResourceRequest, in one step.
inline AllocatableRequest FastAllocatableRequest(const NodeInfo& node, const Pod& pod,
                                                 const ClassifiedResource& r, bool use_requested) {
  const Resource& node_requested = use_requested ? node.requested() : node.non_zero_requested();
  const Resource& alloc = node.allocatable();
  switch (r.kind) {
    case ResourceKind::kCpu:
      return {alloc.milli_cpu,
              GoAdd(node_requested.milli_cpu,
                    use_requested ? pod.requests.milli_cpu : pod.score_non_zero_milli_cpu)};
    case ResourceKind::kMemory:
      return {alloc.memory, GoAdd(node_requested.memory,
                                  use_requested ? pod.requests.memory : pod.score_non_zero_memory)};
    case ResourceKind::kEphemeralStorage:
      return {alloc.ephemeral_storage,
              GoAdd(node.requested().ephemeral_storage, pod.requests.ephemeral_storage)};
    case ResourceKind::kScalar: {
      // A scalar resource the pod does not ask for is left out of the node's score.
      const int64_t pod_request = pod.requests.Scalar(std::string_view(r.name));
      if (pod_request == 0) return {};
      return {alloc.Scalar(std::string_view(r.name)),
              GoAdd(node.requested().Scalar(std::string_view(r.name)), pod_request)};
    }
    default:
      return {};  // e.g. "pods": never a scalar resource
  }
}

// Σ per_resource(requested_r, allocatable_r)·w_r / Σ w_r over the resources the node has
// (allocatable > 0), integer division: leastResourceScorer and mostResourceScorer with
// `per_resource` called directly.
template <typename PerResource>
int64_t WeightedAverageScore(const std::vector<ClassifiedResource>& resources,
                             std::span<const int64_t> requested,
                             std::span<const int64_t> allocatable, PerResource per_resource) {
  int64_t node_score = 0, weight_sum = 0;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    node_score += per_resource(requested[i], allocatable[i]) * resources[i].weight;
    weight_sum += resources[i].weight;
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

// ResourceAllocationScorer::Score for every node of a batch (scores[i] for nodes[i]), with any
// callable `scorer(requested, allocatable)` taking spans. Error as Score for the first node
// without a node.
inline constexpr size_t kMaxInlineScoredResources = 16;
template <typename Scorer>
Status ScoreResourceAllocationOnNodes(NodeBatch nodes, const Pod& pod,
                                      const std::vector<ClassifiedResource>& resources,
                                      bool use_requested, const Scorer& scorer, int64_t* scores) {
  if (resources.empty()) return Status::Error("resources not found");
  const size_t r = resources.size();
  int64_t on_stack[2 * kMaxInlineScoredResources];
  std::vector<int64_t> on_heap;
  int64_t* values = on_stack;
  if (r > kMaxInlineScoredResources) {
    on_heap.resize(2 * r);
    values = on_heap.data();
  }
  int64_t* requested = values;
  int64_t* allocatable = values + r;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr) return Status::Error("node not found");
    for (size_t k = 0; k < r; ++k) {
      const AllocatableRequest ar = FastAllocatableRequest(node, pod, resources[k], use_requested);
      allocatable[k] = ar.allocatable;
      requested[k] = ar.allocatable == 0 ? 0 : ar.requested;
    }
    scores[i] =
        scorer(std::span<const int64_t>(requested, r), std::span<const int64_t>(allocatable, r));
  }
  return Status();
}

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_RESOURCE_ALLOCATION_H_
