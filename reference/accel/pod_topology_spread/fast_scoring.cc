// FastPodTopologySpread PreScore, Score, NormalizeScore and the batch forms: the results of the
// plain scoring.cc (v1.27 scoring.go), from the sums kept across cycles.
//
// As in v1.27, counts are keyed by (topology key, value) and shared by every ScheduleAnyway
// constraint with that key: two constraints on one key both add into the same count, and the
// second one's domain count (hence its weight) stays 0 for values the first already created.
#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "reference/accel/base/id_map.h"
#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

using pod_topology_spread::fast::FastConstraint;
namespace fast = pod_topology_spread::fast;
// Topology value -> matching pods, for one topology key (upstream's TopologyPairToPodCounts
// entries of that key; constraints naming the same key share them).
using ValueToPodCounts = IdMap<int64_t>;

class FastPreScoreState final : public StateData {
 public:
  std::vector<FastConstraint> constraints;
  // Feasible nodes lacking some topology key (when all keys are required): they score 0.
  std::set<std::string, std::less<>> ignored_nodes;
  // Per distinct topology key, and per constraint its index here.
  std::vector<ValueToPodCounts> key_counts;
  std::vector<int> key_index;
  std::vector<double> normalizing_weights;  // per constraint

  ValueToPodCounts& CountsOf(size_t constraint) { return key_counts[key_index[constraint]]; }
  const ValueToPodCounts& CountsOf(size_t constraint) const {
    return key_counts[key_index[constraint]];
  }

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<FastPreScoreState>(*this);
  }
};

// topologyNormalizingWeight: ln(size + 2), so that the counts of a topology with few domains
// are not drowned by those of one with many.
double TopologyNormalizingWeight(int size) { return std::log(static_cast<double>(size + 2)); }

// scoreForCount: maxSkew - 1 is added so that a larger tolerated skew flattens the differences.
double ScoreForCount(int64_t count, int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight + static_cast<double>(max_skew - 1);
}

Result<const FastPreScoreState*> ReadPreScoreState(const CycleState& state) {
  auto* s = state.ReadAs<FastPreScoreState>(PodTopologySpread::kPreScoreStateKey);
  if (s == nullptr) {
    return Error{"error reading \"" + std::string(PodTopologySpread::kPreScoreStateKey) +
                 "\" from cycleState: not found"};
  }
  return s;
}

// node.Labels[key] in Go: "" when the label is absent.
LabelId OrEmpty(LabelId value) {
  static const LabelId kEmpty = InternLabel("");
  return value == kNoLabel ? kEmpty : value;
}

// nodeLabelsMatchSpreadConstraints, with the label values kept per node.
bool HasEveryKey(const NodeInfo& info, const std::vector<FastConstraint>& constraints,
                 fast::NodeLabelMemo& labels) {
  return std::all_of(constraints.begin(), constraints.end(), [&](const FastConstraint& c) {
    return labels.Value(info, c.topology_key_id) != kNoLabel;
  });
}

// initPreScoreState's second half: the domains present among the non-ignored feasible nodes and
// the weight of each constraint.
// `labels.Value(info, key)` is the node's label value (kNoLabel when absent).
// `per_constraint` (v1.37): every constraint has its own counts, even on a shared key.
void InitDomains(FastPreScoreState& s, const std::vector<const NodeInfo*>& filtered,
                 bool require_all_topologies, bool per_constraint, fast::NodeLabelMemo& labels) {
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    size_t k = per_constraint ? i : 0;
    while (k < i && s.constraints[k].topology_key_id != s.constraints[i].topology_key_id) ++k;
    s.key_index.push_back(k < i ? s.key_index[k] : static_cast<int>(s.key_counts.size()));
    if (k == i) s.key_counts.emplace_back();
  }
  std::vector<int> topo_size(s.constraints.size(), 0);
  for (const NodeInfo* info : filtered) {
    if (require_all_topologies && !HasEveryKey(*info, s.constraints, labels)) {
      s.ignored_nodes.insert(info->name());
      continue;
    }
    for (size_t i = 0; i < s.constraints.size(); ++i) {
      const FastConstraint& c = s.constraints[i];
      if (c.topology_key_id == fast::HostnameKeyId()) continue;  // counted in Score
      // A node without the key (possible when not all keys are required) adds the value "",
      // as upstream's map lookup does.
      ValueToPodCounts& counts = s.CountsOf(i);
      LabelId value = OrEmpty(labels.Value(*info, c.topology_key_id));
      if (counts.Find(value) == nullptr) {
        counts[value] = 0;
        topo_size[i]++;
      }
    }
  }
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    int size = topo_size[i];
    if (s.constraints[i].topology_key_id == fast::HostnameKeyId()) {
      size = static_cast<int>(filtered.size() - s.ignored_nodes.size());
    }
    s.normalizing_weights.push_back(TopologyNormalizingWeight(size));
  }
}

}  // namespace

