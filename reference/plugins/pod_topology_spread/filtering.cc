// PodTopologySpread PreFilter, PreFilterExtensions and Filter (filtering.go, v1.27 and v1.37).
//
// v1.27 keys the PreFilter state by topology KEY, not by constraint: two DoNotSchedule
// constraints with the same key share one count per domain (on each node the later constraint's
// count replaces the earlier one's), one pair of critical paths and one domain count. v1.37 keys
// it by constraint (TpValueToMatchNum[i], CriticalPaths[i]) and counts a constraint's domains
// live (len(TpValueToMatchNum[i]), so AddPod can add one). Both are kept here: the state's maps
// are keyed by a count group, the topology key at v1.27 and the constraint's index at v1.37.
#include <array>
#include <climits>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace pod_topology_spread {

// criticalPaths: the two smallest counts seen for a key. paths[0] always holds the minimum;
// paths[1] is >= paths[0] but not necessarily the second minimum after updates. Like upstream,
// both paths start with the value "" (which a node's label may really have).
struct CriticalPaths {
  struct Path {
    std::string topology_value;
    int match_num = INT32_MAX;
  };
  std::array<Path, 2> paths;

  // criticalPaths.update.
  void Update(const std::string& value, int num) {
    int i = value == paths[0].topology_value ? 0 : value == paths[1].topology_value ? 1 : -1;
    if (i >= 0) {
      paths[i].match_num = num;
      if (paths[0].match_num > paths[1].match_num) std::swap(paths[0], paths[1]);
    } else if (num < paths[0].match_num) {
      paths[1] = paths[0];
      paths[0] = Path{value, num};
    } else if (num < paths[1].match_num) {
      paths[1] = Path{value, num};
    }
  }
};

// preFilterState. An empty state (no constraints) is legit and admits every node.
struct PreFilterState final : public StateData {
  // Shared by clones: they do not change.
  std::shared_ptr<const std::vector<SpreadConstraint>> constraints =
      std::make_shared<const std::vector<SpreadConstraint>>();
  // v1.37: the maps below are keyed per constraint, not per topology key.
  bool per_constraint = false;
  // By count group (Group()).
  std::map<std::string, CriticalPaths> tp_key_to_critical_paths;
  // v1.27 only; not changed by AddPod/RemovePod (upstream shares it between clones).
  std::map<std::string, int> tp_key_to_domains_num;
  // TopologyPair{group, value}.
  std::map<TopologyPair, int> tp_pair_to_match_num;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }

  // The count group of constraint i: its topology key (v1.27), or its index (v1.37; a "\x01"
  // prefix keeps it apart from every label key).
  std::string Group(size_t i) const {
    return per_constraint ? "\x01" + std::to_string(i) : (*constraints)[i].topology_key;
  }

  // minMatchNum: the global minimum of the group, 0 while fewer than minDomains domains exist.
  Result<int> MinMatchNum(const std::string& group, int32_t min_domains) const {
    auto paths = tp_key_to_critical_paths.find(group);
    if (paths == tp_key_to_critical_paths.end()) {
      return Error{"failed to retrieve path by topology key"};
    }
    int domains_num = 0;
    if (per_constraint) {
      auto first = tp_pair_to_match_num.lower_bound(TopologyPair{group, ""});
      for (auto it = first; it != tp_pair_to_match_num.end() && it->first.key == group; ++it) {
        ++domains_num;
      }
    } else {
      auto found = tp_key_to_domains_num.find(group);
      if (found == tp_key_to_domains_num.end()) {
        return Error{"failed to retrieve the number of domains by topology key"};
      }
      domains_num = found->second;
    }
    if (domains_num < min_domains) return 0;
    return paths->second.paths[0].match_num;
  }
};

