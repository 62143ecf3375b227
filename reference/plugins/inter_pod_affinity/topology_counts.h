// Counts per topology pair (topology key, value) with both strings interned (label_ids.h), so
// that Filter and Score look a node's pair up with one integer hash instead of building strings.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reference/api/label_ids.h"

namespace schedcheck::reference::interpodaffinity {

struct TopologyPair {
  std::string key;
  std::string value;
  auto operator<=>(const TopologyPair&) const = default;
};

// topologyToMatchedTermCount upstream. A pair whose count drops to zero is erased, so "empty"
// keeps meaning "no matches" for the first-pod-of-a-group rule.
class TopologyToMatchedTermCount {
 public:
  TopologyToMatchedTermCount() = default;
  // Counts given as text (tests).
  TopologyToMatchedTermCount(std::initializer_list<std::pair<TopologyPair, int64_t>> counts);

  void Add(LabelId key, LabelId value, int64_t delta) {
    uint64_t pair = PackLabelPair(key, value);
    int64_t& count = counts_[pair];
    count += delta;
    if (count == 0) counts_.erase(pair);
  }
  // 0 for a pair without matches.
  int64_t Get(LabelId key, LabelId value) const {
    auto it = counts_.find(PackLabelPair(key, value));
    return it == counts_.end() ? 0 : it->second;
  }
  int64_t Get(const TopologyPair& pair) const;
  bool empty() const { return counts_.empty(); }
  bool operator==(const TopologyToMatchedTermCount&) const = default;

 private:
  std::unordered_map<uint64_t, int64_t> counts_;
};

// The PreScore weights: topology pair -> accumulated weight (may be negative), and the distinct
// topology keys, which Score looks up on each node.
class TopologyScores {
 public:
  void Add(LabelId key, LabelId value, int64_t weight) {
    auto [it, added] = scores_.try_emplace(PackLabelPair(key, value), 0);
    it->second += weight;
    if (added && std::find(keys_.begin(), keys_.end(), key) == keys_.end()) keys_.push_back(key);
  }
  // The sum over the node's labels of the pairs' weights.
  int64_t Sum(const LabelIds& node_labels) const {
    int64_t sum = 0;
    for (LabelId key : keys_) {
      LabelId value = node_labels.Get(key);
      if (value == kNoLabel) continue;
      auto it = scores_.find(PackLabelPair(key, value));
      if (it != scores_.end()) sum += it->second;
    }
    return sum;
  }
  // True when no pair was ever added (upstream's len(topologyScore) == 0).
  bool empty() const { return scores_.empty(); }

 private:
  std::unordered_map<uint64_t, int64_t> scores_;
  std::vector<LabelId> keys_;
};

}  // namespace schedcheck::reference::interpodaffinity

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_TOPOLOGY_COUNTS_H_
