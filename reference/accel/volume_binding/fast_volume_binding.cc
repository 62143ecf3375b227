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
  // The plain plugin holds the configured arguments; the fast one takes them over.
  const auto& checked = dynamic_cast<const VolumeBinding&>(**plain);
  if (handle.features.volume_binding_pre_score) {
    auto fast = std::make_unique<FastVolumeBindingOf<VolumeBindingV1_37>>(handle);
    fast->CopyArgsFrom(checked);
    return std::unique_ptr<Plugin>(std::move(fast));
  }
  auto fast = std::make_unique<FastVolumeBindingOf<VolumeBinding>>(handle);
  fast->CopyArgsFrom(checked);
  return std::unique_ptr<Plugin>(std::move(fast));
}

}  // namespace schedcheck::reference
