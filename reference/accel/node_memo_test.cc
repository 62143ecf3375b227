#include "reference/accel/node_memo.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

TEST(NodeMemo, RemembersUntilTheNodeOrTheKeyChanges) {
  NodeInfo node(ParseNode("metadata: {name: n}"));
  node.set_name_rank(3);
  NodeMemo<int, int> memo;
  EXPECT_EQ(memo.Find(node, 1), nullptr);
  memo.Store(node, 1, 42);
  ASSERT_NE(memo.Find(node, 1), nullptr);
  EXPECT_EQ(*memo.Find(node, 1), 42);
  EXPECT_EQ(memo.Find(node, 2), nullptr);  // another key
  // A copy has the same content and generation: the value holds for it too.
  std::unique_ptr<NodeInfo> copy = node.Clone();
  ASSERT_NE(memo.Find(*copy, 1), nullptr);
  // Any change to the pods gives a new generation.
  PodPtr pod = ParsePod("metadata: {name: p}", CompatLevel::kV1_27);
  node.AddPod(MakePodInfo(pod));
  EXPECT_EQ(memo.Find(node, 1), nullptr);
  memo.Store(node, 1, 7);
  ASSERT_TRUE(node.RemovePod(*pod));
  EXPECT_EQ(memo.Find(node, 1), nullptr);
  node.RemoveNode();
  EXPECT_EQ(memo.Find(node, 1), nullptr);
}

TEST(NodeMemo, GetOrStoreComputesOncePerGeneration) {
  NodeInfo node(ParseNode("metadata: {name: n}"));
  node.set_name_rank(1);
  NodeMemo<bool, int> memo;
  int computed = 0;
  auto compute = [&] { return ++computed; };
  EXPECT_EQ(memo.GetOrStore(node, true, compute), 1);
  EXPECT_EQ(memo.GetOrStore(node, true, compute), 1);
  node.AddPod(MakePodInfo(ParsePod("metadata: {name: p}", CompatLevel::kV1_27)));
  EXPECT_EQ(memo.GetOrStore(node, true, compute), 2);
  EXPECT_EQ(computed, 2);
}

TEST(NodeMemo, ANodeTakingAnotherNodesRankDoesNotInheritItsValue) {
  NodeInfo first(ParseNode("metadata: {name: a}"));
  NodeInfo second(ParseNode("metadata: {name: b}"));
  first.set_name_rank(0);
  second.set_name_rank(0);
  NodeMemo<int, int> memo;
  memo.Store(first, 1, 5);
  EXPECT_EQ(memo.Find(second, 1), nullptr);
  NodeInfo never_set;  // generation 0: never remembered
  memo.Store(never_set, 1, 9);
  EXPECT_EQ(memo.Find(never_set, 1), nullptr);
}

}  // namespace
}  // namespace schedcheck::reference
