#include "reference/accel/node_affinity/fast_node_affinity.h"

#include <string>
#include <utility>

#include "reference/accel/helper/normalize_uniform_score.h"

namespace schedcheck::reference {
namespace {

// The plain PreFilterState, compiled (accel/base/compiled_node_selector.h RequiredNodeAffinity).
class CompiledPreFilterState final : public StateData {
 public:
  explicit CompiledPreFilterState(const Pod& pod) : required(pod) {}
  RequiredNodeAffinity required;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<CompiledPreFilterState>(*this);
  }
};

// The plain PreScoreState, compiled.
class CompiledPreScoreState final : public StateData {
 public:
  std::vector<WeightedNodeSelectorTerm> preferred;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<CompiledPreScoreState>(*this);
  }
};

std::vector<WeightedNodeSelectorTerm> Compile(const NodeAffinity::PreferredTerms& terms) {
  std::vector<WeightedNodeSelectorTerm> out;
  for (const auto& t : terms) out.push_back({t.weight(), CompiledNodeSelectorTerm(t.preference())});
  return out;
}

int64_t ScoreTerms(const std::vector<WeightedNodeSelectorTerm>& terms, const Node& node) {
  int64_t score = 0;
  for (const WeightedNodeSelectorTerm& t : terms) {
    if (t.term.Matches(node)) score += t.weight;
  }
  return score;
}

}  // namespace

Result<std::unique_ptr<Plugin>> FastNodeAffinity::New(const PluginArgs& args,
                                                      const Handle& handle) {
  auto parsed = ParseNodeAffinityArgs(args);
  if (!parsed.ok()) return parsed.error();
  return std::unique_ptr<Plugin>(
      std::make_unique<FastNodeAffinity>(std::move(parsed.value()), handle.features));
}

FastNodeAffinity::FastNodeAffinity(NodeAffinityArgs args, const Features& features)
    : NodeAffinity(std::move(args), features) {
  if (added_node_selector_) compiled_added_node_selector_.emplace(*added_node_selector_);
  compiled_added_pref_sched_terms_ = Compile(added_pref_sched_terms_);
}

Status FastNodeAffinity::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  Status s = NodeAffinity::PreFilter(state, pod, result);
  if (state.ReadAs<PreFilterState>(kPreFilterStateKey) != nullptr) {
    state.Write(std::string(kPreFilterStateKey), std::make_unique<CompiledPreFilterState>(pod));
  }
  return s;
}

Status FastNodeAffinity::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  const auto* s = state.ReadAs<CompiledPreFilterState>(kPreFilterStateKey);
  if (node.node() == nullptr || s == nullptr) return NodeAffinity::Filter(state, pod, node);
  if (compiled_added_node_selector_ && !compiled_added_node_selector_->Matches(*node.node())) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonEnforced>();
  }
  if (!s->required.Matches(*node.node())) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonPod>();
  }
  return Status();
}

Status FastNodeAffinity::PreScore(CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes) {
  Status s = NodeAffinity::PreScore(state, pod, nodes);
  if (const auto* plain = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    auto compiled = std::make_unique<CompiledPreScoreState>();
    compiled->preferred = Compile(plain->preferred_node_affinity);
    state.Write(std::string(kPreScoreStateKey), std::move(compiled));
  }
  return s;
}

Status FastNodeAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                               int64_t* score) {
  const auto* s = state.ReadAs<CompiledPreScoreState>(kPreScoreStateKey);
  if (node.node() == nullptr || s == nullptr) return NodeAffinity::Score(state, pod, node, score);
  *score = ScoreTerms(compiled_added_pref_sched_terms_, *node.node()) +
           ScoreTerms(s->preferred, *node.node());
  return Status();
}

bool FastNodeAffinity::UniformScore(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                    int64_t* score) const {
  const auto* s = state.ReadAs<CompiledPreScoreState>(kPreScoreStateKey);
  if (s == nullptr || !s->preferred.empty() || !compiled_added_pref_sched_terms_.empty())
    return false;
  *score = 0;
  return true;
}

bool FastNodeAffinity::UniformNormalizedScore([[maybe_unused]] const CycleState& state,
                                              [[maybe_unused]] const Pod& pod, int64_t uniform,
                                              int64_t* normalized) const {
  *normalized = DefaultNormalizeUniformScore(kMaxNodeScore, /*reverse=*/false, uniform);
  return true;
}

}  // namespace schedcheck::reference
