// PodTopologySpread PreScore, Score and NormalizeScore (scoring.go, v1.27 and v1.37).
//
// At v1.27 counts are keyed by (topology key, value) and shared by every ScheduleAnyway
// constraint with that key: two constraints on one key both add into the same count, and the
// second one's domain count (hence its weight) stays 0 for values the first already created.
// v1.37 keeps one count map per constraint (TopologyValueToPodCounts[i]). Both are kept here by
// keying the counts by count group: the topology key at v1.27, the constraint's index at v1.37.
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace pod_topology_spread {

// preScoreState.
struct PreScoreState final : public StateData {
  std::vector<SpreadConstraint> constraints;
  // v1.37: counts per constraint rather than per topology key.
  bool per_constraint = false;
  // Feasible nodes lacking some topology key (when all keys are required): they score 0.
  std::set<std::string, std::less<>> ignored_nodes;
  // Matching pods per topology pair of the feasible, not ignored nodes (hostname excluded).
  std::map<TopologyPair, int64_t> topology_pair_to_pod_counts;
  // Per constraint: the weight given to its counts.
  std::vector<double> topology_normalizing_weight;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }

  // The count group of constraint i (see filtering.cc's PreFilterState::Group).
  std::string Group(size_t i) const {
    return per_constraint ? "\x01" + std::to_string(i) : constraints[i].topology_key;
  }
};

namespace {

// getPreScoreState.
Result<const PreScoreState*> GetPreScoreState(const CycleState& cycle_state) {
  auto* s = cycle_state.ReadAs<PreScoreState>(PodTopologySpread::kPreScoreStateKey);
  if (s == nullptr) {
    return Error{"error reading \"" + std::string(PodTopologySpread::kPreScoreStateKey) +
                 "\" from cycleState: not found"};
  }
  return s;
}

// topologyNormalizingWeight: ln(size + 2), so that the counts of a topology with few domains
// are not drowned by those of one with many.
double TopologyNormalizingWeight(int size) { return std::log(static_cast<double>(size + 2)); }

// scoreForCount: maxSkew - 1 is added so that a larger tolerated skew flattens the differences.
double ScoreForCount(int64_t cnt, int32_t max_skew, double tp_weight) {
  return static_cast<double>(cnt) * tp_weight + static_cast<double>(max_skew - 1);
}

}  // namespace
}  // namespace pod_topology_spread

using pod_topology_spread::PreScoreState;
using pod_topology_spread::SpreadConstraint;
using pod_topology_spread::TopologyPair;

Outcome PodTopologySpread::InitPreScoreState(PreScoreState& s, const Pod& pod,
                                             const std::vector<const NodeInfo*>& filtered_nodes,
                                             bool require_all_topologies) const {
  if (!pod.obj.spec().topology_spread_constraints().empty()) {
    auto own = pod_topology_spread::FilterTopologySpreadConstraints(
        pod.obj.spec().topology_spread_constraints(), pod.labels(),
        pod_topology_spread::kScheduleAnyway,
        handle_.features.match_label_keys_in_pod_topology_spread);
    if (!own.ok())
      return Error{"obtaining pod's soft topology spread constraints: " + own.message()};
    s.constraints = std::move(*own);
  } else {
    auto defaults = BuildDefaultConstraints(pod, pod_topology_spread::kScheduleAnyway);
    if (!defaults.ok()) {
      return Error{"setting default soft topology spread constraints: " + defaults.message()};
    }
    s.constraints = std::move(*defaults);
  }
  if (s.constraints.empty()) return Outcome::Ok();
  std::vector<int> topo_size(s.constraints.size(), 0);
  for (const NodeInfo* node_info : filtered_nodes) {
    const Labels& labels = node_info->node()->labels();
    if (require_all_topologies &&
        !pod_topology_spread::NodeLabelsMatchSpreadConstraints(labels, s.constraints)) {
      // Nodes which don't have all required topologyKeys present are ignored when scoring.
      s.ignored_nodes.insert(node_info->name());
      continue;
    }
    for (size_t i = 0; i < s.constraints.size(); ++i) {
      const SpreadConstraint& c = s.constraints[i];
      if (c.topology_key == pod_topology_spread::kLabelHostname) continue;  // counted in Score
      TopologyPair pair{s.Group(i), pod_topology_spread::LabelOrEmpty(labels, c.topology_key)};
      if (s.topology_pair_to_pod_counts.emplace(pair, 0).second) topo_size[i]++;
    }
  }
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    int size = topo_size[i];
    if (s.constraints[i].topology_key == pod_topology_spread::kLabelHostname) {
      size = static_cast<int>(filtered_nodes.size() - s.ignored_nodes.size());
    }
    s.topology_normalizing_weight.push_back(pod_topology_spread::TopologyNormalizingWeight(size));
  }
  return Outcome::Ok();
}

