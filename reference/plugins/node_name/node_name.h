// NodeName (nodename/node_name.go): a pod with spec.nodeName fits only the node of that name.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_NAME_NODE_NAME_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_NAME_NODE_NAME_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class NodeName : public FilterPlugin, public EnqueueExtensions, public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeName";
  static constexpr std::string_view kErrReason = "node(s) didn't match the requested node name";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // Error "node not found" without a node; UnschedulableAndUnresolvable kErrReason when the
  // pod names another node.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Node: Add | Update (v1.27).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: Node Add, without a hint function (always Queue).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // Fits: spec.nodeName is empty or equals the node's name. REQUIRES: node.node() != nullptr.
  static bool Fits(const Pod& pod, const NodeInfo& node);
};

// NodeName at v1.37, which also has a PreFilter: a pod with spec.nodeName narrows the nodes to
// that one (PreFilterResult), so the others are UnschedulableAndUnresolvable without running
// Filter and preemption never looks at them; Success without narrowing otherwise (no Skip).
class NodeNameV1_37 : public NodeName, public PreFilterPlugin {
 public:
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_NAME_NODE_NAME_H_
