#include "reference/accel/node_name/fast_node_name.h"

#include <utility>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastNodeName::New(const PluginArgs& args, const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NodeName::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastNodeName>());
}

Status FastNodeName::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  if (node.node() != nullptr && !Fits(pod, node)) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReason>();
  }
  return NodeName::Filter(state, pod, node);
}

void FastNodeName::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
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