Status FastPodTopologySpread::PreScore(CycleState& state, const Pod& pod,
                                       const std::vector<const NodeInfo*>& filtered) {
  const std::vector<const NodeInfo*>& all_nodes = handle_.snapshot->node_infos();
  if (skip_ && all_nodes.empty()) return Status(Code::kSkip);
  if (!skip_ && (filtered.empty() || all_nodes.empty())) return Status();  // nothing to score
  auto s = std::make_unique<FastPreScoreState>();
  // Only system-defaulted spreading tolerates nodes without every key, so that nodes without a
  // zone label still get hostname spreading.
  bool require_all_topologies =
      !pod.obj.spec().topology_spread_constraints().empty() || !plain_.system_defaulted();
  auto constraints = GetConstraints(pod, pod_topology_spread::kScheduleAnyway);
  if (!constraints.ok()) {
    return Status::Error(
        "calculating preScoreState: obtaining pod's soft topology spread "
        "constraints: " +
        constraints.message());
  }
  s->constraints = std::move(*constraints);
  if (s->constraints.empty()) {
    // v1.27: an empty state, so every node scores 0 and normalises to 100; v1.37: Skip.
    if (skip_) return Status(Code::kSkip);
    state.Write(std::string(PodTopologySpread::kPreScoreStateKey), std::move(s));
    return Status();
  }
  InitDomains(*s, filtered, require_all_topologies, per_constraint_, node_labels_);
  // Count matching pods over ALL nodes, but only into domains seen among the feasible nodes.
  // The sums over all nodes are kept across cycles (domain_counts.h); a node's part: nothing
  // unless it carries every key (when all are required); per key, the pods matched by every
  // constraint naming it that the node's inclusion policies admit (constraints on one key share
  // the count, as upstream). Hostname domains are counted in Score.
  const RequiredNodeAffinity node_affinity(pod);
  const auto match_counts = match_counts_.ForConstraints(s->constraints, pod.namespace_id);
  auto contribute = [&](const NodeInfo& info, std::span<fast::NodeContribution> out) {
    if (require_all_topologies && !HasEveryKey(info, s->constraints, node_labels_)) return;
    for (size_t i = 0; i < s->constraints.size(); ++i) {
      const FastConstraint& c = s->constraints[i];
      if (c.topology_key_id == fast::HostnameKeyId()) continue;
      if (!fast::MatchNodeInclusionPolicies(c, pod, node_affinity, *info.node())) continue;
      fast::NodeContribution& part = out[s->key_index[i]];
      part.value = OrEmpty(node_labels_.Value(info, c.topology_key_id));
      part.count += match_counts[i]->Count(info, c, pod.namespace_id);
    }
  };
  fast::DomainCounts& sums =
      domain_counts_.For(std::string("score") + (require_all_topologies ? "R" : "-") +
                         fast::DomainCountsKey(pod, s->constraints));
  sums.Sync(*handle_.snapshot, s->key_counts.size(), contribute);
  for (size_t k = 0; k < s->key_counts.size(); ++k) {
    std::vector<LabelId> domains;
    s->key_counts[k].ForEach(
        [&](uint64_t value, int64_t) { domains.push_back(static_cast<LabelId>(value)); });
    for (LabelId value : domains) s->key_counts[k][value] = sums.Matches(k, value);
  }
  state.Write(std::string(PodTopologySpread::kPreScoreStateKey), std::move(s));
  return Status();
}

