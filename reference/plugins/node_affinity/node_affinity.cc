#include "reference/plugins/node_affinity/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>

#include "reference/api/selectors.h"
#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {
namespace {

using PreferredTerms = google::protobuf::RepeatedPtrField<k8s::PreferredSchedulingTerm>;

// The pod's required node affinity and nodeSelector, compiled once per cycle for every node's
// Filter.
class PreFilterState final : public StateData {
 public:
  explicit PreFilterState(const Pod& pod) : required(pod) {}
  RequiredNodeAffinity required;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

// The pod's usable preferred terms, compiled, with their weights.
using CompiledPreferredTerms = std::vector<WeightedNodeSelectorTerm>;

class PreScoreState final : public StateData {
 public:
  CompiledPreferredTerms preferred;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

bool HasRequiredNodeAffinity(const k8s::Pod& pod) {
  const k8s::PodSpec& spec = pod.spec();
  return spec.has_affinity() && spec.affinity().has_node_affinity() &&
         spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution();
}

// nodeaffinity.NewPreferredSchedulingTerms: drops weight-0 and empty terms; if any term does not
// parse, the error aggregates every such term's errors (paths "[i].matchExpressions[j]...", as
// upstream names them).
Result<PreferredTerms> UsablePreferredTerms(const PreferredTerms& terms) {
  PreferredTerms out;
  std::vector<std::string> errs;
  for (int i = 0; i < terms.size(); ++i) {
    if (terms[i].weight() == 0 || IsEmptyNodeSelectorTerm(terms[i].preference())) continue;
    std::vector<std::string> e = NodeSelectorTermErrors(terms[i].preference(), "[" + std::to_string(i) + "]");
    if (!e.empty()) {
      errs.insert(errs.end(), e.begin(), e.end());
    } else {
      *out.Add() = terms[i];
    }
  }
  if (!errs.empty()) return Error{AggregateError(errs)};
  return out;
}

Result<PreferredTerms> PodPreferredTerms(const Pod& pod) {
  const k8s::PodSpec& spec = pod.obj.spec();
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity()) return PreferredTerms();
  return UsablePreferredTerms(
      spec.affinity().node_affinity().preferred_during_scheduling_ignored_during_execution());
}

CompiledPreferredTerms Compile(const PreferredTerms& terms) {
  CompiledPreferredTerms out;
  for (const auto& t : terms) out.push_back({t.weight(), CompiledNodeSelectorTerm(t.preference())});
  return out;
}

int64_t ScoreTerms(const CompiledPreferredTerms& terms, const Node& node) {
  int64_t score = 0;
  for (const WeightedNodeSelectorTerm& t : terms) {
    if (t.term.Matches(node)) score += t.weight;
  }
  return score;
}

// The node names a term pins with `metadata.name In` requirements (ANDed, so intersected);
// nullopt when the term has none.
std::optional<std::set<std::string>> TermNodeNames(const k8s::NodeSelectorTerm& term) {
  std::optional<std::set<std::string>> names;
  for (const auto& r : term.match_fields()) {
    if (r.key() != "metadata.name" || r.operator_() != "In") continue;
    std::set<std::string> values(r.values().begin(), r.values().end());
    if (!names) {
      names = std::move(values);
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(names->begin(), names->end(), values.begin(), values.end(),
                          std::inserter(both, both.end()));
    names = std::move(both);
  }
  return names;
}

}  // namespace

Result<std::unique_ptr<Plugin>> NodeAffinity::New(const PluginArgs& args, const Handle& handle) {
  (void)handle;
  auto parsed = ParseNodeAffinityArgs(args);
  if (!parsed.ok()) return parsed.error();
  return std::unique_ptr<Plugin>(std::make_unique<NodeAffinity>(std::move(parsed.value())));
}

NodeAffinity::NodeAffinity(NodeAffinityArgs args) : args_(std::move(args)) {
  if (args_.added_affinity) {
    auto added = UsablePreferredTerms(
        args_.added_affinity->preferred_during_scheduling_ignored_during_execution());
    if (added.ok()) added_preferred_ = Compile(added.value());
    if (args_.added_affinity->has_required_during_scheduling_ignored_during_execution()) {
      added_required_.emplace(args_.added_affinity->required_during_scheduling_ignored_during_execution());
    }
  }
}

Status NodeAffinity::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  const bool has_required = HasRequiredNodeAffinity(pod.obj);
  // An empty nodeSelector map counts as absent here (our objects cannot tell nil from {}).
  if (!has_required && !HasAddedRequired() && pod.obj.spec().node_selector().empty()) {
    return Status(Code::kSkip);
  }
  state.Write(std::string(kPreFilterStateKey), std::make_unique<PreFilterState>(pod));
  if (!has_required) return Status();
  const auto& terms = pod.obj.spec()
                          .affinity()
                          .node_affinity()
                          .required_during_scheduling_ignored_during_execution()
                          .node_selector_terms();
  if (terms.empty()) return Status();
  // v1.27 unions the per-term sets and only rejects when the union is empty.
  std::set<std::string> node_names;
  for (const auto& term : terms) {
    std::optional<std::set<std::string>> term_names = TermNodeNames(term);
    // Terms are ORed: one term without a name constraint leaves every node eligible.
    if (!term_names) return Status();
    node_names.insert(term_names->begin(), term_names->end());
  }
  if (node_names.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonConflict));
  }
  if (result != nullptr) {
    result->all_nodes = false;
    result->node_names = std::move(node_names);
  }
  return Status();
}