namespace {

// getPreFilterState.
Result<PreFilterState*> GetPreFilterState(const CycleState& cycle_state) {
  auto* s = cycle_state.ReadAs<PreFilterState>(PodTopologySpread::kPreFilterStateKey);
  if (s == nullptr) {
    return Error{"reading \"" + std::string(PodTopologySpread::kPreFilterStateKey) +
                 "\" from cycleState: not found"};
  }
  return s;
}

// calPreFilterState's processNode: the node's count per (group, value), nothing unless it carries
// every constraint's key. At v1.27 a later constraint on the same key replaces an earlier one's
// count.
std::map<TopologyPair, int> ProcessNode(const NodeInfo& node_info, const Pod& pod,
                                        const PreFilterState& s) {
  std::map<TopologyPair, int> tp_counts;
  const std::vector<SpreadConstraint>& constraints = *s.constraints;
  const Node* node = node_info.node();
  if (node == nullptr) return tp_counts;
  if (!NodeLabelsMatchSpreadConstraints(node->labels(), constraints)) return tp_counts;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const SpreadConstraint& c = constraints[i];
    if (!MatchNodeInclusionPolicies(c, pod, *node)) continue;
    TopologyPair pair{s.Group(i), node->labels().at(c.topology_key)};
    tp_counts[pair] = CountPodsMatchSelector(node_info.pods(), c.selector, pod.ns());
  }
  return tp_counts;
}

}  // namespace
}  // namespace pod_topology_spread

using pod_topology_spread::PreFilterState;
using pod_topology_spread::SpreadConstraint;
using pod_topology_spread::TopologyPair;

Status PodTopologySpread::PreFilter(CycleState& cycle_state, const Pod& pod,
                                    [[maybe_unused]] PreFilterResult* result) {
  auto s = CalPreFilterState(pod);
  if (!s.ok()) return Status::Error(s.message());
  // v1.37: nothing to filter without a DoNotSchedule constraint (v1.27 stores the empty state).
  if (handle_.features.skip_when_nothing_to_do && (*s)->constraints->empty()) {
    return Status(Code::kSkip);
  }
  cycle_state.Write(std::string(kPreFilterStateKey), std::move(*s));
  return Status();
}

Result<std::vector<SpreadConstraint>> PodTopologySpread::GetConstraints(const Pod& pod) const {
  if (!pod.obj.spec().topology_spread_constraints().empty()) {
    auto own = pod_topology_spread::FilterTopologySpreadConstraints(
        pod.obj.spec().topology_spread_constraints(), pod.labels(),
        pod_topology_spread::kDoNotSchedule,
        handle_.features.match_label_keys_in_pod_topology_spread);
    if (!own.ok())
      return Error{"obtaining pod's hard topology spread constraints: " + own.message()};
    return own;
  }
  auto defaults = BuildDefaultConstraints(pod, pod_topology_spread::kDoNotSchedule);
  if (!defaults.ok()) {
    return Error{"setting default hard topology spread constraints: " + defaults.message()};
  }
  return defaults;
}

Result<std::unique_ptr<PreFilterState>> PodTopologySpread::CalPreFilterState(const Pod& pod) const {
  const std::vector<const NodeInfo*>& all_nodes = handle_.snapshot->node_infos();
  auto got = GetConstraints(pod);
  if (!got.ok()) return got.error();
  std::vector<SpreadConstraint> constraints = std::move(*got);
  auto s = std::make_unique<PreFilterState>();
  if (constraints.empty()) return s;

  s->constraints = std::make_shared<const std::vector<SpreadConstraint>>(std::move(constraints));
  s->per_constraint = handle_.features.spread_counts_per_constraint;
  for (const NodeInfo* node_info : all_nodes) {
    for (const auto& [pair, count] : pod_topology_spread::ProcessNode(*node_info, pod, *s)) {
      s->tp_pair_to_match_num[pair] += count;
    }
  }
  for (const auto& [pair, count] : s->tp_pair_to_match_num) s->tp_key_to_domains_num[pair.key]++;

  // Calculate the minimum match for each group. Upstream walks its values in Go map order
  // (random); we walk them in text order, one of upstream's possible orders.
  for (size_t i = 0; i < s->constraints->size(); ++i) {
    s->tp_key_to_critical_paths[s->Group(i)] = pod_topology_spread::CriticalPaths();
  }
  for (const auto& [pair, num] : s->tp_pair_to_match_num) {
    s->tp_key_to_critical_paths[pair.key].Update(pair.value, num);
  }
  return s;
}

