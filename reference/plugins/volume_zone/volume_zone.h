// VolumeZone (volumezone/volume_zone.go): a pod whose bound PersistentVolumes carry zone or
// region labels fits only nodes with matching labels.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_ZONE_VOLUME_ZONE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_ZONE_VOLUME_ZONE_H_

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class VolumeZone final : public PreFilterPlugin,
                         public FilterPlugin,
                         public EnqueueExtensions,
                         public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "VolumeZone";
  static constexpr std::string_view kStateKey = "PreFilterVolumeZone";
  static constexpr std::string_view kErrReasonConflict = "node(s) had no available volume zone";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  explicit VolumeZone(const Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return kName; }
  // The zone and region labels of the pod's bound PVs; Skip when there are none (unbound
  // WaitForFirstConsumer claims are left to VolumeBinding). UnschedulableAndUnresolvable for a
  // claim without a name, a missing claim / PV / class, an unbound claim of an Immediate class.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // A node with any topology label must carry each PV label with one of its values (v1.37 also
  // accepts the GA label for a beta PV label).
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // StorageClass: Add; Node: Add | UpdateNodeLabel; PVC: Add; PV: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: StorageClass Add (WaitForFirstConsumer ones), Node Add | UpdateNodeLabel, PVC
  // Add | Update (the pod's claims), PV Add | Update (a new PV, or changed topology labels).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  struct PvTopology {
    std::string pv_name;
    std::string key;
    std::set<std::string> values;
  };

 private:
  // getPVbyPod: the topologies, or the status that rejects the pod.
  Status PvTopologies(const Pod& pod, std::vector<PvTopology>* out) const;

  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_ZONE_VOLUME_ZONE_H_
