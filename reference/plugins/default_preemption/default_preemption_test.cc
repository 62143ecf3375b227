#include "reference/plugins/default_preemption/default_preemption.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

TEST(DefaultPreemptionArgs, DefaultsAndValidation) {
  auto d = ParseDefaultPreemptionArgs(nullptr);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->min_candidate_nodes_percentage, 10);
  EXPECT_EQ(d->min_candidate_nodes_absolute, 100);
  struct Bad {
    nlohmann::json args;
    std::string want;
  };
  const std::vector<Bad> bad = {
      {{{"minCandidateNodesPercentage", 101}},
       "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
      {{{"minCandidateNodesAbsolute", -1}},
       "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"},
      {{{"minCandidateNodesPercentage", 0}, {"minCandidateNodesAbsolute", 0}},
       "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
       "minCandidateNodesAbsolute, "
       "minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as "
       "minCandidateNodesPercentage]"},
      {{{"bogus", 1}}, "bogus: unknown field"},
      {{{"minCandidateNodesAbsolute", "x"}}, "minCandidateNodesAbsolute: expected an integer"},
  };
  for (const Bad& b : bad) {
    auto r = ParseDefaultPreemptionArgs(b.args);
    ASSERT_FALSE(r.ok()) << b.args.dump();
    EXPECT_EQ(r.message(), b.want);
  }
}

// upstream TestCalculateNumCandidates-style table.
TEST(DefaultPreemption, CalculateNumCandidates) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  struct Case {
    int32_t pct, abs, nodes, want;
  };
  for (const Case& c : std::vector<Case>{{10, 100, 10, 10},
                                         {10, 100, 1000, 100},
                                         {40, 100, 1000, 400},
                                         {10, 100, 1, 1},
                                         {0, 1, 50, 1}}) {
    DefaultPreemption pl({c.pct, c.abs}, handle);
    EXPECT_EQ(pl.CalculateNumCandidates(c.nodes), c.want)
        << c.pct << " " << c.abs << " " << c.nodes;
  }
}

class StaticNominator : public PodNominator {
 public:
  std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const override {
    auto it = pods.find(node);
    return it == pods.end() ? std::vector<PodInfoPtr>{} : it->second;
  }
  std::map<std::string, std::vector<PodInfoPtr>> pods;
};

// A framework with NodeResourcesFit over a snapshot, as upstream's TestPostFilter builds it.
class DefaultPreemptionTest : public ::testing::Test {
 protected:
  void Build(const std::vector<std::string>& nodes, const std::vector<std::string>& pods) {
    std::vector<NodePtr> ns;
    std::vector<PodPtr> ps;
    for (const auto& n : nodes) ns.push_back(testing::ParseNode(n));
    for (const auto& p : pods) ps.push_back(testing::ParsePod(p, CompatLevel::kV1_27));
    snapshot_ = testing::MakeSnapshot(ns, ps);
    handle_.snapshot = &snapshot_;
    handle_.objects = &objects_;
    handle_.nominator = &nominator_;
    Profile profile;
    profile.at(ExtensionPoint::kMultiPoint).enabled = {{"PrioritySort", 0},
                                                       {"NodeResourcesFit", 0},
                                                       {"DefaultPreemption", 0},
                                                       {"DefaultBinder", 0}};
    auto fw = Framework::Create(profile, PluginRegistry(), &handle_);
    ASSERT_TRUE(fw.ok()) << fw.message();
    fw_ = std::move(*fw);
    handle_.framework = fw_.get();
  }
  // PreFilter, Filter on every node, then Preempt.
  PreemptionOutcome Run(const std::string& pod_yaml) {
    PodPtr pod = testing::ParsePod(pod_yaml, CompatLevel::kV1_27);
    PreFilterResult r;
    EXPECT_TRUE(fw_->RunPreFilterPlugins(state_, *pod, &r).IsSuccess());
    NodeToStatus statuses;
    for (const NodeInfo* n : snapshot_.node_infos()) {
      Status s = fw_->RunFilterPluginsWithNominatedPods(state_, *pod, *n);
      if (!s.IsSuccess()) statuses[n->name()] = s;
    }
    DefaultPreemption pl({}, handle_);
    return pl.Preempt(state_, *pod, statuses);
  }

