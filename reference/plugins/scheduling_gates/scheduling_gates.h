// SchedulingGates (schedulinggates/scheduling_gates.go, default from v1.27 with
// PodSchedulingReadiness on): keeps a pod out of activeQ while spec.schedulingGates is non-empty.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_SCHEDULING_GATES_SCHEDULING_GATES_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_SCHEDULING_GATES_SCHEDULING_GATES_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class SchedulingGates final : public PreEnqueuePlugin,
                              public EnqueueExtensions,
                              public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "SchedulingGates";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Success without gates; otherwise UnschedulableAndUnresolvable
  // "waiting for scheduling gates: [g1 g2]" (Go's %v of the gate names).
  Status PreEnqueue(const Pod& pod) override;
  // Pod/Update: a pod update may remove the gates.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: TargetPod UpdatePodSchedulingGatesEliminated, whose hint always answers Queue.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_SCHEDULING_GATES_SCHEDULING_GATES_H_
