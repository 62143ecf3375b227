// TaintToleration (tainttoleration/taint_toleration.go, v1.27): Filter rejects nodes with an
// untolerated NoSchedule/NoExecute taint; Score counts untolerated PreferNoSchedule taints and
// NormalizeScore reverses them so that nodes with the fewest get 100.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class TaintToleration final : public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public EnqueueExtensions, public BatchFilterPlugin, public BatchScorePlugin, public UniformScorePlugin {
 public:
  static constexpr std::string_view kName = "TaintToleration";
  static constexpr std::string_view kPreScoreStateKey = "PreScoreTaintToleration";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // UnschedulableAndUnresolvable "node(s) had untolerated taint {key: value}" naming the first
  // (spec order) NoSchedule/NoExecute taint no toleration tolerates.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
  // Keeps the tolerations whose effect is empty or PreferNoSchedule (no Skip in v1.27).
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Number of PreferNoSchedule taints not tolerated by the PreScore tolerations.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) override;
  bool HasNormalizeScore() const override { return true; }
  // DefaultNormalizeScore(100, reverse = true).
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;
  // No node with an intolerable PreferNoSchedule taint (all scores 0) is the common case.
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
  // Node: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_TAINT_TOLERATION_TAINT_TOLERATION_H_
