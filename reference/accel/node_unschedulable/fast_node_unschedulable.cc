#include "reference/accel/node_unschedulable/fast_node_unschedulable.h"

#include <utility>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastNodeUnschedulable::New(const PluginArgs& args,
                                                           const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NodeUnschedulable::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastNodeUnschedulable>());
}

Status FastNodeUnschedulable::Filter(const CycleState& state, const Pod& pod,
                                     const NodeInfo& node) {
  if (node.node() != nullptr && !node.unschedulable()) return Status();
  return NodeUnschedulable::Filter(state, pod, node);
}

void FastNodeUnschedulable::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                        std::vector<BatchRejection>* rejected) {
  // Only nodes marked unschedulable (or without a node) can be rejected; NodeInfo keeps the flag
  // next to the node's name, so most nodes are passed without reading their Node object.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfoHead(nodes[i + kPrefetchAhead]);
    if (nodes[i]->node() != nullptr && !nodes[i]->unschedulable()) continue;
    Status s = NodeUnschedulable::Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

}  // namespace schedcheck::reference
