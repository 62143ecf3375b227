#include "reference/scheduler/schedule_one.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// Rejects nodes whose name is listed in the label "reject" of the pod (comma-free: one name per
// label key "reject-<node>"), scores by a node label "score".
class FakeFilterScore : public QueueSortPlugin,
                        public FilterPlugin,
                        public ScorePlugin,
                        public BindPlugin {
 public:
  std::string_view Name() const override { return "Fake"; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) override {
    if (pod.labels().contains("reject-" + node.name())) {
      return Status(Code::kUnschedulable, pod.labels().at("reject-" + node.name()));
    }
    return Status();
  }
  Status Score(const CycleState&, const Pod&, const NodeInfo& node, int64_t* score) override {
    *score = std::stoll(node.node()->labels().at("score"));
    return Status();
  }
  Status Bind(CycleState&, const Pod&, const std::string&) override { return Status(); }
};

// Narrows the nodes to those named by the pod's labels "only-<node>" (a PreFilterResult).
class FakeNarrow : public PreFilterPlugin {
 public:
  std::string_view Name() const override { return "FakeNarrow"; }
  Status PreFilter(CycleState&, const Pod& pod, PreFilterResult* result) override {
    for (const auto& [key, value] : pod.labels()) {
      if (key.rfind("only-", 0) != 0) continue;
      result->all_nodes = false;
      result->node_names.insert(key.substr(5));
    }
    return Status();
  }
};

class ScheduleOneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    (void)registry_.Register("Fake", NoArgs<FakeFilterScore>());
    Profile p;
    p.at(ExtensionPoint::kMultiPoint).enabled = {{"Fake", 0}};
    fw_ = std::move(*Framework::Create(p, registry_, &handle_));
  }
  Snapshot Nodes(const std::vector<int>& scores) {
    std::vector<NodePtr> nodes;
    for (size_t i = 0; i < scores.size(); ++i) {
      nodes.push_back(ParseNode("metadata: {name: n" + std::to_string(i) + ", labels: {score: \"" +
                                std::to_string(scores[i]) + "\"}}"));
    }
    return testing::MakeSnapshot(nodes);
  }
  Registry registry_;
  Handle handle_{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw_;
};

TEST(NumFeasibleNodesToFindTest, AdaptivePercentageExamples) {
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 0, 50), 50);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 0, 150), 100);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 0, 1000), 420);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 0, 5000), 500);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 0, 6000), 300);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(std::nullopt, 100, 5000), 5000);
  EXPECT_EQ(PodScheduler::NumFeasibleNodesToFind(20, 100, 5000), 1000);
}

TEST_F(ScheduleOneTest, ReportsAllTiesAndIsDeterministicForASeed) {
  Snapshot snap = Nodes({5, 9, 3, 9, 9});
  std::string first;
  for (int run = 0; run < 2; ++run) {
    PodScheduler s(42, 0);
    CycleState state;
    ScheduleResult r =
        s.SchedulePod(*fw_, state, *ParsePod("metadata: {name: p}", CompatLevel::kV1_27), snap);
    ASSERT_EQ(r.kind, ScheduleResult::Kind::kScheduled);
    EXPECT_EQ(r.ties, (std::vector<std::string>{"n1", "n3", "n4"}));
    EXPECT_TRUE(r.node == "n1" || r.node == "n3" || r.node == "n4");
    if (run == 0) first = r.node;
    EXPECT_EQ(r.node, first);
  }
  // Across seeds every tied node gets chosen sometimes.
  std::set<std::string> chosen;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    PodScheduler s(seed, 0);
    CycleState state;
    chosen.insert(
        s.SchedulePod(*fw_, state, *ParsePod("metadata: {name: p}", CompatLevel::kV1_27), snap)
            .node);
  }
  EXPECT_EQ(chosen, (std::set<std::string>{"n1", "n3", "n4"}));
}

