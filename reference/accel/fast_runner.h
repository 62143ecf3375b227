// The fast engine's Filter and Score loops: the same results as Framework::RunFilterPlugins per
// node and Framework::RunScorePlugins, computed plugin by plugin over runs of nodes through the
// batch forms of accel/batch_plugin.h, into flat tables that allocate nothing per node.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_FAST_RUNNER_H_
#define SCHEDCHECK_REFERENCE_ACCEL_FAST_RUNNER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/runtime/framework.h"

namespace schedcheck::reference {

// Scores of every (node, score plugin) pair, flat: no per-node allocation.
struct ScoreTable {
  std::vector<std::string_view> plugins;  // the score plugins that ran (not skipped), in order
  std::vector<int64_t> weights;           // per plugin
  std::vector<int64_t> raw;               // [plugin * nodes + node]: one column per plugin
  std::vector<int64_t> normalized;        // same layout
  std::vector<int64_t> totals;            // per node: sum of weight * normalized
  // False: only the totals are wanted; raw and normalized may then hold only what the
  // computation needed (a column that is one constant is not written out).
  bool keep_columns = true;
};

// RunFilterPlugins for every node of `nodes` at once, plugin by plugin over the nodes still
// passing: `rejected` gets, in position order, each node for which RunFilterPlugins would not
// return Success, with that status; the others pass. Returns false, with `rejected`
// unspecified, when some filter gave a status that is neither Success nor a rejection: the
// caller then runs node by node for the exact error. Nominated pods are not considered (callers
// use it for nodes without nominated pods).
bool RunFilterPluginsOnNodes(const Framework& fw, const CycleState& state, const Pod& pod,
                             NodeBatch nodes, std::vector<BatchRejection>* rejected);

// A cycle's filter plugins with their batch forms and skip flags, found once per cycle instead
// of once per batch (dynamic_cast and the skip set's name lookups cost more than a small batch's
// filtering).
struct FilterPlan {
  std::vector<FilterPlugin*> plugins;
  std::vector<BatchFilterPlugin*> batch_forms;  // per plugin; null when it has none
  // Per plugin: in state.skip_filter_plugins, or a volume filter (NodeVolumeLimits, the in-tree
  // limits, VolumeZone) and `pod` has no volumes, so it passes every node.
  std::vector<char> skipped;
};
void PlanFilters(const Framework& fw, const CycleState& state, const Pod& pod, FilterPlan* plan);
// The same as above, with the plan of `state`'s cycle.
bool RunFilterPluginsOnNodes(const FilterPlan& plan, const CycleState& state, const Pod& pod,
                             NodeBatch nodes, std::vector<BatchRejection>* rejected);

// Framework::RunScorePlugins into a table (same totals, same errors).
Status RunScorePluginsIntoTable(const Framework& fw, const CycleState& state, const Pod& pod,
                                const std::vector<const NodeInfo*>& nodes, ScoreTable* table);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_FAST_RUNNER_H_
