// VolumeBinding for the fast engine: when no node can score anything but 0 (v1.27 always: it
// scores only with the VolumeCapacityPriority alpha gate; v1.37 when the pod has no unbound
// WaitForFirstConsumer claim, so no node has a binding or a provision to score), it says so once
// per cycle instead of being called per node. When every claim of the pod is bound to a volume
// without required node affinity (the scheduler_perf volume shapes), its batch Filter looks the
// volumes up once per batch instead of once per node: each node then passes with nothing to bind,
// or all fail alike for a missing volume. Everything else is the plain plugin.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_VOLUME_BINDING_FAST_VOLUME_BINDING_H_
#define SCHEDCHECK_REFERENCE_ACCEL_VOLUME_BINDING_FAST_VOLUME_BINDING_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/volume_binding/volume_binding.h"

namespace schedcheck::reference {

template <typename Plain>
class FastVolumeBindingOf final : public Plain,
                                  public UniformScorePlugin,
                                  public BatchFilterPlugin {
 public:
  using Plain::Plain;
  bool UniformScore(const CycleState& state, const Pod&, int64_t* score) const override {
    *score = 0;
    return this->ScoresZeroOnEveryNode(state);
  }
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
};

struct FastVolumeBinding {
  // The level's plain plugin (its arguments checked by the plain factory) with UniformScore.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  // The plain plugin of the handle's level, for comparisons.
  static Result<std::unique_ptr<Plugin>> NewPlain(const PluginArgs& args, const Handle& handle);
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_VOLUME_BINDING_FAST_VOLUME_BINDING_H_
