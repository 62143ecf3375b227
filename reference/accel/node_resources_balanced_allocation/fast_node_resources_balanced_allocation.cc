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
  // The fast form follows v1.27; at other levels the plain rule serves.
  if (handle.level() != CompatLevel::kV1_27)
    return NodeResourcesBalancedAllocation::New(args, handle);
  Result<std::vector<ResourceSpec>> specs = ParseBalancedAllocationArgs(args);
  if (!specs.ok()) return Error{"NodeResourcesBalancedAllocation: " + specs.message()};
  return std::unique_ptr<Plugin>(std::make_unique<FastNodeResourcesBalancedAllocation>(*specs));
}

Status FastNodeResourcesBalancedAllocation::Score(const CycleState& state, const Pod& pod,
                                                  const NodeInfo& node, int64_t* score) {
  const NodeInfo* batch[] = {&node};
  Status s = ScoreNodes(state, pod, batch, score);
  if (!s.IsSuccess()) *score = 0;
  return s;
}

Status FastNodeResourcesBalancedAllocation::ScoreNodes([[maybe_unused]] const CycleState& state,
                                                       const Pod& pod, NodeBatch nodes,
                                                       int64_t* scores) {
  if (!IsCpuThenMemory(resources_)) {
    return ScoreResourceAllocationOnNodes(nodes, pod, resources_, /*use_requested=*/true,
                                          FastBalancedResourceScore, scores);
  }
  // The default configuration, written out: the arithmetic over (cpu, memory) with the real
  // requests, in the same floating-point order.
  auto fraction = [](int64_t requested, int64_t allocatable) {
    const double f = static_cast<double>(requested) / static_cast<double>(allocatable);
    return f > 1 ? 1.0 : f;
  };
  const RequestKey key{pod.requests.milli_cpu, pod.requests.memory};
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr) return Status::Error("node not found");
    if (const int64_t* score = memo_.Find(node, key)) {
      scores[i] = *score;
      continue;
    }
    if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfo(nodes[i + kPrefetchAhead]);
    const Resource& alloc = node.allocatable();
    const Resource& used = node.requested();
    double std_dev = 0;  // one resource or none: no deviation
    if (alloc.milli_cpu != 0 && alloc.memory != 0) {
      const double cpu = fraction(GoAdd(used.milli_cpu, pod.requests.milli_cpu), alloc.milli_cpu);
      const double memory = fraction(GoAdd(used.memory, pod.requests.memory), alloc.memory);
      std_dev = std::abs((cpu - memory) / 2);
    }
    scores[i] = GoFloat64ToInt64((1 - std_dev) * static_cast<double>(kMaxNodeScore));
    memo_.Store(node, key, scores[i]);
  }
  return Status();
}

}  // namespace schedcheck::reference
