#include "reference/plugins/node_unschedulable/node_unschedulable.h"

#include <string>

#include "reference/api/selectors.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> NodeUnschedulable::New(const PluginArgs& args,
                                                       const Handle& handle) {
  (void)handle;
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodeUnschedulable takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeUnschedulable>());
}

Status NodeUnschedulable::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  (void)state;
  if (node.node() == nullptr) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonUnknownCondition));
  }
  if (!node.unschedulable()) return Status();
  // A pod tolerating the taint the node lifecycle controller would add also tolerates the flag.
  // The taint has an empty value, so an Equal toleration must carry an empty value too.
  k8s::Taint unschedulable_taint;
  unschedulable_taint.set_key("node.kubernetes.io/unschedulable");
  unschedulable_taint.set_effect("NoSchedule");
  if (TolerationsTolerateTaint(pod.obj.spec().tolerations(), unschedulable_taint)) {
    return Status();
  }
  return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonUnschedulable>();
}

std::vector<ClusterEvent> NodeUnschedulable::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeTaint, ""}};
}

void NodeUnschedulable::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                    std::vector<BatchRejection>* rejected) {
  // Only nodes marked unschedulable (or without a node) can be rejected.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfoHead(nodes[i + kPrefetchAhead]);
    if (nodes[i]->node() != nullptr && !nodes[i]->unschedulable()) continue;
    Status s = Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

}  // namespace schedcheck::reference
