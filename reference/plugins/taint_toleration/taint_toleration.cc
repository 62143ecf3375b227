#include "reference/plugins/taint_toleration/taint_toleration.h"

#include "reference/api/selectors.h"
#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {
namespace {

// getAllTolerationPreferNoSchedule: an empty effect means every effect, PreferNoSchedule included.
TaintToleration::Tolerations GetAllTolerationPreferNoSchedule(
    const TaintToleration::Tolerations& tolerations) {
  TaintToleration::Tolerations out;
  for (const k8s::Toleration& t : tolerations) {
    if (t.effect().empty() || t.effect() == "PreferNoSchedule") *out.Add() = t;
  }
  return out;
}

// isSchedulableAfterNodeChange: Queue when the pod does not tolerate some NoSchedule /
// NoExecute taint of the old node (or the node is new) but tolerates all of the new node's.
Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod& pod, const EventObjects& e) {
  const auto& tolerations = pod.obj.spec().tolerations();
  const bool was_untolerated =
      e.old_node == nullptr || FindUntoleratedTaint(e.old_node->obj.spec().taints(), tolerations,
                                                    IsNoScheduleOrNoExecute) != nullptr;
  const bool is_untolerated = FindUntoleratedTaint(e.new_node->obj.spec().taints(), tolerations,
                                                   IsNoScheduleOrNoExecute) != nullptr;
  return was_untolerated && !is_untolerated ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

// isSchedulableAfterTargetPodTolerationChange: any new toleration of the rejected pod may be the
// one it lacked.
Result<QueueingHint> IsSchedulableAfterTargetPodTolerationChange(const Pod&, const EventObjects&) {
  return QueueingHint::kQueue;
}

}  // namespace

Result<std::unique_ptr<Plugin>> TaintToleration::New(const PluginArgs& args, const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"TaintToleration takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<TaintToleration>(handle.features));
}

std::vector<ClusterEvent> TaintToleration::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

std::vector<ClusterEventWithHint> TaintToleration::EventsToRegisterWithHints() const {
  return {
      {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeTaint, ""},
       IsSchedulableAfterNodeChange},
      {{std::string(resource::kTargetPod), action::kUpdatePodToleration, ""},
       IsSchedulableAfterTargetPodTolerationChange},
  };
}

Status TaintToleration::Filter([[maybe_unused]] const CycleState& state, const Pod& pod,
                               const NodeInfo& node) {
  if (node.node() == nullptr) return Status::Error("invalid nodeInfo");
  const k8s::Taint* taint = FindUntoleratedTaint(
      node.node()->obj.spec().taints(), pod.obj.spec().tolerations(), IsNoScheduleOrNoExecute);
  if (taint == nullptr) return Status();
  if (features_.untolerated_taint_message_hides_taint) {
    return Status(Code::kUnschedulableAndUnresolvable, "node(s) had untolerated taint(s)");
  }
  return Status(Code::kUnschedulableAndUnresolvable,
                "node(s) had untolerated taint {" + taint->key() + ": " + taint->value() + "}");
}

Status TaintToleration::PreScore(CycleState& state, const Pod& pod,
                                 const std::vector<const NodeInfo*>& nodes) {
  if (nodes.empty()) return Status();
  auto s = std::make_unique<PreScoreState>();
  s->tolerations_prefer_no_schedule =
      GetAllTolerationPreferNoSchedule(pod.obj.spec().tolerations());
  state.Write(std::string(kPreScoreStateKey), std::move(s));
  return Status();
}

int64_t TaintToleration::CountIntolerableTaintsPreferNoSchedule(
    const google::protobuf::RepeatedPtrField<k8s::Taint>& taints, const Tolerations& tolerations) {
  int64_t intolerable_taints = 0;
  for (const k8s::Taint& taint : taints) {
    if (taint.effect() != "PreferNoSchedule") continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) ++intolerable_taints;
  }
  return intolerable_taints;
}

Status TaintToleration::Score(const CycleState& state, [[maybe_unused]] const Pod& pod,
                              const NodeInfo& node, int64_t* score) {
  *score = 0;
  if (node.node() == nullptr) {
    return Status::Error("getting node \"" + node.name() + "\" from Snapshot: not found");
  }
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) {
    return Status::Error("failed to read \"" + std::string(kPreScoreStateKey) +
                         "\" from cycleState: not found");
  }
  *score = CountIntolerableTaintsPreferNoSchedule(node.node()->obj.spec().taints(),
                                                  s->tolerations_prefer_no_schedule);
  return Status();
}

Status TaintToleration::NormalizeScore([[maybe_unused]] const CycleState& state,
                                       [[maybe_unused]] const Pod& pod, NodeScoreList& scores) {
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

}  // namespace schedcheck::reference
