// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): favours nodes whose
// resource fractions (requested / allocatable) are close to each other. Uses real requests, not
// the non-zero scoring defaults. v1.27 scores the balance after placing the pod; v1.37 scores the
// change in balance the pod makes, and skips best-effort pods at PreScore (one class per level,
// chosen by New).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
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

namespace v1_37 {
// balancedResourceScorer at v1.37: MaxNodeScore/2 + (MaxNodeScore/2 + S_with − S_without)/2,
// S = balancedResourceScore = int64((1 − std) · MaxNodeScore), with and without the pod.
int64_t BalancedResourceScorer(std::span<const int64_t> requested,
                               std::span<const int64_t> allocated,
                               std::span<const int64_t> allocatable);
}  // namespace v1_37

class NodeResourcesBalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesBalancedAllocation";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodeResourcesBalancedAllocation(std::vector<ResourceSpec> resources);

  std::string_view Name() const override { return kName; }
  // Always Success, storing nothing: v1.27's PreScore stores the pod's requests, which Score
  // computes alike without the state (as NodeResourcesFit's PreScore).
  Status PreScore(CycleState&, const Pod&, const std::vector<const NodeInfo*>&) override {
    return Status();
  }
  // No NormalizeScore.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;

 private:
  ResourceAllocationScorer resource_allocation_scorer_;
};

// The plugin at v1.37: PreScore computes the pod's requests once and returns Skip when they are
// all zero (a best-effort pod: isBestEffortPod), so Score does not run for it.
class NodeResourcesBalancedAllocationV1_37 final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = NodeResourcesBalancedAllocation::kName;
  static constexpr std::string_view kPreScoreStateKey = "PreScoreNodeResourcesBalancedAllocation";

  class PreScoreState final : public StateData {
   public:
    explicit PreScoreState(std::vector<int64_t> pod_requests)
        : pod_requests(std::move(pod_requests)) {}
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreScoreState>(*this);
    }
    std::vector<int64_t> pod_requests;
  };

  explicit NodeResourcesBalancedAllocationV1_37(std::vector<ResourceSpec> resources);

  std::string_view Name() const override { return kName; }
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Reads the PreScore state; without it computes the requests (and scores a best-effort pod 0).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;

 private:
  ResourceAllocationScorer resource_allocation_scorer_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_NODE_RESOURCES_BALANCED_ALLOCATION_H_
