#include "reference/accel/node_resources_balanced_allocation/fast_node_resources_balanced_allocation.h"
#include "reference/base/go_int.h"

#include <cmath>
#include <utility>

namespace schedcheck::reference {

int64_t FastBalancedResourceScore(std::span<const int64_t> requested,
                                  std::span<const int64_t> allocatable) {
  // Fractions of the resources the node has; summed first, so no list is kept.
  size_t count = 0;
  double total = 0;
  double first = 0, second = 0;
  auto fraction = [&](size_t i) {
    double f = static_cast<double>(requested[i]) / static_cast<double>(allocatable[i]);
    return f > 1 ? 1.0 : f;
  };
  for (size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    double f = fraction(i);
    if (count == 0) first = f;
    if (count == 1) second = f;
    total += f;
    ++count;
  }
  double std_dev = 0;
  if (count == 2) {
    std_dev = std::abs((first - second) / 2);
  } else if (count > 2) {
    double mean = total / static_cast<double>(count);
    double sum = 0;
    for (size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      double f = fraction(i);
      sum += (f - mean) * (f - mean);
    }
    std_dev = std::sqrt(sum / static_cast<double>(count));
  }
  return GoFloat64ToInt64((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

Result<std::unique_ptr<Plugin>> FastNodeResourcesBalancedAllocation::New(const PluginArgs& args,
                                                                         const Handle& handle) {
  Result<std::vector<ResourceSpec>> specs = ParseBalancedAllocationArgs(args);
  if (!specs.ok()) return Error{"NodeResourcesBalancedAllocation: " + specs.message()};
  if (handle.features.balanced_allocation_scores_the_change) {
    return std::unique_ptr<Plugin>(
        std::make_unique<FastNodeResourcesBalancedAllocationV1_37>(*specs));
  }
  return std::unique_ptr<Plugin>(std::make_unique<FastNodeResourcesBalancedAllocation>(*specs));
}

Status FastNodeResourcesBalancedAllocation::Score(const CycleState& state, const Pod& pod,
                                                  const NodeInfo& node, int64_t* score) {
  const NodeInfo* batch[] = {&node};
  Status s = ScoreNodes(state, pod, batch, score);
  if (!s.IsSuccess()) *score = 0;
  return s;
}

namespace {

// balancedResourceScorer over (cpu, memory): a resource the node has none of is left out, and
// with fewer than two left there is no deviation.
int64_t CpuMemoryBalance(int64_t cpu, int64_t cpu_allocatable, int64_t memory,
                         int64_t memory_allocatable) {
  double std_dev = 0;
  if (cpu_allocatable != 0 && memory_allocatable != 0) {
    auto fraction = [](int64_t requested, int64_t allocatable) {
      const double f = static_cast<double>(requested) / static_cast<double>(allocatable);
      return f > 1 ? 1.0 : f;
    };
    std_dev = std::abs((fraction(cpu, cpu_allocatable) - fraction(memory, memory_allocatable)) / 2);
  }
  return GoFloat64ToInt64((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

// Scores `nodes` with `score(allocatable, requested)` of each node, kept in `memo` by `key` (what
// the pod brings) while a node is unchanged. Error for a NodeInfo without its node.
template <typename Key, typename Score>
Status ScoreCpuMemoryOnNodes(NodeBatch nodes, const Key& key, NodeMemo<Key, int64_t>& memo,
                             int64_t* scores, Score&& score) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr) return Status::Error("node not found");
    if (const int64_t* kept = memo.Find(node, key)) {
      scores[i] = *kept;
      continue;
    }
    if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfo(nodes[i + kPrefetchAhead]);
    scores[i] = score(node.allocatable(), node.requested());
    memo.Store(node, key, scores[i]);
  }
  return Status();
}

}  // namespace

Status FastNodeResourcesBalancedAllocation::ScoreNodes([[maybe_unused]] const CycleState& state,
                                                       const Pod& pod, NodeBatch nodes,
                                                       int64_t* scores) {
  if (!IsCpuThenMemory(resources_)) {
    return ScoreResourceAllocationOnNodes(nodes, pod, resources_, /*use_requested=*/true,
                                          FastBalancedResourceScore, scores);
  }
  // The default configuration, written out: the arithmetic over (cpu, memory) with the real
  // requests, in the same floating-point order.
  const int64_t pod_cpu = pod.requests.milli_cpu, pod_memory = pod.requests.memory;
  return ScoreCpuMemoryOnNodes(nodes, RequestKey{pod_cpu, pod_memory}, memo_, scores,
                               [&](const Resource& alloc, const Resource& used) {
                                 return CpuMemoryBalance(
                                     GoAdd(used.milli_cpu, pod_cpu), alloc.milli_cpu,
                                     GoAdd(used.memory, pod_memory), alloc.memory);
                               });
}

Status FastNodeResourcesBalancedAllocationV1_37::Score(const CycleState& state, const Pod& pod,
                                                       const NodeInfo& node, int64_t* score) {
  const NodeInfo* batch[] = {&node};
  Status s = ScoreNodes(state, pod, batch, score);
  if (!s.IsSuccess()) *score = 0;
  return s;
}

Status FastNodeResourcesBalancedAllocationV1_37::ScoreNodes(const CycleState& state, const Pod& pod,
                                                            NodeBatch nodes, int64_t* scores) {
  const auto* s =
      state.ReadAs<PreScoreState>(NodeResourcesBalancedAllocationV1_37::kPreScoreStateKey);
  if (s == nullptr || !IsCpuThenMemory(resources_)) {
    return ScoreEachNode(plain_, state, pod, nodes, scores);
  }
  // balancedResourceScore at v1.37 with (cpu, memory): the pod's requests from PreScore; the
  // node's from NodeInfo.Requested.
  const int64_t pod_cpu = s->pod_requests[0], pod_memory = s->pod_requests[1];
  return ScoreCpuMemoryOnNodes(
      nodes, RequestKey{pod_cpu, pod_memory}, memo_, scores,
      [&](const Resource& alloc, const Resource& used) {
        const int64_t with_pod = CpuMemoryBalance(GoAdd(used.milli_cpu, pod_cpu), alloc.milli_cpu,
                                                  GoAdd(used.memory, pod_memory), alloc.memory);
        const int64_t without_pod =
            CpuMemoryBalance(used.milli_cpu, alloc.milli_cpu, used.memory, alloc.memory);
        return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with_pod - without_pod) / 2;
      });
}

}  // namespace schedcheck::reference
