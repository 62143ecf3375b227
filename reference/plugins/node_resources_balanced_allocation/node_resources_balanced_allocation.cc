#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"

#include <cmath>
#include <set>
#include <string>
#include <utility>

namespace schedcheck::reference {

Result<std::vector<ResourceSpec>> ParseBalancedAllocationArgs(const PluginArgs& args) {
  nlohmann::json resources;
  if (!args.is_null()) {
    if (!args.is_object()) return Error{"NodeResourcesBalancedAllocationArgs: expected an object"};
    for (const auto& [key, v] : args.items()) {
      if (key == "apiVersion" || key == "kind") continue;
      if (key != "resources") return Error{key + ": unknown field"};
      resources = v;
    }
  }
  Result<std::vector<ResourceSpec>> specs = ParseResourceSpecs(resources, "resources");
  if (!specs.ok()) return specs.error();
  std::set<std::string> seen;
  for (size_t i = 0; i < specs->size(); ++i) {
    const ResourceSpec& r = (*specs)[i];
    std::string field = "resources[" + std::to_string(i) + "]";
    if (!seen.insert(r.name).second) {
      return Error{field + ".name: Duplicate value: \"" + r.name + "\""};
    }
    if (r.weight != 1) {
      return Error{field + ".weight: Invalid value: " + std::to_string(r.weight) + ": must be 1"};
    }
  }
  return specs;
}

int64_t BalancedResourceScore(std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
  // Fractions of the resources the node has; summed first, so no list is kept (this runs for
  // every node).
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
  // Two resources (the common case) use the closed form |f1 - f2| / 2; more use the population
  // standard deviation; fewer have none.
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
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

Result<std::unique_ptr<Plugin>> NodeResourcesBalancedAllocation::New(const PluginArgs& args,
                                                                     const Handle& handle) {
  (void)handle;
  Result<std::vector<ResourceSpec>> specs = ParseBalancedAllocationArgs(args);
  if (!specs.ok()) return Error{"NodeResourcesBalancedAllocation: " + specs.message()};
  return std::unique_ptr<Plugin>(
      std::make_unique<NodeResourcesBalancedAllocation>(std::move(*specs)));
}

Status NodeResourcesBalancedAllocation::Score(const CycleState& state, const Pod& pod,
                                              const NodeInfo& node, int64_t* score) {
  (void)state;
  return ScoreResourceAllocation(node, pod, resources_, /*use_requested=*/true,
                                 &BalancedResourceScore, score);
}

Status NodeResourcesBalancedAllocation::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                                   int64_t* scores) {
  (void)state;
  if (!IsCpuThenMemory(resources_)) {
    return ScoreResourceAllocationOnNodes(nodes, pod, resources_, /*use_requested=*/true, BalancedResourceScore,
                                          scores);
  }
  // The default configuration, written out: BalancedResourceScore's arithmetic over (cpu,
  // memory) with the real requests, in the same floating-point order.
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
      const double cpu = fraction(used.milli_cpu + pod.requests.milli_cpu, alloc.milli_cpu);
      const double memory = fraction(used.memory + pod.requests.memory, alloc.memory);
      std_dev = std::abs((cpu - memory) / 2);
    }
    scores[i] = static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
    memo_.Store(node, key, scores[i]);
  }
  return Status();
}

}  // namespace schedcheck::reference
