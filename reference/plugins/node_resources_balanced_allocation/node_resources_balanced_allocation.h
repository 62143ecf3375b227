// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go, v1.27): a Score-only
// plugin favouring nodes whose resource fractions (requested / allocatable, after placing the
// pod) are close to each other. Uses real requests, not the non-zero scoring defaults.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {

// Decodes NodeResourcesBalancedAllocationArgs {resources}: defaults (cpu, memory; weight 0 -> 1)
// then validation (no duplicate names, every weight exactly 1).
Result<std::vector<ResourceSpec>> ParseBalancedAllocationArgs(const PluginArgs& args);

// balancedResourceScorer: (1 - std-dev of the fractions) * 100, truncated.
int64_t BalancedResourceScorer(std::span<const int64_t> requested,
                               std::span<const int64_t> allocable);

class NodeResourcesBalancedAllocation final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesBalancedAllocation";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodeResourcesBalancedAllocation(std::vector<ResourceSpec> resources);

  std::string_view Name() const override { return kName; }
  // No NormalizeScore.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;

 private:
  ResourceAllocationScorer resource_allocation_scorer_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_
