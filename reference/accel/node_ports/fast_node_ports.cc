#include "reference/accel/node_ports/fast_node_ports.h"

#include <algorithm>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastNodePorts::New(const PluginArgs& args, const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NodePorts::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastNodePorts>(handle.features));
}

Status FastNodePorts::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return NodePorts::Filter(state, pod, node);  // the plain error
  if (!FitsPorts(s->ports, node)) return ConstantStatus<Code::kUnschedulable, kErrReason>();
  return Status();
}

void FastNodePorts::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
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
    rejected->push_back(
        {static_cast<uint32_t>(i), ConstantStatus<Code::kUnschedulable, kErrReason>()});
  }
}

}  // namespace schedcheck::reference
