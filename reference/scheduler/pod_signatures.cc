#include "reference/scheduler/pod_signatures.h"

#include <set>
#include <string_view>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

// The in-tree plugins of v1.37.2 that implement fwk.SignPlugin.
bool ImplementsSignPlugin(std::string_view name) {
  static const std::set<std::string_view> kSigners = {
      "DynamicResources",
      "ImageLocality",
      "InterPodAffinity",
      "NodeAffinity",
      "NodeDeclaredFeatures",
      "NodeName",
      "NodePorts",
      "NodeResourcesBalancedAllocation",
      "NodeResourcesFit",
      "NodeUnschedulable",
      "NodeVolumeLimits",
      "PodTopologySpread",
      "TaintToleration",
      "VolumeBinding",
      "VolumeRestrictions",
      "VolumeZone",
  };
  return kSigners.count(name) > 0;
}

}  // namespace

std::string PodSignaturesPossibleV1_37(const Framework& fw) {
  for (ExtensionPoint point : {ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,
                               ExtensionPoint::kPreScore, ExtensionPoint::kScore}) {
    for (const std::string& name : fw.PluginNames(point)) {
      if (!ImplementsSignPlugin(name)) return "";  // signatures disabled for the profile
    }
  }
  const auto* spread = dynamic_cast<const SpreadDefaults*>(fw.GetPlugin("PodTopologySpread"));
  if (spread != nullptr && spread->has_default_constraints()) return "";
  return "profile " + fw.scheduler_name() +
         ": every PreFilter, Filter, PreScore and Score plugin can sign pods and " +
         (spread == nullptr ? std::string("PodTopologySpread is not enabled")
                            : std::string("PodTopologySpread has no default constraints")) +
         ", so kube-scheduler v1.37's OpportunisticBatching could reuse scores between pods; "
         "schedcheck does not model it (docs/DEVIATIONS.md)";
}

}  // namespace schedcheck::reference
