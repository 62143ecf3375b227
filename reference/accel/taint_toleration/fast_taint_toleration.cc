#include "reference/accel/taint_toleration/fast_taint_toleration.h"

#include <utility>

#include "reference/accel/helper/normalize_uniform_score.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastTaintToleration::New(const PluginArgs& args,
                                                         const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = TaintToleration::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastTaintToleration>(handle.features));
}

Status FastTaintToleration::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  if (node.node() != nullptr && !node.has_taints()) return Status();
  return TaintToleration::Filter(state, pod, node);
}

void FastTaintToleration::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                      std::vector<BatchRejection>* rejected) {
  // Only tainted nodes (or a missing node) can be rejected.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->node() != nullptr && !nodes[i]->has_taints()) continue;
    Status s = TaintToleration::Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

Status FastTaintToleration::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                       int64_t* scores) {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return ScoreEachNode(*this, state, pod, nodes, scores);  // the per-node error
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr)
      return ScoreEachNode(*this, state, pod, nodes.subspan(i, 1), &scores[i]);
    scores[i] = node.has_taints()
                    ? CountIntolerableTaintsPreferNoSchedule(node.node()->obj.spec().taints(),
                                                             s->tolerations_prefer_no_schedule)
                    : 0;
  }
  return Status();
}

bool FastTaintToleration::UniformNormalizedScore([[maybe_unused]] const CycleState& state,
                                                 [[maybe_unused]] const Pod& pod, int64_t uniform,
                                                 int64_t* normalized) const {
  *normalized = DefaultNormalizeUniformScore(kMaxNodeScore, /*reverse=*/true, uniform);
  return true;
}

}  // namespace schedcheck::reference
