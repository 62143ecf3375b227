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

#include "reference/accel/batch_plugin.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_memo.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {

// Decodes NodeResourcesBalancedAllocationArgs {resources}: defaults (cpu, memory; weight 0 -> 1)
// then validation (no duplicate names, every weight exactly 1).
Result<std::vector<ResourceSpec>> ParseBalancedAllocationArgs(const PluginArgs& args);

// balancedResourceScorer: (1 - std-dev of the fractions) * 100, truncated.
int64_t BalancedResourceScore(std::span<const int64_t> requested, std::span<const int64_t> allocatable);

class NodeResourcesBalancedAllocation final : public ScorePlugin, public BatchScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesBalancedAllocation";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodeResourcesBalancedAllocation(std::vector<ResourceSpec> resources)
      : resources_(std::move(resources)) {}

  std::string_view Name() const override { return kName; }
  // No PreScore in v1.27 and no NormalizeScore.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) override;

 private:
  std::vector<ResourceSpec> resources_;
  // Scores of unchanged nodes from earlier cycles for the default (cpu, memory) configuration,
  // keyed by the pod's cpu and memory requests (node_memo.h).
  struct RequestKey {
    int64_t milli_cpu = 0, memory = 0;
    bool operator==(const RequestKey&) const = default;
  };
  NodeMemo<RequestKey, int64_t> memo_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_
