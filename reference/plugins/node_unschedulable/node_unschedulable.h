// NodeUnschedulable (nodeunschedulable/node_unschedulable.go): rejects nodes with
// spec.unschedulable unless the pod tolerates the node.kubernetes.io/unschedulable:NoSchedule
// taint.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_UNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_UNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

class NodeUnschedulable : public FilterPlugin,
                          public EnqueueExtensions,
                          public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeUnschedulable";
  static constexpr std::string_view kErrReasonUnknownCondition = "node(s) had unknown conditions";
  static constexpr std::string_view kErrReasonUnschedulable = "node(s) were unschedulable";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  // UnschedulableAndUnresolvable kErrReasonUnknownCondition without a node, kErrReasonUnschedulable
  // for an unschedulable node the pod does not tolerate.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Node: Add | UpdateNodeTaint (the unschedulable flag is reported as a taint change).
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37: Node Add | UpdateNodeTaint (isSchedulableAfterNodeChange) and TargetPod
  // UpdatePodToleration (isSchedulableAfterTargetPodTolerationChange).
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_UNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
