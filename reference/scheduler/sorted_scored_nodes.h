// framework.NewSortedScoredNodes of v1.37 (framework/sorted_nodes.go): the scored nodes in a Go
// container/heap, ordered by total score, higher first. Since v1.37 has no selectHost, the host
// is the heap's first Pop: among equal top scores not a random node but the one heapify leaves at
// the root (Randomizer is 0 for every node unless an extender scored it, and schedcheck has no
// extenders). The remaining heap is what OpportunisticBatching keeps for the next pod.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_SORTED_SCORED_NODES_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_SORTED_SCORED_NODES_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reference/runtime/framework.h"

namespace schedcheck::reference {

struct ScoredNode {
  std::string name;
  int64_t total = 0;
  // The raw scores behind `total`, kept only for OpportunisticBatching's rescore.
  std::vector<RawPluginScore> raw;
};

class SortedScoredNodes {
 public:
  // heap.Init over `nodes` in the given (prioritizeNodes) order.
  explicit SortedScoredNodes(std::vector<ScoredNode> nodes);
  // heap.Pop: the root. REQUIRES: Len() > 0.
  ScoredNode Pop();
  size_t Len() const { return items_.size(); }
  // The heap's array as it is (UnorderedList).
  const std::vector<ScoredNode>& unordered() const { return items_; }

 private:
  bool Less(size_t i, size_t j) const { return items_[i].total > items_[j].total; }
  // container/heap's down(h, i0, n).
  void Down(size_t i0, size_t n);

  std::vector<ScoredNode> items_;
};

// The position in `totals` of SortedScoredNodes(nodes with these totals).Pop(): the root that
// heap.Init leaves, found by the same sift-downs over indices (no names copied). For the fast
// engine; equal to the class by sorted_scored_nodes_test. REQUIRES: totals is not empty.
size_t FirstPopPosition(std::span<const int64_t> totals, std::vector<uint32_t>* scratch);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_SORTED_SCORED_NODES_H_
