#include "reference/accel/registry.h"

#include <cstdio>
#include <cstdlib>

#include "reference/accel/default_preemption/fast_default_preemption.h"
#include "reference/accel/image_locality/fast_image_locality.h"
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"
#include "reference/accel/node_affinity/fast_node_affinity.h"
#include "reference/accel/node_name/fast_node_name.h"
#include "reference/accel/node_ports/fast_node_ports.h"
#include "reference/accel/node_resources_balanced_allocation/fast_node_resources_balanced_allocation.h"
#include "reference/accel/node_resources_fit/fast_node_resources_fit.h"
#include "reference/accel/node_unschedulable/fast_node_unschedulable.h"
#include "reference/accel/node_volume_limits/fast_node_volume_limits.h"
#include "reference/accel/node_volume_limits/fast_non_csi_limits.h"
#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"
#include "reference/accel/taint_toleration/fast_taint_toleration.h"
#include "reference/accel/volume_binding/fast_volume_binding.h"
#include "reference/accel/volume_restrictions/fast_volume_restrictions.h"
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
  Accelerate(r, "NodeResourcesFit", &FastNodeResourcesFit::New);
  Accelerate(r, "NodeResourcesBalancedAllocation", &FastNodeResourcesBalancedAllocation::New);
  Accelerate(r, "NodeName", &FastNodeName::New);
  Accelerate(r, "NodeUnschedulable", &FastNodeUnschedulable::New);
  Accelerate(r, "NodePorts", &FastNodePorts::New);
  Accelerate(r, "ImageLocality", &FastImageLocality::New);
  Accelerate(r, "TaintToleration", &FastTaintToleration::New);
  Accelerate(r, "NodeAffinity", &FastNodeAffinity::New);
  Accelerate(r, "VolumeBinding", &FastVolumeBinding::New);
  Accelerate(r, "InterPodAffinity", &FastInterPodAffinity::New);
  Accelerate(r, "DefaultPreemption", &FastDefaultPreemption::New);
  Accelerate(r, "PodTopologySpread", &FastPodTopologySpread::New);
  Accelerate(r, "NodeVolumeLimits", &FastNodeVolumeLimits::New);
  Accelerate(r, "EBSLimits", &FastNonCSILimitsOf<EBSLimits>::New);
  Accelerate(r, "GCEPDLimits", &FastNonCSILimitsOf<GCEPDLimits>::New);
  Accelerate(r, "AzureDiskLimits", &FastNonCSILimitsOf<AzureDiskLimits>::New);
  Accelerate(r, "VolumeRestrictions", &FastVolumeRestrictions::New);
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
