#include "reference/cache/cache.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

NodePtr ZoneNode(const std::string& name, const std::string& zone) {
  return ParseNode("metadata: {name: " + name + ", labels: {topology.kubernetes.io/zone: " + zone +
                   "}}\nstatus: {allocatable: {cpu: 4, pods: 10}}");
}

std::vector<std::string> SnapshotOrder(Cache& cache) {
  Snapshot s;
  cache.UpdateSnapshot(&s);
  std::vector<std::string> names;
  for (const NodeInfo* n : s.node_infos()) names.push_back(n->name());
  return names;
}

TEST(NodeTreeTest, InterleavesZonesInOrderOfFirstAppearance) {
  Cache cache(FeaturesFor(CompatLevel::kV1_27));
  for (auto [n, z] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "a"}, {"a2", "a"}, {"b1", "b"}, {"a3", "a"}, {"c1", "c"}, {"b2", "b"}}) {
    ASSERT_TRUE(cache.AddNode(ZoneNode(n, z)).ok());
  }
  EXPECT_EQ(SnapshotOrder(cache), (std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "a3"}));
  ASSERT_TRUE(cache.RemoveNode("b1").ok());
  EXPECT_EQ(SnapshotOrder(cache), (std::vector<std::string>{"a1", "b2", "c1", "a2", "a3"}));
}

TEST(NodeTreeTest, ZoneChangeAloneKeepsSnapshotOrderUntilNextAddOrRemove) {
  Cache cache(FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(cache.AddNode(ZoneNode("n1", "a")).ok());
  ASSERT_TRUE(cache.AddNode(ZoneNode("n2", "a")).ok());
  ASSERT_TRUE(cache.AddNode(ZoneNode("n3", "b")).ok());
  EXPECT_EQ(SnapshotOrder(cache), (std::vector<std::string>{"n1", "n3", "n2"}));
  ASSERT_TRUE(cache.UpdateNode(ZoneNode("n1", "b")).ok());
  EXPECT_EQ(SnapshotOrder(cache), (std::vector<std::string>{"n1", "n3", "n2"}));
  ASSERT_TRUE(cache.AddNode(ZoneNode("n4", "c")).ok());
  EXPECT_EQ(SnapshotOrder(cache), (std::vector<std::string>{"n2", "n3", "n4", "n1"}));
}

TEST(CacheTest, AssumeForgetAndConfirm) {
  Cache cache(FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(cache.AddNode(ZoneNode("n1", "a")).ok());
  ASSERT_TRUE(cache.AddNode(ZoneNode("n2", "a")).ok());
  PodPtr p = ParsePod(
      "metadata: {name: p}\nspec: {nodeName: n1, containers: [{resources: {requests: {cpu: 1}}}]}",
      CompatLevel::kV1_27);
  Snapshot before;
  cache.UpdateSnapshot(&before);
  ASSERT_TRUE(cache.AssumePod(p).ok());
  EXPECT_TRUE(cache.IsAssumedPod(p->uid()));
  EXPECT_EQ(cache.GetNodeInfo("n1")->requested().milli_cpu, 1000);
  // The earlier snapshot still sees the node as it was (copy-on-write).
  EXPECT_EQ(before.Get("n1")->requested().milli_cpu, 0);
  ASSERT_TRUE(cache.ForgetPod(*p).ok());
  EXPECT_EQ(cache.GetNodeInfo("n1")->requested().milli_cpu, 0);
  EXPECT_FALSE(cache.ForgetPod(*p).ok());

  ASSERT_TRUE(cache.AssumePod(p).ok());
  ASSERT_TRUE(cache.FinishBinding(*p).ok());
  // The API reports the pod on n2: confirmation moves it.
  PodPtr bound = ParsePod(
      "metadata: {name: p}\nspec: {nodeName: n2, containers: [{resources: {requests: {cpu: 1}}}]}",
      CompatLevel::kV1_27);
  ASSERT_TRUE(cache.AddPod(bound).ok());
  EXPECT_FALSE(cache.IsAssumedPod(p->uid()));
  EXPECT_EQ(cache.GetNodeInfo("n1")->requested().milli_cpu, 0);
  EXPECT_EQ(cache.GetNodeInfo("n2")->requested().milli_cpu, 1000);
  EXPECT_FALSE(cache.AddPod(bound).ok());
}

TEST(CacheTest, RemovedNodeWithPodsBecomesGhostOutsideSnapshot) {
  Cache cache(FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(cache.AddNode(ZoneNode("n1", "a")).ok());
  PodPtr p = ParsePod("metadata: {name: p}\nspec: {nodeName: n1}", CompatLevel::kV1_27);
  ASSERT_TRUE(cache.AddPod(p).ok());
  ASSERT_TRUE(cache.RemoveNode("n1").ok());
  EXPECT_TRUE(SnapshotOrder(cache).empty());
  EXPECT_EQ(cache.GetNodeInfo("n1"), nullptr);
  ASSERT_TRUE(cache.AddNode(ZoneNode("n1", "a")).ok());
  Snapshot s;
  cache.UpdateSnapshot(&s);
  EXPECT_EQ(s.Get("n1")->pods().size(), 1u);
}

TEST(CacheTest, ImageStatesCountNodesAtAddTime) {
  Cache cache(FeaturesFor(CompatLevel::kV1_27));
  auto with_image = [](const std::string& name) {
    return ParseNode("metadata: {name: " + name +
                     "}\nstatus: {images: [{names: [img:1], sizeBytes: 500}]}");
  };
  ASSERT_TRUE(cache.AddNode(with_image("n1")).ok());
  ASSERT_TRUE(cache.AddNode(with_image("n2")).ok());
  EXPECT_EQ(cache.GetNodeInfo("n1")->image_states().at("img:1").num_nodes, 1);  // stale by design
  EXPECT_EQ(cache.GetNodeInfo("n2")->image_states().at("img:1").num_nodes, 2);
  EXPECT_EQ(cache.GetNodeInfo("n2")->image_states().at("img:1").size, 500);
}

}  // namespace
}  // namespace schedcheck::reference
