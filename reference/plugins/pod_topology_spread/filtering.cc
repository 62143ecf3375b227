// PodTopologySpread PreFilter, PreFilterExtensions and Filter (v1.27 filtering.go).
//
// v1.27 keys the PreFilter state by topology KEY, not by constraint: two DoNotSchedule
// constraints with the same key share one count per domain (on each node the later constraint's
// count replaces the earlier one's), one pair of critical paths and one domain count. This is
// reproduced on purpose; later releases key the state per constraint.
#include <array>
#include <climits>
#include <map>
#include <memory>
#include <utility>

#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

using pod_topology_spread::SpreadConstraint;
using TopologyPair = std::pair<std::string, std::string>;  // (key, value)

// The two smallest counts seen for a key (criticalPaths). paths[0] always holds the minimum;
// paths[1] is >= paths[0] but not necessarily the second minimum after updates.
struct CriticalPaths {
  struct Path {
    std::string value;
    int match_num = INT32_MAX;
  };
  std::array<Path, 2> paths;

  void Update(const std::string& value, int num) {
    int i = value == paths[0].value ? 0 : value == paths[1].value ? 1 : -1;
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

class PreFilterState final : public StateData {
 public:
  std::shared_ptr<const std::vector<SpreadConstraint>> constraints =
      std::make_shared<const std::vector<SpreadConstraint>>();
  std::map<std::string, CriticalPaths> key_to_critical_paths;
  // Not changed by AddPod/RemovePod (upstream shares it between clones).
  std::map<std::string, int> key_to_domains_num;
  std::map<TopologyPair, int> pair_to_match_num;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }

  // minMatchNum: the global minimum for the key, 0 while fewer than minDomains domains exist.
  // False when the key has no domain count (upstream logs and skips the constraint).
  bool MinMatchNum(const std::string& key, int32_t min_domains, int* out) const {
    auto paths = key_to_critical_paths.find(key);
    if (paths == key_to_critical_paths.end()) return false;
    auto domains = key_to_domains_num.find(key);
    if (domains == key_to_domains_num.end()) return false;
    *out = domains->second < min_domains ? 0 : paths->second.paths[0].match_num;
    return true;
  }
};

Result<PreFilterState*> ReadPreFilterState(const CycleState& state) {
  auto* s = state.ReadAs<PreFilterState>(PodTopologySpread::kPreFilterStateKey);
  if (s == nullptr) {
    return Error{"reading \"" + std::string(PodTopologySpread::kPreFilterStateKey) +
                 "\" from cycleState: not found"};
  }
  return s;
}

}  // namespace

Status PodTopologySpread::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  (void)result;
  auto constraints = GetConstraints(pod, pod_topology_spread::kDoNotSchedule);
  if (!constraints.ok()) {
    return Status::Error("obtaining pod's hard topology spread constraints: " +
                         constraints.message());
  }
  auto s = std::make_unique<PreFilterState>();
  if (constraints->empty()) {
    // v1.27 writes an empty state and returns Success (Skip arrived in v1.28).
    state.Write(std::string(kPreFilterStateKey), std::move(s));
    return Status();
  }
  s->constraints = std::make_shared<const std::vector<SpreadConstraint>>(std::move(*constraints));
  const std::vector<SpreadConstraint>& cs = *s->constraints;
  for (const NodeInfo* info : handle_.snapshot->node_infos()) {
    const Node* node = info->node();
    if (node == nullptr) continue;
    if (!pod_topology_spread::NodeLabelsMatchSpreadConstraints(node->labels(), cs)) continue;
    // Per node, a later constraint with the same key replaces the earlier one's count.
    std::map<TopologyPair, int> node_counts;
    for (const SpreadConstraint& c : cs) {
      if (!pod_topology_spread::MatchNodeInclusionPolicies(c, pod, node->obj)) continue;
      TopologyPair pair{c.topology_key, pod_topology_spread::LabelValue(node->labels(), c.topology_key)};
      node_counts[pair] = pod_topology_spread::CountPodsMatchSelector(info->pods(), c.selector, pod.ns());
    }
    for (const auto& [pair, count] : node_counts) s->pair_to_match_num[pair] += count;
  }
  for (const auto& [pair, num] : s->pair_to_match_num) s->key_to_domains_num[pair.first]++;
  for (const SpreadConstraint& c : cs) s->key_to_critical_paths[c.topology_key] = CriticalPaths{};
  // Upstream walks a Go map here (random order); the sorted order is one of its possible orders.
  // Only paths[0].match_num is read by Filter and it does not depend on the order.
  for (const auto& [pair, num] : s->pair_to_match_num) {
    s->key_to_critical_paths[pair.first].Update(pair.second, num);
  }
  state.Write(std::string(kPreFilterStateKey), std::move(s));
  return Status();
}

