// NodeName for the fast engine: the plain rule (plugins/node_name) with a batch Filter that
// passes every existing node at once when the pod names no node, and rejections that share one
// status instead of allocating one per node.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/node_name/node_name.h"

namespace schedcheck::reference {

class FastNodeName final : public NodeName, public BatchFilterPlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_NAME_FAST_NODE_NAME_H_
