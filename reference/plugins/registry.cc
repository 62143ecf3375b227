#include "reference/plugins/registry.h"

#include <cstdio>
#include <cstdlib>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "reference/plugins/image_locality/image_locality.h"
#include "reference/plugins/node_ports/node_ports.h"
#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"
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
  Add(r, "NodeResourcesFit", &NodeResourcesFit::New);
  Add(r, "NodeResourcesBalancedAllocation", &NodeResourcesBalancedAllocation::New);
  Add(r, "NodePorts", &NodePorts::New);
  Add(r, "ImageLocality", &ImageLocality::New);
  // @register (one line per plugin: Add(r, "Name", Factory);)
  return r;
}

}  // namespace

const Registry& PluginRegistry() {
  static const Registry registry = Build();
  return registry;
}

}  // namespace schedcheck::reference
