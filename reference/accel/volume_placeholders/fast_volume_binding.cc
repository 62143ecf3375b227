#include "reference/accel/volume_placeholders/fast_volume_binding.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastVolumeBinding::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = VolumeBinding::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastVolumeBinding>());
}

bool FastVolumeBinding::UniformScore([[maybe_unused]] const CycleState& state,
                                     [[maybe_unused]] const Pod& pod, int64_t* score) const {
  *score = 0;
  return true;
}

}  // namespace schedcheck::reference
