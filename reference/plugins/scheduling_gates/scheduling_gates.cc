#include "reference/plugins/scheduling_gates/scheduling_gates.h"

#include <string>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> SchedulingGates::New(const PluginArgs& args,
                                                     [[maybe_unused]] const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"SchedulingGates takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<SchedulingGates>());
}

Status SchedulingGates::PreEnqueue(const Pod& pod) {
  const auto& gates = pod.obj.spec().scheduling_gates();
  if (gates.empty()) return Status();
  // fmt.Sprintf("%v", []string{...}) prints "[a b c]".
  std::string list = "[";
  for (int i = 0; i < gates.size(); ++i) {
    if (i > 0) list += " ";
    list += gates[i].name();
  }
  list += "]";
  return Status(Code::kUnschedulableAndUnresolvable, "waiting for scheduling gates: " + list);
}

std::vector<ClusterEvent> SchedulingGates::EventsToRegister() const {
  return {{std::string(resource::kPod), action::kUpdate, ""}};
}

std::vector<ClusterEventWithHint> SchedulingGates::EventsToRegisterWithHints() const {
  // isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated.
  auto gates_eliminated = [](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    return QueueingHint::kQueue;
  };
  return {{{std::string(resource::kTargetPod), action::kUpdatePodSchedulingGatesEliminated, ""},
           gates_eliminated}};
}

}  // namespace schedcheck::reference
