// FastPodTopologySpread PreFilter, PreFilterExtensions, Filter and FilterNodes: the results of
// the plain filtering.cc (v1.27 filtering.go), from the sums kept across cycles.
//
// v1.27 keys the PreFilter state by topology KEY, not by constraint: two DoNotSchedule
// constraints with the same key share one count per domain (on each node the later constraint's
// count replaces the earlier one's), one pair of critical paths and one domain count. This is
// reproduced on purpose; later releases key the state per constraint.
#include <algorithm>
#include <array>
#include <climits>
#include <memory>
#include <utility>

#include "reference/accel/base/id_map.h"
#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"

namespace schedcheck::reference {
namespace {

using pod_topology_spread::fast::FastConstraint;
namespace fast = pod_topology_spread::fast;

LabelId EmptyValueId() {
  static const LabelId id = InternLabel("");
  return id;
}

// The two smallest counts seen for a key (criticalPaths). paths[0] always holds the minimum;
// paths[1] is >= paths[0] but not necessarily the second minimum after updates. Like upstream,
// both paths start with the value "" (which a node's label may really have).
struct CriticalPaths {
  struct Path {
    LabelId value = EmptyValueId();
    int match_num = INT32_MAX;
  };
  std::array<Path, 2> paths;

  // criticalPaths.update, as AddPod / RemovePod apply it.
  void Update(LabelId value, int num) {
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

  // PreFilter's fill: upstream calls Update for every pair of the key in Go map order (random);
  // we reproduce one of its possible orders, the values' text order. For distinct values, Update
  // in that order keeps the two smallest counts with ties going to the smaller text, which is
  // what this computes without sorting the (possibly thousands of) values.
  void Fill(const IdMap<int>& counts) {
    const std::string* text[2] = {nullptr, nullptr};  // texts of paths[0..1] once set
    auto before = [](int num, const std::string& value_text, const Path& p,
                     const std::string* p_text) {
      if (num != p.match_num) return num < p.match_num;
      return p_text != nullptr && value_text < *p_text;
    };
    counts.ForEach([&](uint64_t value_id, int num) {
      if (num > paths[1].match_num) return;  // the common case: no text needed
      LabelId value = static_cast<LabelId>(value_id);
      const std::string& value_text = LabelText(value);
      if (before(num, value_text, paths[0], text[0]) || text[0] == nullptr) {
        paths[1] = paths[0];
        text[1] = text[0];
        paths[0] = Path{value, num};
        text[0] = &value_text;
      } else if (before(num, value_text, paths[1], text[1]) || text[1] == nullptr) {
        paths[1] = Path{value, num};
        text[1] = &value_text;
      }
    });
  }
};

// Upstream's per-key maps (TpKeyToCriticalPaths, TpKeyToDomainsNum, and the TpPairToMatchNum
// entries of the key), for one topology key shared by every constraint naming it.
struct KeyCounts {
  LabelId key = kNoLabel;
  CriticalPaths critical_paths;
  // Domains found by PreFilter; not changed by AddPod/RemovePod (upstream shares it between
  // clones). 0 means the key has no domain count, and Filter skips its constraints. v1.37 keeps
  // no such count: the domains are the values counted so far, AddPod's included.
  int domains_num = 0;
  IdMap<int> value_to_match_num;
};

class FastPreFilterState final : public StateData {
 public:
  std::shared_ptr<const std::vector<FastConstraint>> constraints =
      std::make_shared<const std::vector<FastConstraint>>();
  // Per constraint: its entry in `keys`, and whether the incoming pod matches its selector.
  std::vector<int> key_index;
  std::vector<char> self_match;
  std::vector<KeyCounts> keys;
  bool per_constraint = false;  // v1.37: one KeyCounts per constraint

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<FastPreFilterState>(*this);
  }

