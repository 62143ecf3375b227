#include "reference/accel/volume_binding/fast_volume_binding.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastVolumeBinding::NewPlain(const PluginArgs& args,
                                                            const Handle& handle) {
  return VolumeBinding::New(args, handle);
}

Result<std::unique_ptr<Plugin>> FastVolumeBinding::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NewPlain(args, handle);
  if (!plain.ok()) return plain.error();
  if (handle.level() == CompatLevel::kV1_37) {
    // The plain plugin holds the configured shape; the fast one takes it over.
    auto fast = std::make_unique<FastVolumeBindingOf<VolumeBindingV1_37>>(handle);
    fast->CopyScorerFrom(dynamic_cast<const VolumeBinding&>(**plain));
    return std::unique_ptr<Plugin>(std::move(fast));
  }
  return std::unique_ptr<Plugin>(std::make_unique<FastVolumeBindingOf<VolumeBinding>>(handle));
}

}  // namespace schedcheck::reference
