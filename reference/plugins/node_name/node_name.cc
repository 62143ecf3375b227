#include "reference/plugins/node_name/node_name.h"

#include <string>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> NodeName::New(const PluginArgs& args, const Handle& handle) {
  (void)handle;
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodeName takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeName>());
}

bool NodeName::Fits(const Pod& pod, const NodeInfo& node) {
  return pod.node_name().empty() || pod.node_name() == node.node()->name();
}

Status NodeName::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  (void)state;
  if (node.node() == nullptr) return Status::Error("node not found");
  if (!Fits(pod, node)) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReason>();
  }
  return Status();
}

std::vector<ClusterEvent> NodeName::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

void NodeName::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                           std::vector<BatchRejection>* rejected) {
  // A pod without spec.nodeName fits every node that exists.
  const bool any_node = pod.node_name().empty();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (any_node && nodes[i]->node() != nullptr) continue;
    Status s = Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

}  // namespace schedcheck::reference
