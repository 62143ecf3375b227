#include "reference/plugins/registry.h"

#include <cstdio>
#include <cstdlib>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
// @includes (one line per plugin header, kept sorted)

namespace schedcheck::reference {
namespace {

void Add(Registry& registry, std::string name, PluginFactory factory) {
  Outcome ok = registry.Register(std::move(name), std::move(factory));
  if (!ok.ok()) {
    std::fprintf(stderr, "%s\n", ok.message().c_str());
    std::abort();
  }
}

Registry Build() {
  Registry r;
  Add(r, "PodTopologySpread", &PodTopologySpread::New);
  Add(r, "InterPodAffinity", &InterPodAffinity::New);
  // @register (one line per plugin: Add(r, "Name", Factory);)
  return r;
}

}  // namespace

const Registry& PluginRegistry() {
  static const Registry registry = Build();
  return registry;
}

}  // namespace schedcheck::reference
