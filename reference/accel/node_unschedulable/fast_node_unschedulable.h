// NodeUnschedulable for the fast engine: the plain rule (plugins/node_unschedulable) with a
// Filter that only looks at the nodes marked unschedulable, node by node and in batches.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_UNSCHEDULABLE_FAST_NODE_UNSCHEDULABLE_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_UNSCHEDULABLE_FAST_NODE_UNSCHEDULABLE_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/node_unschedulable/node_unschedulable.h"

namespace schedcheck::reference {

class FastNodeUnschedulable final : public NodeUnschedulable, public BatchFilterPlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  // Passes a schedulable node without building the taint the plain rule checks tolerations of.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_UNSCHEDULABLE_FAST_NODE_UNSCHEDULABLE_H_
