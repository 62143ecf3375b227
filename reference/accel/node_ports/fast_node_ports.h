// NodePorts for the fast engine: the plain rule (plugins/node_ports) with a batch Filter that
// passes every node at once when the pod claims no host port, looks only at nodes where some pod
// holds one, and shares one status among its rejections.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_PORTS_FAST_NODE_PORTS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_PORTS_FAST_NODE_PORTS_H_

#include <memory>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/node_ports/node_ports.h"

namespace schedcheck::reference {

class FastNodePorts final : public NodePorts, public BatchFilterPlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit FastNodePorts(const Features& features) : NodePorts(features) {}

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_PORTS_FAST_NODE_PORTS_H_
