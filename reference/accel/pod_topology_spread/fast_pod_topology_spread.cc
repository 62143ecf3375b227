#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"

#include <utility>

namespace schedcheck::reference {

using pod_topology_spread::fast::FastConstraint;

Result<std::unique_ptr<Plugin>> FastPodTopologySpread::New(const PluginArgs& json,
                                                           const Handle& handle) {
  Result<PodTopologySpreadArgs> args = ParsePodTopologySpreadArgs(json);
  if (!args.ok()) return args.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastPodTopologySpread>(std::move(*args), handle));
}

FastPodTopologySpread::FastPodTopologySpread(PodTopologySpreadArgs args, const Handle& handle)
    : plain_(std::move(args), handle),
      handle_(handle),
      per_constraint_(handle.features.spread_counts_per_constraint),
      skip_(handle.features.skip_when_nothing_to_do) {}

Result<std::vector<FastConstraint>> FastPodTopologySpread::GetConstraints(
    const Pod& pod, std::string_view action) const {
  const auto& own = pod.obj.spec().topology_spread_constraints();
  if (!own.empty()) {
    auto constraints = pod_topology_spread::FilterTopologySpreadConstraints(
        own, pod.labels(), action, handle_.features.match_label_keys_in_pod_topology_spread);
    if (!constraints.ok()) return constraints.error();
    return pod_topology_spread::fast::Compile(std::move(*constraints));
  }
  // No object that could select the pod: the default selector would be empty, so no default
  // constraint applies (decided here only to save building them).
  const ClusterObjects* objects = handle_.objects;
  if (objects == nullptr ||
      (objects->services.empty() && objects->replication_controllers.empty() &&
       objects->replica_sets.empty() && objects->stateful_sets.empty())) {
    return std::vector<FastConstraint>{};
  }
  auto constraints = plain_.BuildDefaultConstraints(pod, action);
  if (!constraints.ok()) return constraints.error();
  return pod_topology_spread::fast::Compile(std::move(*constraints));
}

}  // namespace schedcheck::reference