namespace {

// Score once the state is read. `value_of(key)` is the node's label value (kNoLabel when absent)
// and `hostname_count(i)` its pods matching constraint i; the per-node form reads both from the
// node, the batch form from what the plugin keeps per node.
template <typename ValueOf, typename HostnameCount>
Status ScoreWithState(const FastPreScoreState& s, const NodeInfo& info, ValueOf&& value_of,
                      HostnameCount&& hostname_count, int64_t* score) {
  *score = 0;
  if (!s.ignored_nodes.empty() && s.ignored_nodes.count(info.name())) return Status();
  double sum = 0;
  for (size_t i = 0; i < s.constraints.size(); ++i) {
    const FastConstraint& c = s.constraints[i];
    LabelId value = value_of(c.topology_key_id);
    if (value == kNoLabel) continue;
    int64_t count = 0;
    if (c.topology_key_id == fast::HostnameKeyId()) {
      // Hostname domains are single nodes: count this node's pods directly (no policy check).
      count = hostname_count(i);
    } else {
      const int64_t* found = s.CountsOf(i).Find(value);
      if (found == nullptr) {
        return Status::Error("no count for topology pair of node \"" + info.name() + "\"");
      }
      count = *found;
    }
    sum += ScoreForCount(count, c.spec.max_skew, s.normalizing_weights[i]);
  }
  *score = static_cast<int64_t>(std::round(sum));
  return Status();
}

}  // namespace

Status FastPodTopologySpread::Score(const CycleState& state, const Pod& pod, const NodeInfo& info,
                                    int64_t* score) {
  *score = 0;
  if (info.node() == nullptr) {
    return Status::Error("getting node \"" + info.name() + "\" from Snapshot: not found");
  }
  auto s = ReadPreScoreState(state);
  if (!s.ok()) return Status::Error(s.message());
  const LabelIds& labels = info.node()->label_ids;
  return ScoreWithState(
      **s, info, [&](LabelId key) { return labels.Get(key); },
      [&](size_t i) {
        return fast::CountPodsMatchSelector(info.pods(), (*s)->constraints[i], pod.namespace_id);
      },
      score);
}

Status FastPodTopologySpread::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                         int64_t* scores) {
  auto s = ReadPreScoreState(state);
  if (!s.ok()) return ScoreEachNode(*this, state, pod, nodes, scores);  // the per-node error
  // Label values and hostname counts as kept per node (NodeLabelMemo, MatchCountCache): the
  // same values, without reading each Node and its pods every cycle.
  const auto match_counts = match_counts_.ForConstraints((*s)->constraints, pod.namespace_id);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& info = *nodes[i];
    if (info.node() == nullptr)
      return ScoreEachNode(*this, state, pod, nodes, scores);  // the error
    auto hostname_count = [&](size_t c) {
      return match_counts[c]->Count(info, (*s)->constraints[c], pod.namespace_id);
    };
    Status status = ScoreWithState(
        **s, info, [&](LabelId key) { return node_labels_.Value(info, key); }, hostname_count,
        &scores[i]);
    if (!status.IsSuccess()) return status;
  }
  return Status();
}

bool FastPodTopologySpread::UniformScore(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                         int64_t* score) const {
  auto s = ReadPreScoreState(state);
  if (!s.ok() || !(*s)->constraints.empty()) return false;
  *score = 0;
  return true;
}

bool FastPodTopologySpread::UniformNormalizedScore(const CycleState& state,
                                                   [[maybe_unused]] const Pod& pod,
                                                   [[maybe_unused]] int64_t uniform,
                                                   int64_t* normalized) const {
  auto s = ReadPreScoreState(state);
  if (!s.ok() || !(*s)->ignored_nodes.empty()) return false;
  // Minimum and maximum are both the one score (the maximum starting at 0): every node gets
  // 100 * (max + min - s) / max = 100, or 100 when the maximum is 0.
  *normalized = kMaxNodeScore;
  return true;
}

Status FastPodTopologySpread::NormalizeScore(const CycleState& state,
                                             [[maybe_unused]] const Pod& pod,
                                             NodeScoreList& scores) {
  auto s = ReadPreScoreState(state);
  if (!s.ok()) return Status::Error(s.message());
  // Fewer matching pods is better: s' = 100 * (max + min - s) / max over the scored nodes.
  int64_t min_score = INT64_MAX;
  int64_t max_score = 0;
  const bool any_ignored = !(*s)->ignored_nodes.empty();
  for (const NodeScore& ns : scores) {
    if (any_ignored && (*s)->ignored_nodes.count(ns.name)) continue;
    min_score = std::min(min_score, ns.score);
    max_score = std::max(max_score, ns.score);
  }
  for (NodeScore& ns : scores) {
    if (any_ignored && (*s)->ignored_nodes.count(ns.name)) {
      ns.score = 0;
    } else if (max_score == 0) {
      ns.score = kMaxNodeScore;
    } else {
      ns.score = kMaxNodeScore * (max_score + min_score - ns.score) / max_score;
    }
  }
  return Status();
}

}  // namespace schedcheck::reference