  // minMatchNum: the global minimum for the key, 0 while fewer than minDomains domains exist.
  // False when the key has no domain count (upstream logs and skips the constraint).
  bool MinMatchNum(const KeyCounts& k, int32_t min_domains, int* out) const {
    const int domains_num =
        per_constraint ? static_cast<int>(k.value_to_match_num.size()) : k.domains_num;
    if (!per_constraint && domains_num == 0) return false;
    *out = domains_num < min_domains ? 0 : k.critical_paths.paths[0].match_num;
    return true;
  }
};

Result<FastPreFilterState*> ReadPreFilterState(const CycleState& state) {
  auto* s = state.ReadAs<FastPreFilterState>(PodTopologySpread::kPreFilterStateKey);
  if (s == nullptr) {
    return Error{"reading \"" + std::string(PodTopologySpread::kPreFilterStateKey) +
                 "\" from cycleState: not found"};
  }
  return s;
}

}  // namespace

Status FastPodTopologySpread::PreFilter(CycleState& state, const Pod& pod,
                                        [[maybe_unused]] PreFilterResult* result) {
  auto constraints = GetConstraints(pod, pod_topology_spread::kDoNotSchedule);
  if (!constraints.ok()) {
    return Status::Error("obtaining pod's hard topology spread constraints: " +
                         constraints.message());
  }
  auto s = std::make_unique<FastPreFilterState>();
  if (constraints->empty()) {
    // v1.27 writes an empty state and returns Success; v1.37 returns Skip.
    if (skip_) return Status(Code::kSkip);
    state.Write(std::string(PodTopologySpread::kPreFilterStateKey), std::move(s));
    return Status();
  }
  s->constraints = std::make_shared<const std::vector<FastConstraint>>(std::move(*constraints));
  s->per_constraint = per_constraint_;
  const std::vector<FastConstraint>& cs = *s->constraints;
  for (const FastConstraint& c : cs) {
    size_t k = 0;
    while (k < s->keys.size() && (per_constraint_ || s->keys[k].key != c.topology_key_id)) ++k;
    if (k == s->keys.size()) {
      s->keys.emplace_back();
      s->keys.back().key = c.topology_key_id;
    }
    s->key_index.push_back(static_cast<int>(k));
    s->self_match.push_back(c.Matches(pod) ? 1 : 0);
  }
  const RequiredNodeAffinity node_affinity(pod);
  const auto match_counts = match_counts_.ForConstraints(cs, pod.namespace_id);
  // One node's part, as a full pass over the nodes computes it: nothing unless the node carries
  // every constraint's key; per key, the count of the last constraint naming it that the node's
  // inclusion policies admit.
  auto contribute = [&](const NodeInfo& info, std::span<fast::NodeContribution> out) {
    const Node& node = *info.node();
    if (!fast::NodeLabelsMatchSpreadConstraints(node.label_ids, cs)) return;
    for (size_t i = 0; i < cs.size(); ++i) {
      const FastConstraint& c = cs[i];
      if (!fast::MatchNodeInclusionPolicies(c, pod, node_affinity, node)) continue;
      out[s->key_index[i]] = {node.label_ids.Get(c.topology_key_id),
                              match_counts[i]->Count(info, c, pod.namespace_id)};
    }
  };
  fast::DomainCounts& domains = domain_counts_.For("filter" + fast::DomainCountsKey(pod, cs));
  domains.Sync(*handle_.snapshot, s->keys.size(), contribute);
  for (size_t k = 0; k < s->keys.size(); ++k) {
    KeyCounts& key = s->keys[k];
    domains.Export(k, &key.value_to_match_num);
    key.domains_num = static_cast<int>(key.value_to_match_num.size());
    key.critical_paths.Fill(key.value_to_match_num);
  }
  state.Write(std::string(PodTopologySpread::kPreFilterStateKey), std::move(s));
  return Status();
}

Status FastPodTopologySpread::UpdateWithPod(CycleState& state, const Pod& updated,
                                            const Pod& preemptor, const NodeInfo& info,
                                            int delta) const {
  auto s = ReadPreFilterState(state);
  if (!s.ok()) return Status::Error(s.message());
  const Node* node = info.node();
  if (updated.namespace_id != preemptor.namespace_id || node == nullptr) return Status();
  const std::vector<FastConstraint>& cs = *(*s)->constraints;
  if (!fast::NodeLabelsMatchSpreadConstraints(node->label_ids, cs)) return Status();
  const RequiredNodeAffinity node_affinity(preemptor);
  for (size_t i = 0; i < cs.size(); ++i) {
    const FastConstraint& c = cs[i];
    if (!c.Matches(updated)) continue;
    if (!fast::MatchNodeInclusionPolicies(c, preemptor, node_affinity, *node)) continue;
    KeyCounts& k = (*s)->keys[(*s)->key_index[i]];
    LabelId value = node->label_ids.Get(c.topology_key_id);
    int& num = k.value_to_match_num[value];
    num += delta;
    k.critical_paths.Update(value, num);
  }
  return Status();
}

Status FastPodTopologySpread::AddPod(CycleState& state, const Pod& pod_to_schedule,
                                     const PodInfo& pod_to_add, const NodeInfo& node) {
  return UpdateWithPod(state, *pod_to_add.pod, pod_to_schedule, node, 1);
}

Status FastPodTopologySpread::RemovePod(CycleState& state, const Pod& pod_to_schedule,
                                        const PodInfo& pod_to_remove, const NodeInfo& node) {
  return UpdateWithPod(state, *pod_to_remove.pod, pod_to_schedule, node, -1);
}

namespace {

// Filter once the state is read: the node's domains against the DoNotSchedule constraints.
// REQUIRES: info.node() != nullptr.
Status FilterWithState(const FastPreFilterState& st, const NodeInfo& info,
                       fast::NodeLabelMemo& labels) {
  // An empty state (no DoNotSchedule constraint) admits every node.
  const std::vector<FastConstraint>& cs = *st.constraints;
  for (size_t i = 0; i < cs.size(); ++i) {
    const FastConstraint& c = cs[i];
    LabelId value = labels.Value(info, c.topology_key_id);
    if (value == kNoLabel) {
      return ConstantStatus<Code::kUnschedulableAndUnresolvable, kErrReasonNodeLabelNotMatch>();
    }
    const KeyCounts& k = st.keys[st.key_index[i]];
    int min_match = 0;
    if (!st.MinMatchNum(k, c.spec.min_domains, &min_match)) continue;
    const int* count = k.value_to_match_num.Find(value);
    int match_num = count == nullptr ? 0 : *count;
    // Skew = existing matches in the node's domain + the pod itself - global minimum.
    if (match_num + st.self_match[i] - min_match > c.spec.max_skew) {
      return ConstantStatus<Code::kUnschedulable, kErrReasonConstraintsNotMatch>();
    }
  }
  return Status();
}

}  // namespace

bool FastPodTopologySpread::FilterIgnoresPods(const CycleState& state) const {
  auto s = ReadPreFilterState(state);
  return s.ok() && (*s)->constraints->empty();
}

// The pod's selector matches were computed by PreFilter (self_match).
Status FastPodTopologySpread::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                     const NodeInfo& info) {
  if (info.node() == nullptr) return Status::Error("node not found");
  auto s = ReadPreFilterState(state);
  if (!s.ok()) return Status::Error(s.message());
  return FilterWithState(**s, info, node_labels_);
}

void FastPodTopologySpread::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                        std::vector<BatchRejection>* rejected) {
  auto s = ReadPreFilterState(state);
  if (!s.ok()) {
    FilterEachNode(*this, state, pod, nodes, rejected);  // the per-node errors
    return;
  }
  const FastPreFilterState& st = **s;
  const bool admits_all = st.constraints->empty();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node* node = nodes[i]->node();
    if (node != nullptr && admits_all) continue;
    Status status = node == nullptr ? Status::Error("node not found")
                                    : FilterWithState(st, *nodes[i], node_labels_);
    if (!status.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(status)});
  }
}

}  // namespace schedcheck::reference
