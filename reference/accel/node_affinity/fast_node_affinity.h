// NodeAffinity for the fast engine: the plain rule (plugins/node_affinity) with the pod's and the
// added selectors compiled once (api/compiled_node_selector.h: label keys and values interned, so
// matching a node compares integers), rejections that share one status, and the shortcut for a
// pod without preferred terms (every node scores 0). PreFilter and PreScore run the plain ones
// (their checks, errors and node narrowing) and then store the compiled forms.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_AFFINITY_FAST_NODE_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_AFFINITY_FAST_NODE_AFFINITY_H_

#include <memory>
#include <optional>
#include <vector>

#include "reference/accel/base/compiled_node_selector.h"
#include "reference/accel/batch_plugin.h"
#include "reference/plugins/node_affinity/node_affinity.h"

namespace schedcheck::reference {

class FastNodeAffinity final : public NodeAffinity, public UniformScorePlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  FastNodeAffinity(NodeAffinityArgs args, const Features& features);

  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  // Every node scores 0 when neither the pod nor the added affinity has preferred terms.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;

 private:
  std::optional<CompiledNodeSelector> compiled_added_node_selector_;
  std::vector<WeightedNodeSelectorTerm> compiled_added_pref_sched_terms_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_AFFINITY_FAST_NODE_AFFINITY_H_
