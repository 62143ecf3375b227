#include "reference/plugins/node_ports/node_ports.h"

#include <algorithm>
#include <string>
#include <utility>

namespace schedcheck::reference {
namespace {

// The pod's container ports (every containers[*].ports entry, hostPort 0 included: the conflict
// check ignores those).
class PreFilterState final : public StateData {
 public:
  explicit PreFilterState(std::vector<HostPort> ports) : ports(std::move(ports)) {}
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  std::vector<HostPort> ports;
};

}  // namespace

bool FitsPorts(const std::vector<HostPort>& want, const NodeInfo& node) {
  for (const HostPort& port : want) {
    if (node.used_ports().CheckConflict(port)) return false;
  }
  return true;
}

bool FitsPorts(const Pod& pod, const NodeInfo& node) {
  return FitsPorts(pod.container_ports, node);
}

Result<std::unique_ptr<Plugin>> NodePorts::New(const PluginArgs& args, const Handle& handle) {
  (void)handle;
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodePorts: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodePorts>());
}

Status NodePorts::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  (void)result;
  state.Write(std::string(kPreFilterStateKey),
              std::make_unique<PreFilterState>(pod.container_ports));
  return Status();
}

Status NodePorts::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  (void)pod;
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  if (!FitsPorts(s->ports, node)) return ConstantStatus<Code::kUnschedulable, kErrReason>();
  return Status();
}

std::vector<ClusterEvent> NodePorts::EventsToRegister() const {
  // Container ports are immutable, so pod updates cannot free a port.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

void NodePorts::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                            std::vector<BatchRejection>* rejected) {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    FilterEachNode(*this, state, pod, nodes, rejected);  // the per-node error
    return;
  }
  // Only host ports (> 0) can conflict, and only on nodes where some pod uses one.
  const bool claims_host_port =
      std::any_of(s->ports.begin(), s->ports.end(), [](const HostPort& p) { return p.port > 0; });
  if (!claims_host_port) return;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->used_ports().empty() || FitsPorts(s->ports, *nodes[i])) continue;
    rejected->push_back({static_cast<uint32_t>(i), ConstantStatus<Code::kUnschedulable, kErrReason>()});
  }
}

}  // namespace schedcheck::reference
