#include "reference/plugins/node_affinity/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {
namespace {

using PreferredTerms = NodeAffinity::PreferredTerms;

// nodeaffinity.NewPreferredSchedulingTerms: drops weight-0 and empty terms; if any term does not
// parse, the error aggregates every such term's errors (paths "[i].matchExpressions[j]...", as
// upstream names them).
Result<PreferredTerms> NewPreferredSchedulingTerms(const PreferredTerms& terms,
                                                   const Features& features) {
  PreferredTerms out;
  std::vector<std::string> errs;
  for (int i = 0; i < terms.size(); ++i) {
    if (terms[i].weight() == 0 || IsEmptyNodeSelectorTerm(terms[i].preference())) continue;
    std::vector<std::string> e = NodeSelectorTermErrors(
        terms[i].preference(), "[" + std::to_string(i) + "]", features.reworded_messages);
    if (!e.empty()) {
      errs.insert(errs.end(), e.begin(), e.end());
    } else {
      *out.Add() = terms[i];
    }
  }
  if (!errs.empty()) return Error{AggregateError(errs)};
  return out;
}

// PreferredSchedulingTerms.Score: the sum of the weights of the terms that match the node.
int64_t PreferredSchedulingTermsScore(const PreferredTerms& terms, const Node& node) {
  int64_t score = 0;
  for (const k8s::PreferredSchedulingTerm& t : terms) {
    if (NodeSelectorTermMatches(t.preference(), node.obj)) score += t.weight();
  }
  return score;
}

// getPodPreferredNodeAffinity.
Result<PreferredTerms> GetPodPreferredNodeAffinity(const Pod& pod, const Features& features) {
  const k8s::PodSpec& spec = pod.obj.spec();
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity()) return PreferredTerms();
  return NewPreferredSchedulingTerms(
      spec.affinity().node_affinity().preferred_during_scheduling_ignored_during_execution(),
      features);
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

// RequiredNodeAffinity.Match as the queueing hint uses it, with LazyErrorNodeSelector's errors:
// spec.nodeSelector first, then the required terms ORed (empty terms left out); when no term
// matches and some term does not parse, the parse errors are the result.
Result<bool> MatchRequiredNodeAffinity(const Pod& pod, const Node& node, const Features& features) {
  const Labels& labels = node.obj.metadata().labels();
  for (const auto& [key, value] : pod.obj.spec().node_selector()) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  const k8s::PodSpec& spec = pod.obj.spec();
  if (!spec.has_affinity() || !spec.affinity().has_node_affinity() ||
      !spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    return true;
  }
  const auto& terms = spec.affinity()
                          .node_affinity()
                          .required_during_scheduling_ignored_during_execution()
                          .node_selector_terms();
  std::vector<std::string> errs;
  for (int i = 0; i < terms.size(); ++i) {
    if (IsEmptyNodeSelectorTerm(terms[i])) continue;
    std::vector<std::string> e = NodeSelectorTermErrors(
        terms[i], "nodeSelectorTerms[" + std::to_string(i) + "]", features.reworded_messages);
    if (!e.empty()) {
      errs.insert(errs.end(), e.begin(), e.end());
      continue;
    }
    if (NodeSelectorTermMatches(terms[i], node.obj)) return true;
  }
  if (!errs.empty()) return Error{AggregateError(errs)};
  return false;
}

}  // namespace

NodeAffinity::PreFilterState::PreFilterState(const Pod& pod)
    : node_selector_(pod.obj.spec().node_selector()) {
  const k8s::PodSpec& spec = pod.obj.spec();
  if (spec.has_affinity() && spec.affinity().has_node_affinity() &&
      spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution()) {
    node_affinity_ =
        spec.affinity().node_affinity().required_during_scheduling_ignored_during_execution();
  }
}

bool NodeAffinity::PreFilterState::Match(const Node& node) const {
  const Labels& labels = node.obj.metadata().labels();
  for (const auto& [key, value] : node_selector_) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  return !node_affinity_ || NodeSelectorMatches(*node_affinity_, node.obj);
}

Result<std::unique_ptr<Plugin>> NodeAffinity::New(const PluginArgs& args, const Handle& handle) {
  auto parsed = ParseNodeAffinityArgs(args);
  if (!parsed.ok()) return parsed.error();
  return std::unique_ptr<Plugin>(
      std::make_unique<NodeAffinity>(std::move(parsed.value()), handle.features));
}

NodeAffinity::NodeAffinity(NodeAffinityArgs args, const Features& features) : features_(features) {
  if (!args.added_affinity) return;
  if (args.added_affinity->has_required_during_scheduling_ignored_during_execution()) {
    added_node_selector_ =
        args.added_affinity->required_during_scheduling_ignored_during_execution();
  }
  auto added = NewPreferredSchedulingTerms(
      args.added_affinity->preferred_during_scheduling_ignored_during_execution(), features);
  if (added.ok()) added_pref_sched_terms_ = std::move(added.value());
  has_added_pref_sched_terms_ =
      !args.added_affinity->preferred_during_scheduling_ignored_during_execution().empty();
}

