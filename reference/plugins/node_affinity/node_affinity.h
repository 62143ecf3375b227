// NodeAffinity (nodeaffinity/node_affinity.go, v1.27): spec.nodeSelector and required node
// affinity as a filter (with a node-name narrowing from matchFields), preferred node affinity as a
// score, plus the scheduler-enforced args.addedAffinity.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/api/compiled_node_selector.h"
#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_affinity/node_affinity_args.h"

namespace schedcheck::reference {

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions, public UniformScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeAffinity";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodeAffinity";
  static constexpr std::string_view kPreScoreStateKey = "PreScoreNodeAffinity";
  static constexpr std::string_view kErrReasonPod =
      "node(s) didn't match Pod's node affinity/selector";
  static constexpr std::string_view kErrReasonEnforced =
      "node(s) didn't match scheduler-enforced node affinity";
  static constexpr std::string_view kErrReasonConflict = "pod affinity terms conflict";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodeAffinity(NodeAffinityArgs args);

  std::string_view Name() const override { return kName; }
  // Skip when the pod has no nodeSelector, no required node affinity and no added required
  // affinity is configured. Otherwise stores the required affinity and narrows to the union over
  // terms of each term's intersected `metadata.name In` values (no narrowing if some term has
  // none); an empty union is UnschedulableAndUnresolvable "pod affinity terms conflict".
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Added required affinity first ("scheduler-enforced"), then the pod's nodeSelector and
  // required terms; both rejections are UnschedulableAndUnresolvable.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Stores the pod's preferred terms; Error when one of them does not parse (v1.27: no Skip).
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum of the weights of the matching preferred terms (added ones included).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  // Every node scores 0 when neither the pod nor the added affinity has preferred terms.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
  bool HasNormalizeScore() const override { return true; }
  // DefaultNormalizeScore(100, reverse = false).
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;
  // Node: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;

 private:
  bool HasAddedRequired() const { return added_required_.has_value(); }

  NodeAffinityArgs args_;
  // The added affinity, compiled once (validated by New): its usable preferred terms with their
  // weights, and its required selector.
  std::vector<WeightedNodeSelectorTerm> added_preferred_;
  std::optional<CompiledNodeSelector> added_required_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_H_
