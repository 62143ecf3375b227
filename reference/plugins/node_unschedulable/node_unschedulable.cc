#include "reference/plugins/node_unschedulable/node_unschedulable.h"

#include <string>

#include "reference/api/selectors.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> NodeUnschedulable::New(const PluginArgs& args,
                                                       [[maybe_unused]] const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodeUnschedulable takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeUnschedulable>());
}

std::vector<ClusterEvent> NodeUnschedulable::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeTaint, ""}};
}

Status NodeUnschedulable::Filter([[maybe_unused]] const CycleState& state, const Pod& pod,
                                 const NodeInfo& node) {
  if (node.node() == nullptr) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonUnknownCondition));
  }
  // If the pod tolerates the unschedulable taint, it also tolerates spec.unschedulable. The taint
  // has an empty value, so an Equal toleration must carry an empty value too.
  k8s::Taint unschedulable_taint;
  unschedulable_taint.set_key("node.kubernetes.io/unschedulable");
  unschedulable_taint.set_effect("NoSchedule");
  const bool pod_tolerates_unschedulable =
      TolerationsTolerateTaint(pod.obj.spec().tolerations(), unschedulable_taint);
  if (node.node()->obj.spec().unschedulable() && !pod_tolerates_unschedulable) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonUnschedulable));
  }
  return Status();
}

}  // namespace schedcheck::reference
