#include "reference/plugins/node_ports/node_ports.h"

#include <string>

namespace schedcheck::reference {
namespace {

// isSchedulableAfterAssignedPodDeleted: Queue only when the deleted pod was bound or nominated
// somewhere and held a host port that conflicts with one the rejected pod wants. Both pods are
// built at v1.37, so container_ports are GetHostPorts (entries with a hostPort only).
Result<QueueingHint> IsSchedulableAfterAssignedPodDeleted(const Pod& pod, const EventObjects& e) {
  const Pod& deleted = *e.old_pod;
  if (deleted.node_name().empty() && deleted.obj.status().nominated_node_name().empty()) {
    return QueueingHint::kQueueSkip;
  }
  if (deleted.container_ports.empty()) return QueueingHint::kQueueSkip;
  HostPortInfo ports_in_use;
  for (const HostPort& port : deleted.container_ports) ports_in_use.Add(port);
  for (const HostPort& want : pod.container_ports) {
    if (ports_in_use.CheckConflict(want)) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

Result<std::unique_ptr<Plugin>> NodePorts::New(const PluginArgs& args, const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodePorts: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodePorts>(handle.features));
}

std::vector<ClusterEventWithHint> NodePorts::EventsToRegisterWithHints() const {
  return {
      {{std::string(resource::kAssignedPod), action::kDelete, ""},
       IsSchedulableAfterAssignedPodDeleted},
      {{std::string(resource::kNode), action::kAdd, ""}, nullptr},
  };
}

Status NodePorts::PreFilter(CycleState& state, const Pod& pod,
                            [[maybe_unused]] PreFilterResult* result) {
  // Skip if a pod has no ports.
  if (features_.skip_when_nothing_to_do && pod.container_ports.empty()) return Status(Code::kSkip);
  state.Write(std::string(kPreFilterStateKey),
              std::make_unique<PreFilterState>(pod.container_ports));
  return Status();
}

std::vector<ClusterEvent> NodePorts::EventsToRegister() const {
  // Container ports are immutable, so pod updates cannot free a port.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

Status NodePorts::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                         const NodeInfo& node) {
  const auto* want_ports = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (want_ports == nullptr) {
    return Status::Error("reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  if (!FitsPorts(want_ports->ports, node))
    return Status(Code::kUnschedulable, std::string(kErrReason));
  return Status();
}

bool FitsPorts(const Pod& pod, const NodeInfo& node) {
  return FitsPorts(pod.container_ports, node);
}

bool FitsPorts(const std::vector<HostPort>& want, const NodeInfo& node) {
  for (const HostPort& port : want) {
    if (node.used_ports().CheckConflict(port)) return false;
  }
  return true;
}

}  // namespace schedcheck::reference
