// Placeholders for the v1.27 volume plugins: VolumeRestrictions, EBSLimits, GCEPDLimits,
// NodeVolumeLimits, AzureDiskLimits, VolumeBinding and VolumeZone. Each is registered under its
// upstream name with upstream's extension points and EventsToRegister, and behaves as v1.27 does
// for pods without PersistentVolumeClaim volumes. A pod WITH such volumes is rejected in PreFilter
// with UnschedulableAndUnresolvable "volume plugins are not modelled by schedcheck" (a deliberate
// deviation, see README.md): PVs, PVCs, StorageClasses and CSINodes are not part of our model.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

inline constexpr std::string_view kVolumesNotModelled =
    "volume plugins are not modelled by schedcheck";

// True when the pod has a volume backed by a PersistentVolumeClaim.
bool PodHasPersistentVolumeClaims(const Pod& pod);

// The PreFilter shared by the placeholders: UAU kVolumesNotModelled for pods with PVC volumes,
// otherwise Skip (what every v1.27 volume PreFilter returns for a pod with no volumes it handles).
Status VolumePlaceholderPreFilter(const Pod& pod);

// PreFilter (Skip; its RWOP state has AddPod/RemovePod upstream), Filter (Success: the disk
// conflict checks need GCE PD / EBS / iSCSI / RBD inline volumes, which we do not model).
class VolumeRestrictions final : public PreFilterPlugin,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeRestrictions";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Pod: Delete; Node: Add; PersistentVolumeClaim: Add | Update.
  std::vector<ClusterEvent> EventsToRegister() const override;
};

// The in-tree (non-CSI) attach limits: EBSLimits, GCEPDLimits, AzureDiskLimits. PreFilter (Skip),
// Filter (Success: a pod without volumes never exceeds a limit).
class NonCSILimits : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Node: Add; Pod: Delete.
  std::vector<ClusterEvent> EventsToRegister() const override;
};

class EBSLimits final : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "EBSLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
};

class GCEPDLimits final : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "GCEPDLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
};

class AzureDiskLimits final : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "AzureDiskLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
};

// CSI attach limits (upstream CSILimits). PreFilter (Skip), Filter (Success).
class NodeVolumeLimits final : public PreFilterPlugin,
                               public FilterPlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeVolumeLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // storage.k8s.io/CSINode: Add; Pod: Delete.
  std::vector<ClusterEvent> EventsToRegister() const override;
};

// VolumeBinding: PreFilter (Skip after writing an empty state), Filter, Score (0: the
// VolumeCapacityPriority gate is off in v1.27; no NormalizeScore), Reserve/Unreserve, PreBind.
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
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Error "not found" without the PreFilter state, as upstream; Success otherwise.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  // Success with "all bound" (nothing to bind); Error "not found" without the PreFilter state.
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override;
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override;
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override;
  // StorageClass, PVC, PV, CSINode, CSIDriver, CSIStorageCapacity: Add | Update;
  // Node: Add | UpdateNodeLabel.
  std::vector<ClusterEvent> EventsToRegister() const override;
};

// VolumeZone: PreFilter (Skip: no bound PV topologies), Filter (Success without volumes).
class VolumeZone final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeZone";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // StorageClass: Add; Node: Add | UpdateNodeLabel; PVC: Add; PV: Add | Update.
  std::vector<ClusterEvent> EventsToRegister() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_PLACEHOLDERS_VOLUME_PLACEHOLDERS_H_
