// GangScheduling (gangscheduling/gangscheduling.go at v1.37.2): all-or-nothing scheduling of the
// pods of a PodGroup with a gang policy. v1.37 adds it to the default profile when the
// GenericWorkload gate (beta, off by default) is on.
//
// Its every rule starts from the pod's spec.schedulingGroup, and schedcheck's pods have none (pod
// groups are not modelled, docs/DEVIATIONS.md): for such a pod PreEnqueue and Permit admit it and
// each queueing hint answers QueueSkip, exactly as upstream's first line of each does. What the
// plugin still changes is the events it registers: UnscheduledPod Add makes every new pending pod
// an event the queue handles (see the replay's addPodToSchedulingQueue).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class GangScheduling final : public PreEnqueuePlugin,
                             public PermitPlugin,
                             public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "GangScheduling";
  // Refuses compat 1.27, where the plugin does not exist, and any arguments.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Success: a pod outside any pod group is not held back.
  Status PreEnqueue(const Pod& pod) override;
  // Success without waiting, for the same reason.
  Status Permit(CycleState& state, const Pod& pod, const std::string& node,
                int64_t* timeout_ns) override;
  // UnscheduledPod Add and AssignedPod Add (a pod completing a gang), PodGroup Add and Update;
  // every hint is QueueSkip for a pod without a scheduling group.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_GANG_SCHEDULING_GANG_SCHEDULING_H_
