#include "reference/plugins/pod_topology_spread/domain_counts.h"

namespace schedcheck::reference::pod_topology_spread {

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
      if (position + kPrefetchAhead < nodes.size()) PrefetchNodeInfoHead(nodes[position + kPrefetchAhead]);
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

}  // namespace schedcheck::reference::pod_topology_spread