Status PodTopologySpread::AddPod(CycleState& cycle_state, const Pod& pod_to_schedule,
                                 const PodInfo& pod_to_add, const NodeInfo& node_info) {
  auto s = pod_topology_spread::GetPreFilterState(cycle_state);
  if (!s.ok()) return Status::Error(s.message());
  UpdateWithPod(**s, *pod_to_add.pod, pod_to_schedule, node_info.node(), 1);
  return Status();
}

Status PodTopologySpread::RemovePod(CycleState& cycle_state, const Pod& pod_to_schedule,
                                    const PodInfo& pod_to_remove, const NodeInfo& node_info) {
  auto s = pod_topology_spread::GetPreFilterState(cycle_state);
  if (!s.ok()) return Status::Error(s.message());
  UpdateWithPod(**s, *pod_to_remove.pod, pod_to_schedule, node_info.node(), -1);
  return Status();
}

void PodTopologySpread::UpdateWithPod(PreFilterState& s, const Pod& updated_pod,
                                      const Pod& preemptor_pod, const Node* node, int delta) const {
  if (updated_pod.ns() != preemptor_pod.ns() || node == nullptr) return;
  if (!pod_topology_spread::NodeLabelsMatchSpreadConstraints(node->labels(), *s.constraints))
    return;
  for (size_t i = 0; i < s.constraints->size(); ++i) {
    const SpreadConstraint& c = (*s.constraints)[i];
    if (!c.selector.Matches(updated_pod.labels())) continue;
    if (!pod_topology_spread::MatchNodeInclusionPolicies(c, preemptor_pod, *node)) continue;
    TopologyPair pair{s.Group(i), node->labels().at(c.topology_key)};
    s.tp_pair_to_match_num[pair] += delta;
    s.tp_key_to_critical_paths[pair.key].Update(pair.value, s.tp_pair_to_match_num[pair]);
  }
}

Status PodTopologySpread::Filter(const CycleState& cycle_state, const Pod& pod,
                                 const NodeInfo& node_info) {
  const Node* node = node_info.node();
  if (node == nullptr) return Status::Error("node not found");
  auto s = pod_topology_spread::GetPreFilterState(cycle_state);
  if (!s.ok()) return Status::Error(s.message());
  // An empty state (no DoNotSchedule constraint) admits every node.
  const std::vector<SpreadConstraint>& constraints = *(*s)->constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const SpreadConstraint& c = constraints[i];
    const std::string group = (*s)->Group(i);
    auto tp_val = node->labels().find(c.topology_key);
    if (tp_val == node->labels().end()) {
      return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonNodeLabelNotMatch));
    }
    // 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum' <= 'maxSkew'
    Result<int> min_match_num = (*s)->MinMatchNum(group, c.min_domains);
    if (!min_match_num.ok()) continue;  // upstream logs the error and skips the constraint
    int self_match_num = c.selector.Matches(pod.labels()) ? 1 : 0;
    auto count = (*s)->tp_pair_to_match_num.find(TopologyPair{group, tp_val->second});
    int match_num = count == (*s)->tp_pair_to_match_num.end() ? 0 : count->second;
    if (match_num + self_match_num - *min_match_num > c.max_skew) {
      return Status(Code::kUnschedulable, std::string(kErrReasonConstraintsNotMatch));
    }
  }
  return Status();
}

}  // namespace schedcheck::reference
