// GangScheduling (gangscheduling/gangscheduling.go at v1.37.2): all-or-nothing scheduling of the
// pods of a PodGroup with a gang policy. v1.37 adds it to the default profile when the
// GenericWorkload gate (beta, off by default) is on.
//
// Every rule starts from the pod's spec.schedulingGroup; a pod without one is admitted by
// PreEnqueue and Permit, and each queueing hint answers QueueSkip for it, as upstream's first
// line of each does. For a member of a gang (minCount from the PodGroup's gang policy):
// - PreEnqueue gates it until its PodGroup exists and minCount members are known;
// - Permit makes it wait (5 minutes) until minCount members are assumed or bound, activating the
//   group's unscheduled members; the member that completes the quorum allows every assumed one.
// The pod groups come from the Handle (pod_groups: the cache's PodGroupStates), the waiting pods
// and Activate from Handle::waiting_pods. CompositePodGroup (alpha, off) is not modelled: the
// hierarchy-disabled forms of upstream's functions are the ones here. PlacementFeasible (the
// pod-group scheduling cycle's check) is PlacementFeasible below, for that cycle's callers.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// permitTimeoutDuration: how long gang members wait at Permit for the quorum.
inline constexpr int64_t kGangPermitTimeoutNs = 5LL * 60 * 1'000'000'000;

class GangScheduling final : public PreEnqueuePlugin,
                             public PermitPlugin,
                             public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "GangScheduling";
  // Refuses compat 1.27, where the plugin does not exist, and any arguments.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit GangScheduling(const Handle& handle) : handle_(handle) {}

  std::string_view Name() const override { return kName; }
  // preEnqueueHierarchiesDisabled: UnschedulableAndUnresolvable while the pod's PodGroup is
  // unknown or, for a gang, fewer than minCount members are known.
  Status PreEnqueue(const Pod& pod) override;
  // Permit and permitPodGroup: Wait with kGangPermitTimeoutNs below the quorum, else Success
  // after allowing every assumed member that waits.
  Status Permit(CycleState& state, const Pod& pod, const std::string& node,
                int64_t* timeout_ns) override;
  // UnscheduledPod Add and AssignedPod Add (a pod completing a gang), PodGroup Add and Update.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // PlacementFeasible for a pod group with gang minCount `min_count` (1 without a gang policy)
  // after `scheduled` of its pods were placed and `remaining` are still to try: Unschedulable
  // when minCount can no longer be met, Wait while it may still be, else Success.
  static Status PlacementFeasible(int min_count, int scheduled, int remaining);

 private:
  Result<QueueingHint> IsSchedulableAfterPodAdded(const Pod& pod,
                                                  const EventObjects& objects) const;
  Result<QueueingHint> IsSchedulableAfterPodGroupAdded(const Pod& pod,
                                                       const EventObjects& objects) const;
  Result<QueueingHint> IsSchedulableAfterPodGroupUpdated(const Pod& pod,
                                                         const EventObjects& objects) const;

  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_
