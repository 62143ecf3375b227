// The fast InterPodAffinity's topology maps: counts and scores per topology pair (topology key,
// value) with both strings interned (label_ids.h), so that Filter and Score look a node's pair up
// with one integer hash instead of building strings. ToPlain gives the plain rule's maps
// (reference/plugins/inter_pod_affinity/topology_counts.h) for comparison.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_INTERNED_TOPOLOGY_COUNTS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_INTERNED_TOPOLOGY_COUNTS_H_

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "reference/accel/base/id_map.h"
#include "reference/api/label_ids.h"
#include "reference/plugins/inter_pod_affinity/topology_counts.h"

namespace schedcheck::reference::interpodaffinity::fast {

// topologyToMatchedTermCount upstream. Upstream erases a pair whose count drops to zero, so that
// "empty" means "no matches" for the first-pod-of-a-group rule; here the entry stays with count
// 0 (Get answers 0 either way) and empty() counts the pairs whose count is not zero.
class TopologyToMatchedTermCount {
 public:
  TopologyToMatchedTermCount() = default;
  // Counts given as text (tests).
  TopologyToMatchedTermCount(std::initializer_list<std::pair<TopologyPair, int64_t>> counts);

  void Add(LabelId key, LabelId value, int64_t delta) {
    int64_t& count = counts_[PackLabelPair(key, value)];
    if (count == 0) ++non_zero_;
    count += delta;
    if (count == 0) --non_zero_;
  }
  // 0 for a pair without matches.
  int64_t Get(LabelId key, LabelId value) const {
    const int64_t* count = counts_.Find(PackLabelPair(key, value));
    return count == nullptr ? 0 : *count;
  }
  int64_t Get(const TopologyPair& pair) const;
  bool empty() const { return non_zero_ == 0; }
  void Reserve(size_t pairs) { counts_.Reserve(pairs); }
  // Same non-zero counts.
  bool operator==(const TopologyToMatchedTermCount& other) const;
  // The non-zero counts as the plain rule holds them.
  interpodaffinity::TopologyToMatchedTermCount ToPlain() const;

 private:
  IdMap<int64_t> counts_;
  size_t non_zero_ = 0;
};

// The PreScore weights: topology pair -> accumulated weight (may be negative), and the distinct
// topology keys, which Score looks up on each node.
class TopologyScores {
 public:
  void Add(LabelId key, LabelId value, int64_t weight) {
    scores_[PackLabelPair(key, value)] += weight;
    if (std::find(keys_.begin(), keys_.end(), key) == keys_.end()) keys_.push_back(key);
  }
  // The sum over the node's labels of the pairs' weights.
  int64_t Sum(const LabelIds& node_labels) const {
    int64_t sum = 0;
    for (LabelId key : keys_) {
      LabelId value = node_labels.Get(key);
      if (value == kNoLabel) continue;
      if (const int64_t* score = scores_.Find(PackLabelPair(key, value))) sum += *score;
    }
    return sum;
  }
  // True when no pair was ever added (upstream's len(topologyScore) == 0).
  bool empty() const { return scores_.empty(); }
  // Every pair ever added, with its weight, as the plain rule holds them.
  ScoreMap ToPlain() const;

 private:
  IdMap<int64_t> scores_;
  std::vector<LabelId> keys_;
};

}  // namespace schedcheck::reference::interpodaffinity::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_INTERNED_TOPOLOGY_COUNTS_H_