std::vector<ClusterEvent> NodeAffinity::EventsToRegister() const {
  return {{std::string(resource::kNode), action::kAdd | action::kUpdate, ""}};
}

std::vector<ClusterEventWithHint> NodeAffinity::EventsToRegisterWithHints() const {
  return {{{std::string(resource::kNode), action::kAdd | action::kUpdateNodeLabel, ""},
           [this](const Pod& pod, const EventObjects& e) {
             return IsSchedulableAfterNodeChange(pod, e);
           }}};
}

Result<QueueingHint> NodeAffinity::IsSchedulableAfterNodeChange(const Pod& pod,
                                                                const EventObjects& e) const {
  const Node& modified = *e.new_node;
  if (added_node_selector_ && !NodeSelectorMatches(*added_node_selector_, modified.obj)) {
    return QueueingHint::kQueueSkip;
  }
  Result<bool> is_matched = MatchRequiredNodeAffinity(pod, modified, features_);
  if (!is_matched.ok()) return is_matched.error();
  if (!*is_matched) return QueueingHint::kQueueSkip;
  if (e.old_node == nullptr) return QueueingHint::kQueue;
  // An update: only a change from unmatched to matched can help.
  Result<bool> was_matched = MatchRequiredNodeAffinity(pod, *e.old_node, features_);
  if (!was_matched.ok()) return was_matched.error();
  return *was_matched ? QueueingHint::kQueueSkip : QueueingHint::kQueue;
}

Status NodeAffinity::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  const k8s::PodSpec& spec = pod.obj.spec();
  const bool no_node_affinity =
      !spec.has_affinity() || !spec.affinity().has_node_affinity() ||
      !spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution();
  // An empty nodeSelector map counts as absent here (our objects cannot tell nil from {}).
  if (no_node_affinity && !added_node_selector_ && spec.node_selector().empty())
    return Status(Code::kSkip);
  state.Write(std::string(kPreFilterStateKey), std::make_unique<PreFilterState>(pod));
  if (no_node_affinity) return Status();
  const auto& terms = spec.affinity()
                          .node_affinity()
                          .required_during_scheduling_ignored_during_execution()
                          .node_selector_terms();
  if (terms.empty()) return Status();
  // Terms are ORed: the node names of every term, unless some term has no name constraint.
  std::set<std::string> node_names;
  for (const auto& term : terms) {
    std::optional<std::set<std::string>> term_node_names = TermNodeNames(term);
    if (!term_node_names) return Status();
    node_names.insert(term_node_names->begin(), term_node_names->end());
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

Status NodeAffinity::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node_info) {
  const Node* node = node_info.node();
  if (node == nullptr) return Status::Error("node not found");
  if (added_node_selector_ && !NodeSelectorMatches(*added_node_selector_, node->obj)) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonEnforced));
  }
  // Without PreFilter state, the same requirement computed from the pod.
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  const bool match = s != nullptr ? s->Match(*node) : PreFilterState(pod).Match(*node);
  if (!match) return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonPod));
  return Status();
}

Status NodeAffinity::PreScore(CycleState& state, const Pod& pod,
                              const std::vector<const NodeInfo*>& nodes) {
  const bool skip = features_.skip_when_nothing_to_do;
  if (!skip && nodes.empty()) return Status();
  auto preferred_node_affinity = GetPodPreferredNodeAffinity(pod, features_);
  if (!preferred_node_affinity.ok()) return Status::Error(preferred_node_affinity.message());
  // v1.37: nothing to score when the pod has no preferred terms (a nil list) and none are added.
  const k8s::PodSpec& spec = pod.obj.spec();
  const bool pod_has_preferred = spec.has_affinity() && spec.affinity().has_node_affinity() &&
                                 !spec.affinity()
                                      .node_affinity()
                                      .preferred_during_scheduling_ignored_during_execution()
                                      .empty();
  if (skip && !pod_has_preferred && !has_added_pref_sched_terms_) {
    return Status(Code::kSkip);
  }
  auto s = std::make_unique<PreScoreState>();
  s->preferred_node_affinity = std::move(preferred_node_affinity.value());
  state.Write(std::string(kPreScoreStateKey), std::move(s));
  return Status();
}

Status NodeAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
                           int64_t* score) {
  *score = 0;
  const Node* node = node_info.node();
  if (node == nullptr) {
    return Status::Error("getting node \"" + node_info.name() + "\" from Snapshot: not found");
  }
  int64_t count = PreferredSchedulingTermsScore(added_pref_sched_terms_, *node);
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    count += PreferredSchedulingTermsScore(s->preferred_node_affinity, *node);
  } else {
    // Without PreScore state, the preferred terms computed from the pod.
    auto preferred_node_affinity = GetPodPreferredNodeAffinity(pod, features_);
    if (!preferred_node_affinity.ok()) return Status::Error(preferred_node_affinity.message());
    count += PreferredSchedulingTermsScore(preferred_node_affinity.value(), *node);
  }
  *score = count;
  return Status();
}

Status NodeAffinity::NormalizeScore([[maybe_unused]] const CycleState& state,
                                    [[maybe_unused]] const Pod& pod, NodeScoreList& scores) {
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

}  // namespace schedcheck::reference
