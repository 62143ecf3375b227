#include "reference/plugins/gang_scheduling/gang_scheduling.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> GangScheduling::New(const PluginArgs& args, const Handle& handle) {
  if (!handle.features.gang_scheduling_plugin) {
    return Error{"GangScheduling does not exist at compat 1.27 (new in v1.35)"};
  }
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"GangScheduling takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<GangScheduling>());
}

Status GangScheduling::PreEnqueue([[maybe_unused]] const Pod& pod) { return Status(); }

Status GangScheduling::Permit([[maybe_unused]] CycleState& state, [[maybe_unused]] const Pod& pod,
                              [[maybe_unused]] const std::string& node, int64_t* timeout_ns) {
  *timeout_ns = 0;
  return Status();
}

std::vector<ClusterEventWithHint> GangScheduling::EventsToRegisterWithHints() const {
  // isSchedulableAfterPodAdded, isSchedulableAfterPodGroupAdded and
  // isSchedulableAfterPodGroupUpdated each answer QueueSkip first thing when the queued pod has
  // no spec.schedulingGroup.
  auto no_scheduling_group = [](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    return QueueingHint::kQueueSkip;
  };
  const std::string unscheduled(resource::kUnscheduledPod);
  const std::string assigned(resource::kAssignedPod);
  const std::string pod_group(resource::kPodGroup);
  return {{{unscheduled, action::kAdd, ""}, no_scheduling_group},
          {{assigned, action::kAdd, ""}, no_scheduling_group},
          {{pod_group, action::kAdd, ""}, no_scheduling_group},
          {{pod_group, action::kUpdateV1_37, ""}, no_scheduling_group}};
}

}  // namespace schedcheck::reference