Status NodeAffinity::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  if (node.node() == nullptr) return Status::Error("node not found");
  const Node& n = *node.node();
  if (added_required_ && !added_required_->Matches(n)) {
    return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonEnforced>();
  }
  // Parse errors in the pod's terms are ignored: such a term simply matches nothing. Without
  // PreFilter state upstream recomputes the same requirement from the pod.
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  const bool matches = s != nullptr ? s->required.Matches(n) : PodMatchesRequiredNodeAffinity(pod.obj, n.obj);
  if (!matches) return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonPod>();
  return Status();
}

Status NodeAffinity::PreScore(CycleState& state, const Pod& pod,
                              const std::vector<const NodeInfo*>& nodes) {
  if (nodes.empty()) return Status();
  auto terms = PodPreferredTerms(pod);
  if (!terms.ok()) return Status::Error(terms.message());
  auto s = std::make_unique<PreScoreState>();
  s->preferred = Compile(terms.value());
  state.Write(std::string(kPreScoreStateKey), std::move(s));
  return Status();
}

Status NodeAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                           int64_t* score) {
  *score = 0;
  if (node.node() == nullptr) {
    return Status::Error("getting node \"" + node.name() + "\" from Snapshot: not found");
  }
  const Node& n = *node.node();
  int64_t count = ScoreTerms(added_preferred_, n);
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    count += ScoreTerms(s->preferred, n);
  } else {
    // Upstream falls back to computing the preferred terms when PreScore did not run.
    auto terms = PodPreferredTerms(pod);
    if (!terms.ok()) return Status::Error(terms.message());
    count += ScoreTerms(Compile(terms.value()), n);
  }
  *score = count;
  return Status();
}

bool NodeAffinity::UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const {
  (void)pod;
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr || !s->preferred.empty() || !added_preferred_.empty()) return false;
  *score = 0;
  return true;
}

bool NodeAffinity::UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                                          int64_t* normalized) const {
  (void)state, (void)pod;
  *normalized = DefaultNormalizeUniformScore(kMaxNodeScore, /*reverse=*/false, uniform);
  return true;
}

Status NodeAffinity::NormalizeScore(const CycleState& state, const Pod& pod,
                                    NodeScoreList& scores) {
  (void)state, (void)pod;
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

std::vector<ClusterEvent> NodeAffinity::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

}  // namespace schedcheck::reference
