#include "reference/accel/registry.h"

#include <cstdio>
#include <cstdlib>

#include "reference/plugins/registry.h"
// @accel-includes (one line per accelerated plugin header)

namespace schedcheck::reference {
namespace {

// Replaces a plain plugin's factory; aborts when the name is not a plain plugin (a programming
// error: an accelerated plugin always has a plain rule to be equal to).
void Accelerate(Registry& registry, const std::string& name, PluginFactory factory) {
  Outcome ok = registry.Replace(name, std::move(factory));
  if (!ok.ok()) {
    std::fprintf(stderr, "%s\n", ok.message().c_str());
    std::abort();
  }
}

Registry Build() {
  Registry r = PluginRegistry();
  // @accelerate (one line per accelerated plugin: Accelerate(r, "Name", &FastX::New);)
  [[maybe_unused]] auto accelerate = &Accelerate;
  return r;
}

}  // namespace

const Registry& FastPluginRegistry() {
  static const Registry registry = Build();
  return registry;
}

}  // namespace schedcheck::reference
