#include "reference/plugins/taint_toleration/taint_toleration.h"

#include "reference/api/selectors.h"
#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {
namespace {

using Tolerations = google::protobuf::RepeatedPtrField<k8s::Toleration>;

// What PreScore leaves for Score: tolerations that can apply to PreferNoSchedule taints.
class PreScoreState final : public StateData {
 public:
  Tolerations tolerations_prefer_no_schedule;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

// getAllTolerationPreferNoSchedule: an empty effect means every effect, PreferNoSchedule included.
Tolerations TolerationsPreferNoSchedule(const Tolerations& all) {
  Tolerations out;
  for (const k8s::Toleration& t : all) {
    if (t.effect().empty() || t.effect() == "PreferNoSchedule") *out.Add() = t;
  }
  return out;
}

// countIntolerableTaintsPreferNoSchedule.
int64_t CountIntolerableTaintsPreferNoSchedule(
    const google::protobuf::RepeatedPtrField<k8s::Taint>& taints, const Tolerations& tolerations) {
  int64_t count = 0;
  for (const k8s::Taint& taint : taints) {
    if (taint.effect() != "PreferNoSchedule") continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) ++count;
  }
  return count;
}

}  // namespace

Result<std::unique_ptr<Plugin>> TaintToleration::New(const PluginArgs& args,
                                                     const Handle& handle) {
  (void)handle;
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"TaintToleration takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<TaintToleration>());
}

Status TaintToleration::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  (void)state;
  if (node.node() == nullptr) return Status::Error("invalid nodeInfo");
  if (!node.has_taints()) return Status();
  const k8s::Taint* taint = FindUntoleratedTaint(node.node()->obj.spec().taints(),
                                                 pod.obj.spec().tolerations(),
                                                 IsNoScheduleOrNoExecute);
  if (taint == nullptr) return Status();
  return Status(Code::kUnschedulableAndUnresolvable,
                "node(s) had untolerated taint {" + taint->key() + ": " + taint->value() + "}");
}

Status TaintToleration::PreScore(CycleState& state, const Pod& pod,
                                 const std::vector<const NodeInfo*>& nodes) {
  if (nodes.empty()) return Status();
  auto s = std::make_unique<PreScoreState>();
  s->tolerations_prefer_no_schedule = TolerationsPreferNoSchedule(pod.obj.spec().tolerations());
  state.Write(std::string(kPreScoreStateKey), std::move(s));
  return Status();
}

Status TaintToleration::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                              int64_t* score) {
  (void)pod;
  *score = 0;
  if (node.node() == nullptr) {
    return Status::Error("getting node \"" + node.name() + "\" from Snapshot: not found");
  }
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) {
    return Status::Error("failed to read \"" + std::string(kPreScoreStateKey) +
                         "\" from cycleState: not found");
  }
  *score = node.has_taints() ? CountIntolerableTaintsPreferNoSchedule(node.node()->obj.spec().taints(),
                                                                     s->tolerations_prefer_no_schedule)
                             : 0;
  return Status();
}

bool TaintToleration::UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                                             int64_t* normalized) const {
  (void)state, (void)pod;
  *normalized = DefaultNormalizeUniformScore(kMaxNodeScore, /*reverse=*/true, uniform);
  return true;
}

Status TaintToleration::NormalizeScore(const CycleState& state, const Pod& pod,
                                       NodeScoreList& scores) {
  (void)state, (void)pod;
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

std::vector<ClusterEvent> TaintToleration::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

void TaintToleration::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                  std::vector<BatchRejection>* rejected) {
  // Only tainted nodes (or a missing node) can be rejected.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->node() != nullptr && !nodes[i]->has_taints()) continue;
    Status s = Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

Status TaintToleration::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return ScoreEachNode(*this, state, pod, nodes, scores);  // the per-node error
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (node.node() == nullptr) return ScoreEachNode(*this, state, pod, nodes.subspan(i, 1), &scores[i]);
    scores[i] = node.has_taints() ? CountIntolerableTaintsPreferNoSchedule(node.node()->obj.spec().taints(),
                                                                           s->tolerations_prefer_no_schedule)
                                  : 0;
  }
  return Status();
}

}  // namespace schedcheck::reference