TEST_F(ScheduleOneTest, SingleFeasibleNodeIsChosenWithoutScoring) {
  Snapshot snap = Nodes({1, 2, 3});
  PodScheduler s(1, 0);
  CycleState state;
  ScheduleResult r =
      s.SchedulePod(*fw_, state,
                    *ParsePod("metadata: {name: p, labels: {reject-n0: no, reject-n2: nope}}",
                              CompatLevel::kV1_27),
                    snap);
  ASSERT_EQ(r.kind, ScheduleResult::Kind::kScheduled);
  EXPECT_EQ(r.node, "n1");
  EXPECT_TRUE(r.scores.empty());
  EXPECT_EQ(r.diagnosis.node_to_status.size(), 2u);
}

TEST_F(ScheduleOneTest, FitErrorCollectsStatusesAndPlugins) {
  Snapshot snap = Nodes({1, 2});
  PodScheduler s(1, 0);
  CycleState state;
  ScheduleResult r = s.SchedulePod(
      *fw_, state,
      *ParsePod("metadata: {name: p, labels: {reject-n0: no, reject-n1: no}}", CompatLevel::kV1_27),
      snap);
  ASSERT_EQ(r.kind, ScheduleResult::Kind::kFitError);
  EXPECT_EQ(r.diagnosis.unschedulable_plugins, (std::set<std::string>{"Fake"}));
  EXPECT_EQ(FitErrorMessage(r.num_all_nodes, r.diagnosis), "0/2 nodes are available: 2 no.");
}

TEST_F(ScheduleOneTest, StartIndexRotatesWhenNotAllNodesAreExamined) {
  std::vector<int> scores(200, 1);
  Snapshot snap = Nodes(scores);
  PodScheduler s(1, 10);  // 10% of 200 = 20 < 100 -> look for 100 feasible nodes
  CycleState state;
  ScheduleResult r =
      s.SchedulePod(*fw_, state, *ParsePod("metadata: {name: p}", CompatLevel::kV1_27), snap);
  EXPECT_EQ(r.feasible.size(), 100u);
  EXPECT_EQ(r.feasible.front(), "n0");
  EXPECT_EQ(s.next_start_node_index(), 100u);
  CycleState state2;
  r = s.SchedulePod(*fw_, state2, *ParsePod("metadata: {name: q}", CompatLevel::kV1_27), snap);
  EXPECT_EQ(r.feasible.front(), "n100");
  EXPECT_EQ(s.next_start_node_index(), 0u);
}

// v1.27 findNodesThatPassFilters with one worker (the replay conventions' parallelism 1) goes on
// past the 100th feasible node until the next feasible one, which cancels the search: the nodes
// rejected in between are in the diagnosis and count as processed, so nextStartNodeIndex moves by
// 100 feasible + 10 rejected; the 101st feasible node (n110) counts nowhere. (Found by the kube
// differential test's large clusters, where the reference had stopped at n99.)
TEST_F(ScheduleOneTest, FilteringGoesOnUntilTheNextFeasibleNode) {
  std::vector<int> scores(200, 1);
  Snapshot snap = Nodes(scores);
  std::string labels;
  for (int i = 100; i < 110; ++i)
    labels += (labels.empty() ? "" : ", ") + std::string("reject-n") + std::to_string(i) + ": no";
  PodScheduler s(1, 10);  // look for 100 feasible nodes
  CycleState state;
  ScheduleResult r = s.SchedulePod(
      *fw_, state, *ParsePod("metadata: {name: p, labels: {" + labels + "}}", CompatLevel::kV1_27),
      snap);
  EXPECT_EQ(r.feasible.size(), 100u);
  EXPECT_EQ(r.feasible.back(), "n99");
  EXPECT_EQ(r.evaluated_nodes, 110);
  EXPECT_EQ(s.next_start_node_index(), 110u);
}

