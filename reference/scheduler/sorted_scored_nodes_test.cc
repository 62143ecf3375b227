#include "reference/scheduler/sorted_scored_nodes.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

std::vector<std::string> PopAll(SortedScoredNodes h) {
  std::vector<std::string> out;
  while (h.Len() > 0) out.push_back(h.Pop().name);
  return out;
}

// kubernetes v1.37.2 pkg/scheduler/framework/sorted_nodes_test.go: pops come out by descending
// total score.
TEST(SortedScoredNodesTest, PopsInDescendingScore) {
  SortedScoredNodes h({{"a", 10}, {"b", 50}, {"c", 30}, {"d", 40}, {"e", 20}});
  EXPECT_EQ(PopAll(h), (std::vector<std::string>{"b", "d", "c", "e", "a"}));
}

// Equal scores: Go's container/heap leaves the input order's first node at the root (heapify
// swaps only on strict Less), and later pops follow the heap's shape, not the input order.
TEST(SortedScoredNodesTest, TiesFollowGoHeapShape) {
  SortedScoredNodes all_equal({{"n0", 5}, {"n1", 5}, {"n2", 5}, {"n3", 5}, {"n4", 5}});
  // Pop swaps the root with the last item and sifts it down: n0, then n4 comes to the root.
  EXPECT_EQ(PopAll(all_equal), (std::vector<std::string>{"n0", "n4", "n3", "n2", "n1"}));
  // A higher score deep in the array is sifted up past equal ones.
  SortedScoredNodes h({{"n0", 1}, {"n1", 1}, {"n2", 1}, {"n3", 9}, {"n4", 9}});
  EXPECT_EQ(h.Pop().name, "n3");
}

// The fast engine's index form picks the node the heap pops first, over many shapes of ties.
TEST(SortedScoredNodesTest, FirstPopPositionIsThePopsNode) {
  std::vector<uint32_t> scratch;
  uint64_t x = 12345;  // a fixed linear congruential sequence: deterministic inputs
  for (int round = 0; round < 2000; ++round) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const size_t n = 1 + (x >> 33) % 40;
    const int64_t spread = 1 + static_cast<int64_t>((x >> 20) % 4);
    std::vector<ScoredNode> nodes;
    std::vector<int64_t> totals;
    for (size_t i = 0; i < n; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const int64_t total = static_cast<int64_t>((x >> 40) % spread);
      nodes.push_back({"n" + std::to_string(i), total});
      totals.push_back(total);
    }
    const std::string popped = SortedScoredNodes(nodes).Pop().name;
    EXPECT_EQ("n" + std::to_string(FirstPopPosition(totals, &scratch)), popped)
        << "round " << round << ", " << n << " nodes";
  }
}

}  // namespace
}  // namespace schedcheck::reference
