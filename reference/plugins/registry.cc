#include "reference/plugins/registry.h"

#include <cstdio>
#include <cstdlib>

#include "reference/plugins/creation_delay/creation_delay.h"  // example out-of-tree plugin
#include "reference/plugins/default_binder/default_binder.h"
#include "reference/plugins/default_preemption/default_preemption.h"
#include "reference/plugins/dynamic_resources/dynamic_resources.h"
#include "reference/plugins/gang_scheduling/gang_scheduling.h"
#include "reference/plugins/image_locality/image_locality.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "reference/plugins/node_affinity/node_affinity.h"
#include "reference/plugins/node_declared_features/node_declared_features.h"
#include "reference/plugins/node_name/node_name.h"
#include "reference/plugins/node_ports/node_ports.h"
#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"
#include "reference/plugins/node_unschedulable/node_unschedulable.h"
#include "reference/plugins/node_volume_limits/node_volume_limits.h"
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"
#include "reference/plugins/priority_sort/priority_sort.h"
#include "reference/plugins/scheduling_gates/scheduling_gates.h"
#include "reference/plugins/taint_toleration/taint_toleration.h"
#include "reference/plugins/volume_binding/volume_binding.h"
#include "reference/plugins/volume_restrictions/volume_restrictions.h"
#include "reference/plugins/volume_zone/volume_zone.h"
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
  Add(r, "PrioritySort", &PrioritySort::New);
  Add(r, "SchedulingGates", &SchedulingGates::New);
  Add(r, "NodeUnschedulable", &NodeUnschedulable::New);
  Add(r, "NodeName", &NodeName::New);
  Add(r, "TaintToleration", &TaintToleration::New);
  Add(r, "NodeAffinity", &NodeAffinity::New);
  Add(r, "VolumeRestrictions", &VolumeRestrictions::New);
  Add(r, "EBSLimits", &EBSLimits::New);
  Add(r, "GCEPDLimits", &GCEPDLimits::New);
  Add(r, "NodeVolumeLimits", &NodeVolumeLimits::New);
  Add(r, "AzureDiskLimits", &AzureDiskLimits::New);
  Add(r, "VolumeBinding", &VolumeBinding::New);
  Add(r, "VolumeZone", &VolumeZone::New);
  Add(r, "DefaultBinder", &DefaultBinder::New);
  // v1.37 only (their factories refuse compat 1.27).
  Add(r, "DynamicResources", &DynamicResources::New);
  Add(r, "NodeDeclaredFeatures", &NodeDeclaredFeatures::New);
  Add(r, "GangScheduling", &GangScheduling::New);
  Add(r, "CreationDelay", &CreationDelay::New);  // example out-of-tree plugin
  Add(r, "DefaultPreemption", &DefaultPreemption::New);
  // @register (one line per plugin: Add(r, "Name", Factory);)
  return r;
}

}  // namespace

const Registry& PluginRegistry() {
  static const Registry registry = Build();
  return registry;
}

}  // namespace schedcheck::reference
