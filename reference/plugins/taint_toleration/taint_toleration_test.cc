#include "reference/plugins/taint_toleration/taint_toleration.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

std::string NodeWithTaints(const std::string& name, const std::string& taints) {
  return "metadata: {name: " + name + "}\nspec: {taints: " + taints + "}";
}
std::string PodWithTolerations(const std::string& tolerations) {
  return "metadata: {name: p}\nspec: {tolerations: " + tolerations + "}";
}

struct FilterCase {
  std::string name;
  std::string pod;
  std::string node;
  std::string want_reason;  // empty = Success
};

// Modelled on upstream tainttoleration/taint_toleration_test.go TestTaintTolerationFilter.
TEST(TaintToleration, Filter) {
  const std::vector<FilterCase> cases = {
      {"pod without tolerations, node with NoSchedule taint", "metadata: {name: p}",
       NodeWithTaints("n", "[{key: dedicated, value: user1, effect: NoSchedule}]"),
       "node(s) had untolerated taint {dedicated: user1}"},
      {"Equal toleration with matching value",
       PodWithTolerations("[{key: dedicated, value: user1, effect: NoSchedule}]"),
       NodeWithTaints("n", "[{key: dedicated, value: user1, effect: NoSchedule}]"), ""},
      {"Equal toleration with other value",
       PodWithTolerations("[{key: dedicated, operator: Equal, value: user2, effect: NoSchedule}]"),
       NodeWithTaints("n", "[{key: dedicated, value: user1, effect: NoSchedule}]"),
       "node(s) had untolerated taint {dedicated: user1}"},
      {"Exists toleration tolerates any value",
       PodWithTolerations("[{key: foo, operator: Exists, effect: NoSchedule}]"),
       NodeWithTaints("n", "[{key: foo, value: bar, effect: NoSchedule}]"), ""},
      {"first untolerated taint is reported", PodWithTolerations("[{key: a, operator: Exists}]"),
       NodeWithTaints("n",
                      "[{key: a, value: x, effect: NoSchedule}, "
                      "{key: b, value: y, effect: NoExecute}, "
                      "{key: c, value: z, effect: NoSchedule}]"),
       "node(s) had untolerated taint {b: y}"},
      {"PreferNoSchedule taints are ignored by Filter", "metadata: {name: p}",
       NodeWithTaints("n", "[{key: foo, value: bar, effect: PreferNoSchedule}]"), ""},
      {"toleration effect must match",
       PodWithTolerations("[{key: foo, operator: Exists, effect: NoSchedule}]"),
       NodeWithTaints("n", "[{key: foo, value: bar, effect: NoExecute}]"),
       "node(s) had untolerated taint {foo: bar}"},
      {"empty key with Exists tolerates everything", PodWithTolerations("[{operator: Exists}]"),
       NodeWithTaints("n", "[{key: foo, value: bar, effect: NoExecute}]"), ""},
  };
  TaintToleration pl(FeaturesFor(CompatLevel::kV1_27));
  CycleState state;
  for (const FilterCase& c : cases) {
    auto ni = testing::MakeNodeInfo(testing::ParseNode(c.node));
    Status s = pl.Filter(state, *testing::ParsePod(c.pod, CompatLevel::kV1_27), *ni);
    if (c.want_reason.empty()) {
      EXPECT_TRUE(s.IsSuccess()) << c.name << ": " << s.DebugString();
    } else {
      EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable) << c.name;
      EXPECT_EQ(s.reasons(), std::vector<std::string>{c.want_reason}) << c.name;
    }
  }
}

// Modelled on TestTaintTolerationScore: the node with the fewest untolerated PreferNoSchedule
// taints gets 100.
TEST(TaintToleration, ScoreAndNormalize) {
  auto pod = testing::ParsePod(
      PodWithTolerations(
          "[{key: cpu-type, operator: Equal, value: arm64, effect: PreferNoSchedule}]"),
      CompatLevel::kV1_27);
  std::vector<NodePtr> nodes = {
      testing::ParseNode(
          NodeWithTaints("n0", "[{key: cpu-type, value: arm64, effect: PreferNoSchedule}]")),
      testing::ParseNode(NodeWithTaints("n1",
                                        "[{key: cpu-type, value: arm64, effect: PreferNoSchedule}, "
                                        "{key: disk, value: hdd, effect: PreferNoSchedule}]")),
      testing::ParseNode(NodeWithTaints("n2",
                                        "[{key: a, value: b, effect: PreferNoSchedule}, "
                                        "{key: c, value: d, effect: PreferNoSchedule}, "
                                        "{key: e, value: f, effect: NoSchedule}]")),
  };
  std::vector<std::shared_ptr<NodeInfo>> infos;
  std::vector<const NodeInfo*> ptrs;
  for (const auto& n : nodes) {
    infos.push_back(testing::MakeNodeInfo(n));
    ptrs.push_back(infos.back().get());
  }
  TaintToleration pl(FeaturesFor(CompatLevel::kV1_27));
  CycleState state;
  ASSERT_TRUE(pl.PreScore(state, *pod, ptrs).IsSuccess());
  NodeScoreList scores;
  for (const auto* ni : ptrs) {
    int64_t s = -1;
    ASSERT_TRUE(pl.Score(state, *pod, *ni, &s).IsSuccess());
    scores.push_back({ni->name(), s});
  }
  EXPECT_EQ(scores[0].score, 0);
  EXPECT_EQ(scores[1].score, 1);
  EXPECT_EQ(scores[2].score, 2);
  ASSERT_TRUE(pl.NormalizeScore(state, *pod, scores).IsSuccess());
  EXPECT_EQ(scores[0].score, 100);
  EXPECT_EQ(scores[1].score, 50);
  EXPECT_EQ(scores[2].score, 0);
}

TEST(TaintToleration, ScoreWithoutPreScoreIsError) {
  TaintToleration pl(FeaturesFor(CompatLevel::kV1_27));
  CycleState state;
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  int64_t s = 0;
  Status st =
      pl.Score(state, *testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27), *ni, &s);
  EXPECT_EQ(st.code(), Code::kError);
  EXPECT_EQ(st.Message(), "failed to read \"PreScoreTaintToleration\" from cycleState: not found");
}

TEST(TaintToleration, FilterWithoutNodeIsError) {
  TaintToleration pl(FeaturesFor(CompatLevel::kV1_27));
  CycleState state;
  NodeInfo ghost;
  EXPECT_EQ(pl.Filter(state, *testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27), ghost)
                .code(),
            Code::kError);
}

TEST(TaintToleration, Events) {
  auto e = TaintToleration(FeaturesFor(CompatLevel::kV1_27)).EventsToRegister();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].resource, "Node");
  EXPECT_EQ(e[0].action, action::kAdd | action::kUpdate);
}

}  // namespace
}  // namespace schedcheck::reference
