#include "reference/plugins/pod_topology_spread/match_count_cache.h"

#include <algorithm>
#include <utility>

namespace schedcheck::reference::pod_topology_spread {
namespace {

// Length-prefixed, so that no choice of label text can make two selectors' keys collide.
void Append(std::string& key, std::string_view text) {
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

}  // namespace

std::string SelectorCacheKey(const SpreadSelector& selector, LabelId ns) {
  std::string key = std::to_string(ns);
  key += selector.nothing ? 'N' : '-';
  key += selector.empty ? 'E' : '-';
  std::vector<std::pair<std::string, std::string>> labels(selector.selector.match_labels().begin(),
                                                          selector.selector.match_labels().end());
  std::sort(labels.begin(), labels.end());
  key += 'L';
  key += std::to_string(labels.size());
  for (const auto& [k, v] : labels) {
    Append(key, k);
    Append(key, v);
  }
  key += 'X';
  key += std::to_string(selector.selector.match_expressions_size());
  for (const k8s::LabelSelectorRequirement& r : selector.selector.match_expressions()) {
    Append(key, r.key());
    Append(key, r.operator_());
    key += std::to_string(r.values_size());
    for (const std::string& v : r.values()) Append(key, v);
  }
  return key;
}

int MatchCountCache::Counts::Count(const NodeInfo& info, const SpreadSelector& selector, LabelId ns) {
  const uint32_t rank = info.name_rank();
  if (rank >= by_rank_.size()) by_rank_.resize(rank + 1);
  Entry& e = by_rank_[rank];
  if (e.generation != info.generation() || info.generation() == 0) {
    e.count = CountPodsMatchSelector(info.pods(), selector, ns);
    e.generation = info.generation();
  }
  return e.count;
}

std::shared_ptr<MatchCountCache::Counts> MatchCountCache::For(const SpreadSelector& selector, LabelId ns) {
  std::string key = SelectorCacheKey(selector, ns);
  auto it = tables_.find(key);
  if (it != tables_.end()) return it->second;
  if (tables_.size() >= kMaxTables) tables_.clear();
  auto table = std::make_shared<Counts>();
  tables_.emplace(std::move(key), table);
  return table;
}

LabelId NodeLabelMemo::Value(const NodeInfo& info, LabelId key) {
  size_t k = 0;
  while (k < by_key_.size() && by_key_[k].first != key) ++k;
  if (k == by_key_.size()) {
    if (by_key_.size() >= kMaxKeys) by_key_.clear();
    by_key_.emplace_back(key, NodeMemo<bool, LabelId>());
    k = by_key_.size() - 1;
  }
  NodeMemo<bool, LabelId>& memo = by_key_[k].second;
  if (const LabelId* value = memo.Find(info, true)) return *value;
  const LabelId value = info.node()->label_ids.Get(key);
  memo.Store(info, true, value);
  return value;
}

}  // namespace schedcheck::reference::pod_topology_spread
