#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"
#include "reference/base/go_int.h"

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

Result<std::unique_ptr<Plugin>> NodeResourcesBalancedAllocation::New(const PluginArgs& args,
                                                                     const Handle& handle) {
  Result<std::vector<ResourceSpec>> specs = ParseBalancedAllocationArgs(args);
  if (!specs.ok()) return Error{"NodeResourcesBalancedAllocation: " + specs.message()};
  if (handle.features.balanced_allocation_scores_the_change) {
    return std::unique_ptr<Plugin>(
        std::make_unique<NodeResourcesBalancedAllocationV1_37>(std::move(*specs)));
  }
  return std::unique_ptr<Plugin>(
      std::make_unique<NodeResourcesBalancedAllocation>(std::move(*specs)));
}

NodeResourcesBalancedAllocation::NodeResourcesBalancedAllocation(
    std::vector<ResourceSpec> resources)
    : resource_allocation_scorer_{std::string(kName), /*use_requested=*/true,
                                  &BalancedResourceScorer, std::move(resources)} {}

Status NodeResourcesBalancedAllocation::Score([[maybe_unused]] const CycleState& state,
                                              const Pod& pod, const NodeInfo& node_info,
                                              int64_t* score) {
  // Upstream reads the pod's requests from its PreScore state and computes them when the state
  // is missing; the plugin here has no PreScore, so Score always computes them.
  std::vector<int64_t> pod_requests = resource_allocation_scorer_.CalculatePodResourceRequestList(
      pod, resource_allocation_scorer_.resources);
  // score = (1 - std) * MaxNodeScore, std over the resources' fractions of capacity.
  return resource_allocation_scorer_.Score(pod, node_info, pod_requests, score);
}

namespace {

bool IsBestEffortPod(const std::vector<int64_t>& pod_requests) {
  for (int64_t request : pod_requests) {
    if (request != 0) return false;
  }
  return true;
}

}  // namespace

NodeResourcesBalancedAllocationV1_37::NodeResourcesBalancedAllocationV1_37(
    std::vector<ResourceSpec> resources)
    : resource_allocation_scorer_{std::string(kName), /*use_requested=*/true, nullptr,
                                  std::move(resources), &v1_37::BalancedResourceScorer} {}

Status NodeResourcesBalancedAllocationV1_37::PreScore(
    CycleState& state, const Pod& pod, [[maybe_unused]] const std::vector<const NodeInfo*>& nodes) {
  std::vector<int64_t> pod_requests = resource_allocation_scorer_.CalculatePodResourceRequestList(
      pod, resource_allocation_scorer_.resources);
  if (IsBestEffortPod(pod_requests)) return Status(Code::kSkip);
  state.Write(std::string(kPreScoreStateKey),
              std::make_unique<PreScoreState>(std::move(pod_requests)));
  return Status();
}

Status NodeResourcesBalancedAllocationV1_37::Score(const CycleState& state, const Pod& pod,
                                                   const NodeInfo& node_info, int64_t* score) {
  std::vector<int64_t> pod_requests;
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    pod_requests = s->pod_requests;
  } else {
    pod_requests = resource_allocation_scorer_.CalculatePodResourceRequestList(
        pod, resource_allocation_scorer_.resources);
    if (IsBestEffortPod(pod_requests)) {
      *score = 0;
      return Status();
    }
  }
  return resource_allocation_scorer_.Score(pod, node_info, pod_requests, score);
}

// balancedResourceScore at v1.37 is v1.27's balancedResourceScorer unchanged.
int64_t v1_37::BalancedResourceScorer(std::span<const int64_t> requested,
                                      std::span<const int64_t> allocated,
                                      std::span<const int64_t> allocatable) {
  const int64_t score_with_pod = reference::BalancedResourceScorer(requested, allocatable);
  const int64_t score_without_pod = reference::BalancedResourceScorer(allocated, allocatable);
  return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + score_with_pod - score_without_pod) / 2;
}

int64_t BalancedResourceScorer(std::span<const int64_t> requested,
                               std::span<const int64_t> allocable) {
  std::vector<double> resource_to_fractions;
  double total_fraction = 0;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (allocable[i] == 0) continue;
    double fraction = static_cast<double>(requested[i]) / static_cast<double>(allocable[i]);
    if (fraction > 1) fraction = 1;
    total_fraction += fraction;
    resource_to_fractions.push_back(fraction);
  }
  double std_dev = 0.0;
  // Two resources (the common case): |f1 - f2| / 2. More: the population standard deviation.
  // Fewer: none.
  if (resource_to_fractions.size() == 2) {
    std_dev = std::abs((resource_to_fractions[0] - resource_to_fractions[1]) / 2);
  } else if (resource_to_fractions.size() > 2) {
    const double mean = total_fraction / static_cast<double>(resource_to_fractions.size());
    double sum = 0;
    for (double fraction : resource_to_fractions) sum = sum + (fraction - mean) * (fraction - mean);
    std_dev = std::sqrt(sum / static_cast<double>(resource_to_fractions.size()));
  }
  // 1 - deviation ranks the node with the least deviation highest, scaled by MaxNodeScore.
  return GoFloat64ToInt64((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace schedcheck::reference