Status PodTopologySpread::PreScore(CycleState& cycle_state, const Pod& pod,
                                   const std::vector<const NodeInfo*>& filtered_nodes) {
  const std::vector<const NodeInfo*>& all_nodes = handle_.snapshot->node_infos();
  const bool skip = handle_.features.skip_when_nothing_to_do;
  if (skip && all_nodes.empty()) return Status(Code::kSkip);
  if (!skip && (filtered_nodes.empty() || all_nodes.empty())) return Status();  // nothing to score
  auto state = std::make_unique<PreScoreState>();
  state->per_constraint = handle_.features.spread_counts_per_constraint;
  // Only require that nodes have all the topology labels if using non-system-default spreading
  // rules. This allows nodes that don't have a zone label to still have hostname spreading.
  const bool require_all_topologies =
      !pod.obj.spec().topology_spread_constraints().empty() || !system_defaulted_;
  Outcome init = InitPreScoreState(*state, pod, filtered_nodes, require_all_topologies);
  if (!init.ok()) return Status::Error("calculating preScoreState: " + init.message());
  // Return if the incoming pod doesn't have soft topology spread constraints: v1.27 with an empty
  // state, v1.37 with Skip.
  if (state->constraints.empty()) {
    if (skip) return Status(Code::kSkip);
    cycle_state.Write(std::string(kPreScoreStateKey), std::move(state));
    return Status();
  }
  // processAllNode, over every node of the cluster.
  for (const NodeInfo* node_info : all_nodes) {
    const Node* node = node_info->node();
    if (node == nullptr) continue;
    // All topologyKeys need to be present in `node`.
    if (require_all_topologies && !pod_topology_spread::NodeLabelsMatchSpreadConstraints(
                                      node->labels(), state->constraints)) {
      continue;
    }
    for (size_t i = 0; i < state->constraints.size(); ++i) {
      const SpreadConstraint& c = state->constraints[i];
      if (!pod_topology_spread::MatchNodeInclusionPolicies(c, pod, *node)) continue;
      // Only pairs of feasible nodes count; hostname pairs are absent (counted in Score).
      auto tp_count = state->topology_pair_to_pod_counts.find(TopologyPair{
          state->Group(i), pod_topology_spread::LabelOrEmpty(node->labels(), c.topology_key)});
      if (tp_count == state->topology_pair_to_pod_counts.end()) continue;
      tp_count->second +=
          pod_topology_spread::CountPodsMatchSelector(node_info->pods(), c.selector, pod.ns());
    }
  }
  cycle_state.Write(std::string(kPreScoreStateKey), std::move(state));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& cycle_state, const Pod& pod,
                                const NodeInfo& node_info, int64_t* score) {
  *score = 0;
  const Node* node = node_info.node();
  if (node == nullptr) {
    return Status::Error("getting node \"" + node_info.name() + "\" from Snapshot: not found");
  }
  auto s = pod_topology_spread::GetPreScoreState(cycle_state);
  if (!s.ok()) return Status::Error(s.message());
  // Return if the node is not qualified.
  if ((*s)->ignored_nodes.count(node->name())) return Status();
  // For each present pair, the node gets a credit of its matching pods.
  double sum = 0;
  for (size_t i = 0; i < (*s)->constraints.size(); ++i) {
    const SpreadConstraint& c = (*s)->constraints[i];
    auto tp_val = node->labels().find(c.topology_key);
    if (tp_val == node->labels().end()) continue;
    int64_t cnt = 0;
    if (c.topology_key == pod_topology_spread::kLabelHostname) {
      cnt = pod_topology_spread::CountPodsMatchSelector(node_info.pods(), c.selector, pod.ns());
    } else {
      auto found =
          (*s)->topology_pair_to_pod_counts.find(TopologyPair{(*s)->Group(i), tp_val->second});
      // Upstream dereferences a nil pointer here (a node that was not feasible).
      if (found == (*s)->topology_pair_to_pod_counts.end()) {
        return Status::Error("no count for topology pair of node \"" + node_info.name() + "\"");
      }
      cnt = found->second;
    }
    sum +=
        pod_topology_spread::ScoreForCount(cnt, c.max_skew, (*s)->topology_normalizing_weight[i]);
  }
  *score = static_cast<int64_t>(std::round(sum));
  return Status();
}

Status PodTopologySpread::NormalizeScore(const CycleState& cycle_state,
                                         [[maybe_unused]] const Pod& pod, NodeScoreList& scores) {
  auto s = pod_topology_spread::GetPreScoreState(cycle_state);
  if (!s.ok()) return Status::Error(s.message());
  // Fewer matching pods is better: s' = 100 * (max + min - s) / max over the scored nodes.
  int64_t min_score = INT64_MAX;
  int64_t max_score = 0;
  for (const NodeScore& score : scores) {
    if ((*s)->ignored_nodes.count(score.name)) continue;
    min_score = std::min(min_score, score.score);
    max_score = std::max(max_score, score.score);
  }
  for (NodeScore& score : scores) {
    if ((*s)->ignored_nodes.count(score.name)) {
      score.score = 0;
    } else if (max_score == 0) {
      score.score = kMaxNodeScore;
    } else {
      score.score = kMaxNodeScore * (max_score + min_score - score.score) / max_score;
    }
  }
  return Status();
}

}  // namespace schedcheck::reference