Status PodTopologySpread::UpdateWithPod(CycleState& state, const Pod& updated, const Pod& preemptor,
                                        const NodeInfo& info, int delta) const {
  auto s = ReadPreFilterState(state);
  if (!s.ok()) return Status::Error(s.message());
  const Node* node = info.node();
  if (updated.ns() != preemptor.ns() || node == nullptr) return Status();
  const std::vector<SpreadConstraint>& cs = *(*s)->constraints;
  if (!pod_topology_spread::NodeLabelsMatchSpreadConstraints(node->labels(), cs)) return Status();
  for (const SpreadConstraint& c : cs) {
    if (!c.selector.Matches(updated.labels())) continue;
    if (!pod_topology_spread::MatchNodeInclusionPolicies(c, preemptor, node->obj)) continue;
    TopologyPair pair{c.topology_key, pod_topology_spread::LabelValue(node->labels(), c.topology_key)};
    int& num = (*s)->pair_to_match_num[pair];
    num += delta;
    (*s)->key_to_critical_paths[c.topology_key].Update(pair.second, num);
  }
  return Status();
}

Status PodTopologySpread::AddPod(CycleState& state, const Pod& pod_to_schedule,
                                 const PodInfo& pod_to_add, const NodeInfo& node) {
  return UpdateWithPod(state, *pod_to_add.pod, pod_to_schedule, node, 1);
}

Status PodTopologySpread::RemovePod(CycleState& state, const Pod& pod_to_schedule,
                                    const PodInfo& pod_to_remove, const NodeInfo& node) {
  return UpdateWithPod(state, *pod_to_remove.pod, pod_to_schedule, node, -1);
}

Status PodTopologySpread::Filter(const CycleState& state, const Pod& pod, const NodeInfo& info) {
  const Node* node = info.node();
  if (node == nullptr) return Status::Error("node not found");
  auto s = ReadPreFilterState(state);
  if (!s.ok()) return Status::Error(s.message());
  // An empty state (no DoNotSchedule constraint) admits every node.
  for (const SpreadConstraint& c : *(*s)->constraints) {
    auto value = node->labels().find(c.topology_key);
    if (value == node->labels().end()) {
      return Status(Code::kUnschedulableAndUnresolvable, std::string(kErrReasonNodeLabelNotMatch));
    }
    int min_match = 0;
    if (!(*s)->MinMatchNum(c.topology_key, c.min_domains, &min_match)) continue;
    int self_match = c.selector.Matches(pod.labels()) ? 1 : 0;
    auto count = (*s)->pair_to_match_num.find(TopologyPair{c.topology_key, value->second});
    int match_num = count == (*s)->pair_to_match_num.end() ? 0 : count->second;
    // Skew = existing matches in the node's domain + the pod itself - global minimum.
    if (match_num + self_match - min_match > c.max_skew) {
      return Status(Code::kUnschedulable, std::string(kErrReasonConstraintsNotMatch));
    }
  }
  return Status();
}

}  // namespace schedcheck::reference
