// FastNodeResourcesBalancedAllocation: NodeResourcesBalancedAllocation
// (plugins/node_resources_balanced_allocation) for the fast engine. The same scores, computed
// over runs of nodes: the default (cpu, memory) configuration written out, its scores of
// unchanged nodes kept across cycles (accel/node_memo.h), and the fractions summed without a
// list. fast_node_resources_balanced_allocation_equivalence_test holds it equal to the plain rule.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_BALANCED_ALLOCATION_FAST_NODE_RESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_BALANCED_ALLOCATION_FAST_NODE_RESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/node_memo.h"
#include "reference/accel/node_resources_fit/fast_resource_allocation.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"

namespace schedcheck::reference {

// BalancedResourceScorer's arithmetic, in the same floating-point order, without a list of
// fractions.
int64_t FastBalancedResourceScore(std::span<const int64_t> requested,
                                  std::span<const int64_t> allocatable);

class FastNodeResourcesBalancedAllocation final : public PreScorePlugin,
                                                  public ScorePlugin,
                                                  public BatchScorePlugin {
 public:
  static constexpr std::string_view kName = NodeResourcesBalancedAllocation::kName;

  // The plain factory's argument handling and errors.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit FastNodeResourcesBalancedAllocation(const std::vector<ResourceSpec>& resources)
      : resources_(ClassifyResources(resources)) {}

  std::string_view Name() const override { return kName; }
  // The plain PreScore's: Success, nothing stored.
  Status PreScore(CycleState&, const Pod&, const std::vector<const NodeInfo*>&) override {
    return Status();
  }
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;

 private:
  std::vector<ClassifiedResource> resources_;
  // Scores of unchanged nodes from earlier cycles for the default (cpu, memory) configuration,
  // keyed by the pod's cpu and memory requests.
  struct RequestKey {
    int64_t milli_cpu = 0, memory = 0;
    bool operator==(const RequestKey&) const = default;
  };
  NodeMemo<RequestKey, int64_t> memo_;
};

// The plugin at v1.37 (NodeResourcesBalancedAllocationV1_37): the plain PreScore (the pod's
// requests, Skip for a best-effort pod) and, for the default (cpu, memory) configuration, the
// v1.37 score (the balance with the pod against the balance without it) written out and kept
// across cycles like v1.27's; other configurations, and Score without a PreScore state, are the
// plain rule's.
class FastNodeResourcesBalancedAllocationV1_37 final : public PreScorePlugin,
                                                       public ScorePlugin,
                                                       public BatchScorePlugin {
 public:
  static constexpr std::string_view kName = NodeResourcesBalancedAllocation::kName;
  using PreScoreState = NodeResourcesBalancedAllocationV1_37::PreScoreState;

  explicit FastNodeResourcesBalancedAllocationV1_37(const std::vector<ResourceSpec>& resources)
      : plain_(resources), resources_(ClassifyResources(resources)) {}

  std::string_view Name() const override { return kName; }
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override {
    return plain_.PreScore(state, pod, nodes);
  }
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;

 private:
  NodeResourcesBalancedAllocationV1_37 plain_;
  std::vector<ClassifiedResource> resources_;
  struct RequestKey {
    int64_t milli_cpu = 0, memory = 0;
    bool operator==(const RequestKey&) const = default;
  };
  NodeMemo<RequestKey, int64_t> memo_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_BALANCED_ALLOCATION_FAST_NODE_RESOURCES_BALANCED_ALLOCATION_H_
