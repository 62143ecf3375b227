// VolumeBinding for the fast engine: its Score is 0 on every node at both levels (v1.27 scores
// only with the VolumeCapacityPriority alpha gate; the v1.37 placeholder scores nothing), so it
// says so once per cycle instead of being called per node. Everything else is the plain plugin:
// plugins/volume_binding at 1.27, the placeholder at 1.37.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_
#define SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_

#include <memory>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/volume_binding/volume_binding.h"
#include "reference/plugins/volume_placeholders/volume_placeholders.h"

namespace schedcheck::reference {

template <typename Plain>
class FastVolumeBindingOf final : public Plain, public UniformScorePlugin {
 public:
  using Plain::Plain;
  bool UniformScore(const CycleState&, const Pod&, int64_t* score) const override {
    *score = 0;
    return true;
  }
};

struct FastVolumeBinding {
  // The level's plain plugin (its arguments checked by the plain factory) with UniformScore.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  // The plain plugin of the handle's level, for comparisons.
  static Result<std::unique_ptr<Plugin>> NewPlain(const PluginArgs& args, const Handle& handle);
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_VOLUME_PLACEHOLDERS_FAST_VOLUME_BINDING_H_
