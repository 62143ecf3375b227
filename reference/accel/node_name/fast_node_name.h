// NodeName for the fast engine: the plain rule (plugins/node_name) with a batch Filter that
// passes every existing node at once when the pod names no node, and rejections that share one
// status instead of allocating one per node. One form per level: over NodeName (v1.27) and over
// NodeNameV1_37 (whose PreFilter narrows the nodes; its Filter is v1.27's).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/node_name/node_name.h"

namespace schedcheck::reference {

template <class PlainNodeName>
class FastNodeNameOf final : public PlainNodeName, public BatchFilterPlugin {
 public:
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override {
    if (node.node() != nullptr && !NodeName::Fits(pod, node)) {
      return ConstantStatus<Code::kUnschedulableAndUnresolvable, NodeName::kErrReason>();
    }
    return NodeName::Filter(state, pod, node);
  }

  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override {
    // A pod without spec.nodeName fits every node that exists.
    const bool any_node = pod.node_name().empty();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (any_node && nodes[i]->node() != nullptr) continue;
      Status s = Filter(state, pod, *nodes[i]);
      if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
    }
  }
};

struct FastNodeName {
  // FastNodeNameOf<NodeName> at v1.27, FastNodeNameOf<NodeNameV1_37> at v1.37.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_