  Snapshot snapshot_;
  ClusterObjects objects_;
  StaticNominator nominator_;
  Handle handle_{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Framework> fw_;
  CycleState state_;
};

const char* kNode1 =
    "metadata: {name: node1}\nstatus: {allocatable: {cpu: 500m, memory: '500', pods: '32'}}";
const char* kNode2 =
    "metadata: {name: node2}\nstatus: {allocatable: {cpu: 500m, memory: '500', pods: '32'}}";

TEST_F(DefaultPreemptionTest, PreemptsLowerPriorityAndReprievesSmallPod) {
  Build({kNode1, kNode2}, {"metadata: {name: small}\nspec: {nodeName: node1, priority: 0, "
                           "containers: [{name: c, resources: {requests: {cpu: 100m}}}]}",
                           "metadata: {name: big}\nspec: {nodeName: node1, priority: 100, "
                           "containers: [{name: c, resources: {requests: {cpu: 300m}}}]}",
                           "metadata: {name: top}\nspec: {nodeName: node2, priority: 5000, "
                           "containers: [{name: c, resources: {requests: {cpu: 300m}}}]}"});
  PreemptionOutcome out =
      Run("metadata: {name: p}\nspec: {priority: 1000, containers: [{name: c, resources: "
          "{requests: {cpu: 300m}}}]}");
  ASSERT_TRUE(out.status.IsSuccess()) << out.status.DebugString();
  EXPECT_EQ(out.result.nominating_info.mode, NominatingInfo::Mode::kOverride);
  EXPECT_EQ(out.result.nominating_info.nominated_node_name, "node1");
  ASSERT_EQ(out.result.victims.size(), 1u);
  EXPECT_EQ(out.result.victims[0]->name(), "big");
  ASSERT_EQ(out.best.size(), 1u);
}

TEST_F(DefaultPreemptionTest, NoCandidateClearsNominationWithFitError) {
  Build({kNode1}, {"metadata: {name: top}\nspec: {nodeName: node1, priority: 5000, containers: "
                   "[{name: c, resources: {requests: {cpu: 300m}}}]}"});
  PreemptionOutcome out =
      Run("metadata: {name: p}\nspec: {priority: 1000, containers: [{name: c, resources: "
          "{requests: {cpu: 300m}}}]}");
  EXPECT_EQ(out.status.code(), Code::kUnschedulable);
  EXPECT_EQ(out.status.Message(),
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
  EXPECT_EQ(out.result.nominating_info.mode, NominatingInfo::Mode::kOverride);
  EXPECT_EQ(out.result.nominating_info.nominated_node_name, "");
}

TEST_F(DefaultPreemptionTest, NeverPolicyLeavesNominationAlone) {
  Build({kNode1}, {"metadata: {name: v}\nspec: {nodeName: node1, containers: [{name: c, resources: "
                   "{requests: {cpu: 400m}}}]}"});
  PreemptionOutcome out =
      Run("metadata: {name: p}\nspec: {priority: 1000, preemptionPolicy: Never, containers: "
          "[{name: c, resources: {requests: {cpu: 300m}}}]}");
  EXPECT_EQ(out.status.Message(), "preemption: not eligible due to preemptionPolicy=Never.");
  EXPECT_EQ(out.result.nominating_info.mode, NominatingInfo::Mode::kNoop);
}

TEST_F(DefaultPreemptionTest, ClearsLowerPriorityNominationsAndReportsTies) {
  Build({kNode1, kNode2},
        // Victims that started at the same time: the candidates tie on every criterion (victims
        // that have not started would not: the one looked at last wins).
        {"metadata: {name: a}\nspec: {nodeName: node1, containers: [{name: c, resources: "
         "{requests: {cpu: 400m}}}]}\n"
         "status: {startTime: '2023-01-01T00:00:00Z'}",
         "metadata: {name: b}\nspec: {nodeName: node2, containers: [{name: c, resources: "
         "{requests: {cpu: 400m}}}]}\n"
         "status: {startTime: '2023-01-01T00:00:00Z'}"});
  PodPtr low = testing::ParsePod(
      "metadata: {name: n}\nspec: {priority: 1}\nstatus: {nominatedNodeName: node1}",
      CompatLevel::kV1_27);
  PodPtr high = testing::ParsePod(
      "metadata: {name: h}\nspec: {priority: 9000}\nstatus: {nominatedNodeName: node2}",
      CompatLevel::kV1_27);
  nominator_.pods["node1"] = {MakePodInfo(low)};
  nominator_.pods["node2"] = {MakePodInfo(high)};
  PreemptionOutcome out =
      Run("metadata: {name: p}\nspec: {priority: 1000, containers: [{name: c, resources: "
          "{requests: {cpu: 300m}}}]}");
  ASSERT_TRUE(out.status.IsSuccess());
  ASSERT_EQ(out.best.size(),
            2u);  // identical candidates: upstream's map order picks; here the first
  EXPECT_EQ(out.result.nominating_info.nominated_node_name, "node1");
  ASSERT_EQ(out.result.clear_nomination.size(), 1u);
  EXPECT_EQ(out.result.clear_nomination[0]->name(), "n");
  // The higher-priority nomination on node2 is never cleared.
  for (const PodPtr& p : out.result.clear_nomination) EXPECT_NE(p->name(), "h");
}

}  // namespace
}  // namespace schedcheck::reference
