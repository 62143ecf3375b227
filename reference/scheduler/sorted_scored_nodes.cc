#include "reference/scheduler/sorted_scored_nodes.h"

namespace schedcheck::reference {

SortedScoredNodes::SortedScoredNodes(std::vector<ScoredNode> nodes) : items_(std::move(nodes)) {
  const size_t n = items_.size();
  for (size_t i = n / 2; i-- > 0;) Down(i, n);
}

void SortedScoredNodes::Down(size_t i0, size_t n) {
  size_t i = i0;
  while (true) {
    const size_t j1 = 2 * i + 1;
    if (j1 >= n) break;
    size_t j = j1;  // the left child
    if (const size_t j2 = j1 + 1; j2 < n && Less(j2, j1)) j = j2;
    if (!Less(j, i)) break;
    std::swap(items_[i], items_[j]);
    i = j;
  }
}

ScoredNode SortedScoredNodes::Pop() {
  const size_t n = items_.size() - 1;
  std::swap(items_[0], items_[n]);
  Down(0, n);
  ScoredNode out = std::move(items_.back());
  items_.pop_back();
  return out;
}

size_t FirstPopPosition(std::span<const int64_t> totals, std::vector<uint32_t>* scratch) {
  std::vector<uint32_t>& heap = *scratch;  // heap[k]: the position now at heap slot k
  heap.resize(totals.size());
  for (size_t k = 0; k < heap.size(); ++k) heap[k] = static_cast<uint32_t>(k);
  auto less = [&](size_t i, size_t j) { return totals[heap[i]] > totals[heap[j]]; };
  const size_t n = heap.size();
  for (size_t i0 = n / 2; i0-- > 0;) {  // heap.Init: down(i) for i = n/2-1 .. 0
    size_t i = i0;
    while (true) {
      const size_t j1 = 2 * i + 1;
      if (j1 >= n) break;
      size_t j = j1;
      if (const size_t j2 = j1 + 1; j2 < n && less(j2, j1)) j = j2;
      if (!less(j, i)) break;
      std::swap(heap[i], heap[j]);
      i = j;
    }
  }
  return heap[0];  // Pop returns the root
}

}  // namespace schedcheck::reference
