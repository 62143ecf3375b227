// The attach-limit plugins of v1.27 (nodevolumelimits/csi.go and non_csi.go): a node attaches
// at most so many volumes of one CSI driver (NodeVolumeLimits, limits from the CSINode and the
// node's attachable-volumes-* allocatable) or of one in-tree kind (EBSLimits, GCEPDLimits,
// AzureDiskLimits, limits from the allocatable or upstream's defaults). Each has only a Filter at
// v1.27. At v1.37 only NodeVolumeLimits is left (NodeVolumeLimitsV1_37): limits come from the
// CSINode alone, a PreFilter skips pods without attachable volumes, VolumeLimitScaling keeps pods
// off nodes missing an opted-in driver, and it has queueing hints. VolumeAttachments are counted
// upstream but schedcheck's objects have none (docs/DEVIATIONS.md).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_NODE_VOLUME_LIMITS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_NODE_VOLUME_LIMITS_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

inline constexpr std::string_view kErrReasonMaxVolumeCountExceeded =
    "node(s) exceed max volume count";

// CSILimits, registered as NodeVolumeLimits.
class NodeVolumeLimits : public FilterPlugin,
                         public EnqueueExtensions,
                         public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeVolumeLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  explicit NodeVolumeLimits(const Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return kName; }
  // Unschedulable kErrReasonMaxVolumeCountExceeded when the pod's new volumes of one driver,
  // with those the node's pods already use, exceed the driver's limit; Error when a claim of
  // the pod is missing or an ephemeral claim is not the pod's.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // storage.k8s.io/CSINode: Add; Pod: Delete.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: CSINode Add (no hint) and Update, AssignedPod Delete, PVC Add, VolumeAttachment Delete.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // GetCSIAttachLimitKey: "attachable-volumes-csi-<driver>".
  static std::string AttachLimitKey(std::string_view driver);

 protected:
  // The CSINode alone gives the limits, keyed by driver (the in-tree limit plugins are gone).
  bool csi_node_only() const { return handle_.features.volume_limits_from_csi_node_only; }
  // filterAttachableVolumes: unique volume name ("driver/handle") -> limit key (v1.27) or
  // driver (v1.37). A missing claim of the new pod is a NotFound error (`*not_found` set).
  Status AttachableVolumes(const Pod& pod, const k8s::CSINode* csi_node, bool new_pod,
                           std::map<std::string, std::string>* out,
                           bool* not_found = nullptr) const;
  // checkCSIDriverOnNode (VolumeLimitScaling): false when the driver opted in with
  // preventPodSchedulingIfMissing and the node's CSINode does not list it.
  bool DriverInstalledOnNode(const std::string& driver, const k8s::CSINode* csi_node) const;
  // getVolumeLimits: limit key (v1.27) or driver (v1.37) -> how many volumes the node attaches.
  std::map<std::string, int64_t> VolumeLimits(const NodeInfo& node,
                                              const k8s::CSINode* csi_node) const;

  const Handle& handle_;
};

// NodeVolumeLimits at v1.37, with its PreFilter.
class NodeVolumeLimitsV1_37 : public NodeVolumeLimits, public PreFilterPlugin {
 public:
  using NodeVolumeLimits::NodeVolumeLimits;
  // Skip unless the pod has a claim, ephemeral or migratable in-tree volume.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
};

// nonCSILimits: one in-tree volume kind.
class NonCSILimits : public FilterPlugin, public EnqueueExtensions {
 public:
  enum class Kind { kEbs, kGcePd, kAzureDisk };
  NonCSILimits(const Handle& handle, Kind kind) : handle_(handle), kind_(kind) {}
  // Unschedulable kErrReasonMaxVolumeCountExceeded when the node's volumes of this kind and the
  // pod's new ones exceed the limit; Success when the node's CSINode says the kind migrated.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Node: Add; Pod: Delete.
  std::vector<ClusterEvent> EventsToRegister() const override;

 protected:
  Status FilterVolumes(const Pod& pod, bool new_pod, std::set<std::string>* out) const;
  // The in-tree plugin of this kind ("kubernetes.io/aws-ebs", ...).
  std::string_view InTreePlugin() const;
  // The most volumes of this kind the node attaches: its attachable-volumes-* allocatable, else
  // upstream's default for the kind (and the node's instance type).
  int64_t MaxVolumesOn(const NodeInfo& node) const;

 private:
  // The volume ID of this kind of an inline volume or PV source; "" when it is another kind.
  bool VolumeId(const k8s::Volume& volume, std::string* id) const;
  bool VolumeId(const k8s::PersistentVolume& pv, std::string* id) const;
  bool MatchProvisioner(const k8s::PersistentVolumeClaim& claim) const;
  int MaxVolumes(const Node& node) const;

 protected:
  const Handle& handle_;

 private:
  Kind kind_;
};

class EBSLimits : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "EBSLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit EBSLimits(const Handle& handle) : NonCSILimits(handle, Kind::kEbs) {}
  std::string_view Name() const override { return kName; }
};

class GCEPDLimits : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "GCEPDLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit GCEPDLimits(const Handle& handle) : NonCSILimits(handle, Kind::kGcePd) {}
  std::string_view Name() const override { return kName; }
};

class AzureDiskLimits : public NonCSILimits {
 public:
  static constexpr std::string_view kName = "AzureDiskLimits";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit AzureDiskLimits(const Handle& handle) : NonCSILimits(handle, Kind::kAzureDisk) {}
  std::string_view Name() const override { return kName; }
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_NODE_VOLUME_LIMITS_H_
