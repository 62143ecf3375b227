// VolumeRestrictions (volumerestrictions/volume_restrictions.go): inline disks that cannot be
// mounted twice on one node (GCE PD, AWS EBS, iSCSI, RBD), and ReadWriteOncePod claims already in
// use by another pod anywhere in the cluster.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_RESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_RESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class VolumeRestrictions : public PreFilterPlugin,
                           public FilterPlugin,
                           public EnqueueExtensions,
                           public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "VolumeRestrictions";
  static constexpr std::string_view kStateKey = "PreFilterVolumeRestrictions";
  static constexpr std::string_view kErrReasonDiskConflict = "node(s) had no available disk";
  static constexpr std::string_view kErrReasonReadWriteOncePodConflict =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access "
      "mode";
  static constexpr std::string_view kErrReasonReadWriteOncePodConflictV1_37 =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already "
      "in-use by another pod";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  explicit VolumeRestrictions(const Handle& handle) : handle_(handle) {}
  std::string_view Name() const override { return kName; }
  // The pod's ReadWriteOncePod claims and how many of them some scheduled pod already uses.
  // UnschedulableAndUnresolvable when a claim is missing. v1.27 always returns Success; v1.37
  // returns Skip when the pod has no inline disk to check and no conflicting claim.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Preemption's dry runs: a pod added or removed on the node changes the conflict count by the
  // number of its claim volumes that name one of the pod's ReadWriteOncePod claims.
  Status AddPod(CycleState& state, const Pod& pod, const PodInfo& to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod, const PodInfo& to_remove,
                   const NodeInfo& node) override;
  // Unschedulable kErrReasonDiskConflict when an inline disk conflicts with one of the node's
  // pods; Unschedulable kErrReasonReadWriteOncePodConflict when a ReadWriteOncePod claim is in
  // use; Error without the PreFilter state.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Pod: Delete; Node: Add; PVC: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: AssignedPod Delete (a pod with a conflicting disk or one of the pod's claims), Node
  // Add, PVC Add (one of the pod's claims).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // isVolumeConflict: `volume` (of the pod being scheduled) cannot share a node with `existing`.
  static bool IsVolumeConflict(const k8s::Volume& volume, const Pod& existing);
  // needsRestrictionsCheck: an inline disk that isVolumeConflict compares (GCE PD, AWS EBS, RBD,
  // iSCSI). Without one, Filter reads only the PreFilter state: every node gets the same status.
  static bool NeedsRestrictionsCheck(const k8s::Volume& volume);

 private:
  Status UpdateWithPod(CycleState& state, const PodInfo& pod, int multiplier) const;

  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_VOLUME_RESTRICTIONS_VOLUME_RESTRICTIONS_H_
