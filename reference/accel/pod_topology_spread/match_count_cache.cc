#include "reference/accel/pod_topology_spread/match_count_cache.h"

#include <utility>

#include "reference/accel/base/cache_key.h"

namespace schedcheck::reference::pod_topology_spread::fast {

std::string SelectorCacheKey(const SpreadSelector& selector, LabelId ns) {
  std::string key;
  AppendKeyNumber(key, ns);
  key += selector.nothing ? 'N' : '-';
  key += selector.Empty() ? 'E' : '-';
  AppendKeySelector(key, selector.selector);
  return key;
}

int MatchCountCache::Counts::Count(const NodeInfo& info, const FastConstraint& constraint,
                                   LabelId ns) {
  const uint32_t rank = info.name_rank();
  if (rank >= by_rank_.size()) by_rank_.resize(rank + 1);
  Entry& e = by_rank_[rank];
  if (e.generation != info.generation() || info.generation() == 0) {
    e.count = CountPodsMatchSelector(info.pods(), constraint, ns);
    e.generation = info.generation();
  }
  return e.count;
}

std::shared_ptr<MatchCountCache::Counts> MatchCountCache::For(const FastConstraint& constraint,
                                                              LabelId ns) {
  std::string key = SelectorCacheKey(constraint.spec.selector, ns);
  auto it = tables_.find(key);
  if (it != tables_.end()) return it->second;
  if (tables_.size() >= kMaxTables) tables_.clear();
  auto table = std::make_shared<Counts>();
  tables_.emplace(std::move(key), table);
  return table;
}

std::vector<std::shared_ptr<MatchCountCache::Counts>> MatchCountCache::ForConstraints(
    const std::vector<FastConstraint>& constraints, LabelId ns) {
  std::vector<std::shared_ptr<Counts>> tables;
  tables.reserve(constraints.size());
  for (const FastConstraint& c : constraints) tables.push_back(For(c, ns));
  return tables;
}

LabelId NodeLabelMemo::Value(const NodeInfo& info, LabelId key) {
  size_t k = 0;
  while (k < by_key_.size() && by_key_[k].first != key) ++k;
  if (k == by_key_.size()) {
    if (by_key_.size() >= kMaxKeys) by_key_.clear();
    by_key_.emplace_back(key, NodeMemo<bool, LabelId>());
    k = by_key_.size() - 1;
  }
  return by_key_[k].second.GetOrStore(info, true, [&] { return info.node()->label_ids.Get(key); });
}

}  // namespace schedcheck::reference::pod_topology_spread::fast
