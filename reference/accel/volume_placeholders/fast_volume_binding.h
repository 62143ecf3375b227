// VolumeBinding for the fast engine: the plain placeholder (plugins/volume_placeholders), whose
// Score is 0 for every node, says so once per cycle instead of being called per node.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_
#define SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_

#include <memory>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/volume_placeholders/volume_placeholders.h"

namespace schedcheck::reference {

class FastVolumeBinding final : public VolumeBinding, public UniformScorePlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  // Always 0 without the VolumeCapacityPriority gate.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_
