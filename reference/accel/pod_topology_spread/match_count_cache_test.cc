#include "reference/accel/pod_topology_spread/match_count_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "reference/testing/objects.h"

namespace schedcheck::reference::pod_topology_spread::fast {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// A DoNotSchedule constraint on `selector_yaml` (a labelSelector in YAML), compiled.
FastConstraint ConstraintOf(const std::string& selector_yaml) {
  PodPtr pod = ParsePod(
      "metadata: {name: owner}\nspec: {topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, "
      "whenUnsatisfiable: DoNotSchedule, labelSelector: " +
          selector_yaml + "}]}",
      CompatLevel::kV1_27);
  auto constraints = FilterTopologySpreadConstraints(pod->obj.spec().topology_spread_constraints(),
                                                     pod->labels(), kDoNotSchedule);
  EXPECT_TRUE(constraints.ok());
  return std::move(Compile(std::move(*constraints))[0]);
}

SpreadSelector SelectorOf(const std::string& selector_yaml) {
  return ConstraintOf(selector_yaml).spec.selector;
}

PodPtr PodWith(const std::string& name, const std::string& labels,
               const std::string& ns = "default") {
  return ParsePod("metadata: {name: " + name + ", namespace: " + ns + ", labels: " + labels + "}",
                  CompatLevel::kV1_27);
}

TEST(MatchCountCache, FollowsThePodsOfANodeAsItsGenerationChanges) {
  NodeInfo info(ParseNode("metadata: {name: n}"));
  info.set_name_rank(0);
  PodPtr a1 = PodWith("a1", "{app: a}");
  info.AddPod(MakePodInfo(a1));
  info.AddPod(MakePodInfo(PodWith("b1", "{app: b}")));
  const FastConstraint app_a = ConstraintOf("{matchLabels: {app: a}}");
  const FastConstraint app_b =
      ConstraintOf("{matchExpressions: [{key: app, operator: In, values: [b]}]}");
  const LabelId ns = a1->namespace_id;
  MatchCountCache cache;
  auto counts_a = cache.For(app_a, ns);
  EXPECT_EQ(counts_a->Count(info, app_a, ns), 1);
  EXPECT_EQ(cache.For(app_b, ns)->Count(info, app_b, ns), 1);
  info.AddPod(MakePodInfo(PodWith("a2", "{app: a}")));
  EXPECT_EQ(cache.For(app_a, ns)->Count(info, app_a, ns), 2);
  EXPECT_EQ(counts_a->Count(info, app_a, ns), 2);
  ASSERT_TRUE(info.RemovePod(*a1));
  EXPECT_EQ(cache.For(app_a, ns)->Count(info, app_a, ns), 1);
  // Another namespace is another table: nothing of it runs there.
  const LabelId other_ns = PodWith("x", "{app: a}", "other")->namespace_id;
  EXPECT_EQ(cache.For(app_a, other_ns)->Count(info, app_a, other_ns), 0);
  EXPECT_EQ(cache.For(app_a, ns)->Count(info, app_a, ns), 1);
}

TEST(MatchCountCache, TwoNodesAtOneRankDoNotShareACount) {
  // A rank can belong to another node after the node set changes; the generation tells them apart.
  NodeInfo first(ParseNode("metadata: {name: n1}"));
  NodeInfo second(ParseNode("metadata: {name: n2}"));
  first.set_name_rank(0);
  second.set_name_rank(0);
  first.AddPod(MakePodInfo(PodWith("a1", "{app: a}")));
  const FastConstraint app_a = ConstraintOf("{matchLabels: {app: a}}");
  const LabelId ns = PodWith("x", "{}")->namespace_id;
  MatchCountCache cache;
  EXPECT_EQ(cache.For(app_a, ns)->Count(first, app_a, ns), 1);
  EXPECT_EQ(cache.For(app_a, ns)->Count(second, app_a, ns), 0);
  EXPECT_EQ(cache.For(app_a, ns)->Count(first, app_a, ns), 1);
}

TEST(NodeLabelMemo, FollowsTheNodesLabels) {
  NodeInfo info(ParseNode("metadata: {name: n, labels: {zone: a}}"));
  info.set_name_rank(0);
  const LabelId zone = InternLabel("zone");
  const LabelId rack = InternLabel("rack");
  NodeLabelMemo memo;
  EXPECT_EQ(memo.Value(info, zone), InternLabel("a"));
  EXPECT_EQ(memo.Value(info, rack), kNoLabel);
  info.SetNode(ParseNode("metadata: {name: n, labels: {zone: b, rack: r1}}"));
  EXPECT_EQ(memo.Value(info, zone), InternLabel("b"));
  EXPECT_EQ(memo.Value(info, rack), InternLabel("r1"));
}

TEST(SelectorCacheKey, EqualSelectorsShareAKeyAndDifferentOnesDoNot) {
  const LabelId ns = PodWith("x", "{}")->namespace_id;
  EXPECT_EQ(SelectorCacheKey(SelectorOf("{matchLabels: {a: '1', b: '2'}}"), ns),
            SelectorCacheKey(SelectorOf("{matchLabels: {b: '2', a: '1'}}"), ns));
  EXPECT_NE(SelectorCacheKey(SelectorOf("{matchLabels: {a: '1'}}"), ns),
            SelectorCacheKey(SelectorOf("{matchLabels: {a: '2'}}"), ns));
  EXPECT_NE(SelectorCacheKey(SelectorOf("{matchLabels: {ab: c}}"), ns),
            SelectorCacheKey(SelectorOf("{matchLabels: {a: bc}}"), ns));
  EXPECT_NE(
      SelectorCacheKey(SelectorOf("{matchExpressions: [{key: a, operator: In, values: [x]}]}"), ns),
      SelectorCacheKey(SelectorOf("{matchExpressions: [{key: a, operator: NotIn, values: [x]}]}"),
                       ns));
  EXPECT_NE(SelectorCacheKey(SelectorOf("{}"), ns),
            SelectorCacheKey(SelectorOf("{matchLabels: {a: '1'}}"), ns));
  const LabelId other_ns = PodWith("x", "{}", "other")->namespace_id;
  EXPECT_NE(SelectorCacheKey(SelectorOf("{matchLabels: {a: '1'}}"), ns),
            SelectorCacheKey(SelectorOf("{matchLabels: {a: '1'}}"), other_ns));
}

}  // namespace
}  // namespace schedcheck::reference::pod_topology_spread::fast
