// Per-node contributions to InterPodAffinity's per-cycle aggregates, remembered across cycles.
// PreFilter and PreScore walk every pod on every node each cycle to build topology-pair counts
// and scores; what one node adds depends only on the node (its labels and pods) and on what the
// cycle matches them against (the incoming pod's terms, or its labels and namespace). A NodeInfo
// takes a new, globally unique generation whenever its node or pods change (node_memo.h), so a
// node's contribution stored with its generation under a key naming everything else it depends
// on (cache_keys.h) is still right while the generation is the same: only nodes that changed
// since the last cycle are walked again. The aggregates are those upstream builds; only the
// work is saved.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CONTRIBUTION_CACHE_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CONTRIBUTION_CACHE_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/api/label_ids.h"
#include "reference/framework/node_info.h"

namespace schedcheck::reference::interpodaffinity::fast {

// One node's share of an aggregate: amounts by topology pair, pairs in the order first added.
// A pair whose amounts cancel out is kept: TopologyScores tells a pair never added from one
// added with sum 0 (upstream's len(topologyScore)). A node adds to one or two pairs in practice;
// up to kInline of them are held inside the object, so that adding up an unchanged node's
// contribution reads no memory elsewhere (one cache miss per node per cycle otherwise).
class Contribution {
 public:
  struct Entry {
    LabelId key = kNoLabel;
    LabelId value = kNoLabel;
    int64_t amount = 0;
  };
  static constexpr size_t kInline = 2;

  void Add(LabelId key, LabelId value, int64_t amount) {
    Entry* entries = size_ <= kInline ? inline_.data() : spilled_.data();
    for (size_t i = 0; i < size_; ++i) {
      if (entries[i].key == key && entries[i].value == value) {
        entries[i].amount += amount;
        return;
      }
    }
    const Entry added{key, value, amount};
    if (size_ < kInline) {
      inline_[size_] = added;
    } else {
      if (size_ == kInline) spilled_.assign(inline_.begin(), inline_.end());
      spilled_.push_back(added);
    }
    ++size_;
  }
  // Adds every pair to `sink` (a TopologyToMatchedTermCount or TopologyScores): the same sums
  // as adding the node's matches one by one.
  template <typename Sink>
  void AddTo(Sink& sink) const {
    for (const Entry& e : *this) sink.Add(e.key, e.value, e.amount);
  }
  void Clear() {
    size_ = 0;
    spilled_.clear();
  }
  size_t size() const { return size_; }
  const Entry* begin() const { return size_ <= kInline ? inline_.data() : spilled_.data(); }
  const Entry* end() const { return begin() + size_; }

 private:
  uint32_t size_ = 0;
  std::array<Entry, kInline> inline_{};
  std::vector<Entry> spilled_;  // all the pairs, when there are more than kInline
};

class ContributionCache {
 public:
  // The contributions computed under one key, by node name rank.
  class Table {
   public:
    // The contribution of `info` under this table's key: the remembered one while the node's
    // generation is unchanged, else compute(contribution) fills a cleared one, which is kept.
    template <typename Compute>
    const Contribution& Get(const NodeInfo& info, Compute&& compute) {
      const uint32_t rank = info.name_rank();
      if (rank >= by_rank_.size()) by_rank_.resize(rank + 1);
      Entry& e = by_rank_[rank];
      // Generation 0 is a NodeInfo never set up; it is never trusted.
      if (e.generation != info.generation() || info.generation() == 0) {
        e.value.Clear();
        compute(e.value);
        e.generation = info.generation();
      }
      return e.value;
    }

   private:
    struct Entry {
      int64_t generation = -1;  // none yet
      Contribution value;
    };
    std::vector<Entry> by_rank_;
  };

  // The table for `key`; the caller's reference keeps it alive while other tables come and go.
  std::shared_ptr<Table> For(const std::string& key);

 private:
  // A handful of distinct keys in a workload; beyond this many, start afresh.
  static constexpr size_t kMaxTables = 16;
  std::map<std::string, std::shared_ptr<Table>, std::less<>> tables_;
};

// Adds to `sink` the contribution of every node of `nodes` that has a Node, as remembered in
// `table`; compute(info, contribution) fills in that of a node that changed.
template <typename Sink, typename Compute>
void AccumulateContributions(const std::vector<const NodeInfo*>& nodes,
                             ContributionCache::Table& table, Sink& sink, Compute&& compute) {
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k + kPrefetchAhead < nodes.size()) PrefetchNodeInfoHead(nodes[k + kPrefetchAhead]);
    const NodeInfo& info = *nodes[k];
    if (info.node() == nullptr) continue;
    table.Get(info, [&](Contribution& c) { compute(info, c); }).AddTo(sink);
  }
}

}  // namespace schedcheck::reference::interpodaffinity::fast

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_CONTRIBUTION_CACHE_H_