// docs/DEVIATIONS.md "PreFilterResult node order": v1.27 findNodesThatFitPod fails on the first
// PreFilterResult name the snapshot lacks, walking a Go set (any of them upstream); the
// reference reports the first in name order.
TEST(ScheduleOnePreFilterResult, MissingNodesErrorNamesTheFirstInNameOrder) {
  Registry registry;
  (void)registry.Register("Fake", NoArgs<FakeFilterScore>());
  (void)registry.Register("FakeNarrow", NoArgs<FakeNarrow>());
  Profile p;
  p.at(ExtensionPoint::kMultiPoint).enabled = {{"Fake", 0}, {"FakeNarrow", 0}};
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw = std::move(*Framework::Create(p, registry, &handle));
  Snapshot snap =
      testing::MakeSnapshot({ParseNode("metadata: {name: n1, labels: {score: \"1\"}}")});
  PodScheduler s(1, 0);
  CycleState state;
  ScheduleResult r =
      s.SchedulePod(*fw, state,
                    *ParsePod("metadata: {name: p, labels: {only-n1: x, only-n9: x, only-n7: x}}",
                              CompatLevel::kV1_27),
                    snap);
  EXPECT_EQ(r.kind, ScheduleResult::Kind::kError);
  EXPECT_EQ(r.error_status.Message(), "nodeinfo not found for node name \"n7\"");
}

// Filters like FakeFilterScore, scores nothing.
class FakeFilterOnly : public QueueSortPlugin, public FilterPlugin, public BindPlugin {
 public:
  std::string_view Name() const override { return "FakeFilter"; }
  bool Less(const QueuedPodInfo&, const QueuedPodInfo&) const override { return false; }
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) override {
    if (pod.labels().contains("reject-" + node.name())) return Status(Code::kUnschedulable, "no");
    return Status();
  }
  Status Bind(CycleState&, const Pod&, const std::string&) override { return Status(); }
};

// v1.37 findNodesThatPassFilters: without extenders or score plugins (hasScoring false) one
// feasible node is enough; the search stops at the next feasible one. v1.27 looks for all.
TEST(ScheduleOneV1_37, WithoutScoringTheFirstFeasibleNodeIsTaken) {
  Registry registry;
  (void)registry.Register("FakeFilter", NoArgs<FakeFilterOnly>());
  Profile p;
  p.at(ExtensionPoint::kMultiPoint).enabled = {{"FakeFilter", 0}};
  Snapshot snap =
      testing::MakeSnapshot({ParseNode("metadata: {name: n0}"), ParseNode("metadata: {name: n1}"),
                             ParseNode("metadata: {name: n2}")});
  for (CompatLevel level : {CompatLevel::kV1_37, CompatLevel::kV1_27}) {
    Handle handle{FeaturesFor(level)};
    std::unique_ptr<Framework> fw = std::move(*Framework::Create(p, registry, &handle));
    PodScheduler s(1, 0);
    CycleState state;
    ScheduleResult r = s.SchedulePod(
        *fw, state, *ParsePod("metadata: {name: p, labels: {reject-n0: x}}", CompatLevel::kV1_27),
        snap);
    EXPECT_EQ(r.node, "n1");
    if (level == CompatLevel::kV1_37) {
      EXPECT_EQ(r.feasible, (std::vector<std::string>{"n1"}));
      EXPECT_EQ(r.evaluated_nodes, 2);  // n0 rejected, n1 feasible; n2 only ended the search
      EXPECT_EQ(s.next_start_node_index(), 2u);
    } else {
      EXPECT_EQ(r.feasible, (std::vector<std::string>{"n1", "n2"}));
      EXPECT_EQ(r.evaluated_nodes, 3);
    }
  }
}

TEST_F(ScheduleOneTest, NominatedNodeIsTriedFirst) {
  Snapshot snap = Nodes({1, 50, 2});
  PodScheduler s(1, 0);
  CycleState state;
  ScheduleResult r = s.SchedulePod(
      *fw_, state,
      *ParsePod("metadata: {name: p}\nstatus: {nominatedNodeName: n2}", CompatLevel::kV1_27), snap);
  EXPECT_EQ(r.node, "n2");  // feasible nominated node wins without scoring
  EXPECT_EQ(r.evaluated_nodes, 1);
}

}  // namespace
}  // namespace schedcheck::reference
