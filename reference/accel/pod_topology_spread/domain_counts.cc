#include "reference/accel/pod_topology_spread/domain_counts.h"

#include "reference/accel/base/cache_key.h"
#include "reference/accel/pod_topology_spread/match_count_cache.h"

namespace schedcheck::reference::pod_topology_spread::fast {

std::string DomainCountsKey(const Pod& pod, const std::vector<FastConstraint>& cs) {
  std::string key;
  bool honor_affinity = false, honor_taints = false;
  for (const FastConstraint& c : cs) {
    key += SelectorCacheKey(c.spec.selector, pod.namespace_id);
    AppendKeyNumber(key, c.topology_key_id);
    key += c.spec.honor_node_affinity ? 'A' : '-';
    key += c.spec.honor_node_taints ? 'T' : '-';
    honor_affinity |= c.spec.honor_node_affinity;
    honor_taints |= c.spec.honor_node_taints;
  }
  const k8s::PodSpec& spec = pod.obj.spec();
  if (honor_affinity) {
    key += 'S';
    AppendKeyLabels(key, spec.node_selector());
    // Node selector terms hold no map fields, so their encoding is one per content.
    const bool has_required =
        spec.has_affinity() && spec.affinity().has_node_affinity() &&
        spec.affinity().node_affinity().has_required_during_scheduling_ignored_during_execution();
    key += has_required ? 'R' : '-';
    if (has_required) {
      AppendKeyText(key, spec.affinity()
                             .node_affinity()
                             .required_during_scheduling_ignored_during_execution()
                             .SerializeAsString());
    }
  }
  if (honor_taints) {
    key += 'T';
    AppendKeyNumber(key, spec.tolerations_size());
    for (const k8s::Toleration& t : spec.tolerations()) AppendKeyText(key, t.SerializeAsString());
  }
  return key;
}

void DomainCounts::Sync(const Snapshot& snapshot, size_t num_keys, const Contribute& contribute) {
  const std::vector<const NodeInfo*>& nodes = snapshot.node_infos();
  std::span<const uint32_t> changed;
  if (num_keys == num_keys_ && by_position_.size() == nodes.size() * num_keys &&
      snapshot.ChangedSince(synced_, &changed)) {
    // A position may repeat in the log: withdrawing then applying again is the same either way.
    for (uint32_t position : changed) {
      Withdraw(position);
      Apply(*nodes[position], position, contribute);
    }
  } else {
    num_keys_ = num_keys;
    by_position_.assign(nodes.size() * num_keys, NodeContribution{});
    sums_.assign(num_keys, IdMap<Sum>());
    for (size_t position = 0; position < nodes.size(); ++position) {
      if (position + kPrefetchAhead < nodes.size())
        PrefetchNodeInfoHead(nodes[position + kPrefetchAhead]);
      Apply(*nodes[position], position, contribute);
    }
  }
  synced_ = snapshot.version();
}

void DomainCounts::Apply(const NodeInfo& info, size_t position, const Contribute& contribute) {
  std::span<NodeContribution> mine(by_position_.data() + position * num_keys_, num_keys_);
  for (NodeContribution& c : mine) c = NodeContribution{};
  if (info.node() == nullptr) return;
  contribute(info, mine);
  for (size_t k = 0; k < num_keys_; ++k) {
    if (mine[k].value == kNoLabel) continue;
    Sum& sum = sums_[k][mine[k].value];
    ++sum.nodes;
    sum.matches += mine[k].count;
  }
}

void DomainCounts::Withdraw(size_t position) {
  for (size_t k = 0; k < num_keys_; ++k) {
    const NodeContribution& c = by_position_[position * num_keys_ + k];
    if (c.value == kNoLabel) continue;
    Sum& sum = sums_[k][c.value];
    --sum.nodes;
    sum.matches -= c.count;
  }
}

int DomainCounts::Matches(size_t k, LabelId value) const {
  const Sum* sum = sums_[k].Find(value);
  return sum == nullptr ? 0 : sum->matches;
}

void DomainCounts::Export(size_t k, IdMap<int>* out) const {
  *out = IdMap<int>();
  sums_[k].ForEach([&](uint64_t value, const Sum& sum) {
    if (sum.nodes > 0) (*out)[value] = sum.matches;
  });
}

DomainCounts& DomainCountCache::For(const std::string& cycle_key) {
  auto it = tables_.find(cycle_key);
  if (it != tables_.end()) return *it->second;
  if (tables_.size() >= kMaxTables) tables_.clear();
  return *tables_.emplace(cycle_key, std::make_unique<DomainCounts>()).first->second;
}

}  // namespace schedcheck::reference::pod_topology_spread::fast
