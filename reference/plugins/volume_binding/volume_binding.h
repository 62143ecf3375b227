// VolumeBinding (volumebinding/volume_binding.go, v1.27): a pod's PersistentVolumeClaims decide
// where it can run — bound claims by their PVs' node affinity, unbound WaitForFirstConsumer claims
// by the PVs a node could bind or the classes that can provision there. Reserve assumes the
// bindings; PreBind writes them (the PV controller model is not part of the reference yet, see
// docs/DEVIATIONS.md).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/plugins/volume_binding/binder.h"

namespace schedcheck::reference {

class VolumeBinding : public PreFilterPlugin,
                      public FilterPlugin,
                      public ScorePlugin,
                      public ReservePlugin,
                      public PreBindPlugin,
                      public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeBinding";
  static constexpr std::string_view kStateKey = "VolumeBinding";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  explicit VolumeBinding(const Handle& handle) : handle_(handle), binder_(handle, &cache_) {}
  std::string_view Name() const override { return kName; }
  // Skip (after writing an empty state) for a pod without claim or ephemeral volumes;
  // UnschedulableAndUnresolvable for a missing, lost or terminating claim, an ephemeral claim
  // not yet created or not the pod's, or an unbound Immediate claim; narrows the nodes to those
  // the bound PVs name by hostname.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // UnschedulableAndUnresolvable with FindPodVolumes' reasons; keeps the node's PodVolumes.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // 0: v1.27 scores only with the VolumeCapacityPriority alpha gate.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override;
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override;
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override;
  // StorageClass, PVC, PV, CSINode, CSIDriver, CSIStorageCapacity: Add | Update;
  // Node: Add | UpdateNodeLabel.
  std::vector<ClusterEvent> EventsToRegister() const override;

 private:
  const Handle& handle_;
  volume_binding::AssumeCache cache_;
  volume_binding::Binder binder_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_BINDING_VOLUME_BINDING_H_
