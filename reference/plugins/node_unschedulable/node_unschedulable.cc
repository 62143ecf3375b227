#include "reference/plugins/node_unschedulable/node_unschedulable.h"

#include <string>

#include "reference/api/selectors.h"

namespace schedcheck::reference {
namespace {

// The taint spec.unschedulable stands for. It has an empty value, so an Equal toleration must
// carry an empty value too.
k8s::Taint UnschedulableTaint() {
  k8s::Taint taint;
  taint.set_key("node.kubernetes.io/unschedulable");
  taint.set_effect("NoSchedule");
  return taint;
}

// isSchedulableAfterNodeChange: Queue when a schedulable node is added, or a node turns from
// unschedulable to schedulable.
Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod&, const EventObjects& e) {
  const bool now_schedulable = !e.new_node->obj.spec().unschedulable();
  const bool was_unschedulable = e.old_node == nullptr || e.old_node->obj.spec().unschedulable();
  return now_schedulable && was_unschedulable ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

// isSchedulableAfterTargetPodTolerationChange: Queue when the updated pod now tolerates the
// unschedulable taint. Tolerations can only be added, and the pod was rejected without one that
// tolerates it, so the old pod need not be looked at.
Result<QueueingHint> IsSchedulableAfterTargetPodTolerationChange(const Pod&,
                                                                 const EventObjects& e) {
  return TolerationsTolerateTaint(e.new_pod->obj.spec().tolerations(), UnschedulableTaint())
             ? QueueingHint::kQueue
             : QueueingHint::kQueueSkip;
}

}  // namespace

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

std::vector<ClusterEventWithHint> NodeUnschedulable::EventsToRegisterWithHints() const {
  return {
      {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeTaint, ""},
       IsSchedulableAfterNodeChange},
      {{std::string(resource::kTargetPod), action::kUpdatePodToleration, ""},
       IsSchedulableAfterTargetPodTolerationChange},
  };
}

Status NodeUnschedulable::Filter([[maybe_unused]] const CycleState& state, const Pod& pod,
                                 const NodeInfo& node) {
  if (node.node() == nullptr) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonUnknownCondition));
  }
  // If the pod tolerates the unschedulable taint, it also tolerates spec.unschedulable.
  const bool pod_tolerates_unschedulable =
      TolerationsTolerateTaint(pod.obj.spec().tolerations(), UnschedulableTaint());
  if (node.node()->obj.spec().unschedulable() && !pod_tolerates_unschedulable) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonUnschedulable));
  }
  return Status();
}

}  // namespace schedcheck::reference
