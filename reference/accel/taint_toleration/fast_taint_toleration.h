// TaintToleration for the fast engine: the plain rule (plugins/taint_toleration) with batch
// Filter and Score that pass over untainted nodes (NodeInfo keeps whether a node has taints next
// to its name), and the normalisation of a list of equal scores without the list.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_TAINT_TOLERATION_FAST_TAINT_TOLERATION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_TAINT_TOLERATION_FAST_TAINT_TOLERATION_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/taint_toleration/taint_toleration.h"

namespace schedcheck::reference {

class FastTaintToleration final : public TaintToleration,
                                  public BatchFilterPlugin,
                                  public BatchScorePlugin,
                                  public UniformScorePlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit FastTaintToleration(const Features& features) : TaintToleration(features) {}

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;
  // No node with an intolerable PreferNoSchedule taint (all scores 0) is the common case.
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_TAINT_TOLERATION_FAST_TAINT_TOLERATION_H_
