#include "reference/dra/device_taint_rules.h"

namespace schedcheck::reference::dra {

k8s::ResourceSlice ApplyDeviceTaintRules(const k8s::ResourceSlice& slice,
                                         const DeviceTaintRules& rules) {
  k8s::ResourceSlice patched = slice;
  for (const auto& [name, rule] : rules) {
    if (!rule.spec().has_device_selector()) continue;  // no selector matches no devices
    const k8s::DeviceTaintSelector& selector = rule.spec().device_selector();
    if (selector.has_driver() && selector.driver() != slice.spec().driver()) continue;
    if (selector.has_pool() && selector.pool() != slice.spec().pool().name()) continue;
    for (k8s::Device& device : *patched.mutable_spec()->mutable_devices()) {
      if (selector.has_device() && selector.device() != device.name()) continue;
      *device.add_taints() = rule.spec().taint();
    }
  }
  return patched;
}

namespace {

bool SameTaint(const k8s::DeviceTaint& a, const k8s::DeviceTaint& b) {
  return a.key() == b.key() && a.effect() == b.effect() && a.value() == b.value() &&
         a.time_added() == b.time_added();
}

}  // namespace

bool TaintsDiffer(const k8s::ResourceSlice& a, const k8s::ResourceSlice& b) {
  if (a.spec().devices_size() != b.spec().devices_size()) return true;
  for (int i = 0; i < a.spec().devices_size(); ++i) {
    const auto& ta = a.spec().devices(i).taints();
    const auto& tb = b.spec().devices(i).taints();
    if (ta.size() != tb.size()) return true;
    for (int j = 0; j < ta.size(); ++j) {
      if (!SameTaint(ta[j], tb[j])) return true;
    }
  }
  return false;
}

}  // namespace schedcheck::reference::dra
