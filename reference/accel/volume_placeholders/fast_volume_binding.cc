#include "reference/accel/volume_placeholders/fast_volume_binding.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastVolumeBinding::NewPlain(const PluginArgs& args,
                                                            const Handle& handle) {
  if (handle.level() == CompatLevel::kV1_37)
    return VolumeBindingV1_37Placeholder::New(args, handle);
  return VolumeBinding::New(args, handle);
}

Result<std::unique_ptr<Plugin>> FastVolumeBinding::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NewPlain(args, handle);
  if (!plain.ok()) return plain.error();
  if (handle.level() == CompatLevel::kV1_37) {
    return std::unique_ptr<Plugin>(
        std::make_unique<FastVolumeBindingOf<VolumeBindingV1_37Placeholder>>());
  }
  return std::unique_ptr<Plugin>(std::make_unique<FastVolumeBindingOf<VolumeBinding>>(handle));
}

}  // namespace schedcheck::reference
