// ExplainAt evaluates the cluster by the run's rules: its compatibility level and its feature
// gates (a gate run with --feature-gates explains with the same gates as the replays it diffed).
#include "harness/diff/explain_at.h"

#include <gtest/gtest.h>

#include <string>

#include "nlohmann/json.hpp"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::diff {
namespace {

trace::Record PodAdded(const std::string& json) {
  trace::Record r;
  r.mutable_api()->set_type(trace::ADDED);
  auto pod = k8s::PodFromJson(nlohmann::json::parse(json), "pod");
  EXPECT_TRUE(pod.ok()) << pod.message();
  *r.mutable_api()->mutable_pod() = *pod;
  return r;
}

// A 1.37 cluster: n1 (8 cpu), then the pending pod `pod_json`.
trace::Trace ClusterWithPod(const std::string& pod_json) {
  trace::Trace cluster;
  cluster.header.set_compat("1.37");
  trace::Record node;
  node.mutable_api()->set_type(trace::ADDED);
  auto n1 = k8s::NodeFromJson(
      nlohmann::json::parse(
          R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "10"}}})"),
      "node");
  EXPECT_TRUE(n1.ok()) << n1.message();
  if (n1.ok()) *node.mutable_api()->mutable_node() = *n1;
  cluster.records.push_back(node);
  cluster.records.push_back(PodAdded(pod_json));
  return cluster;
}

TEST(ExplainAtTest, FollowsTheRunsFeatureGates) {
  // n1 has 8 cpu; q asks 1 in its container and 9 at pod level.
  const trace::Trace cluster = ClusterWithPod(
      R"({"metadata": {"name": "q", "namespace": "default"}, "spec": {"resources": {"requests": {"cpu": "9"}}, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}})");
  Divergence d;
  d.pod = "default/q";
  const std::vector<ExplainSide> sides = {{"reference", reference::DefaultConfiguration("1.37")}};

  auto by_default = ExplainAt(cluster, {}, d, sides);
  ASSERT_TRUE(by_default.ok()) << by_default.message();
  EXPECT_NE(by_default->find("outcome: unschedulable by [NodeResourcesFit]"), std::string::npos)
      << *by_default;

  ExplainOptions off;
  off.feature_gates = {{"PodLevelResources", false},
                       {"InPlacePodLevelResourcesVerticalScaling", false},
                       {"PodLevelResourcesFixDefaulting", false},
                       {"PodLevelResourcesFixKubeletQOSClass", false}};
  auto gated = ExplainAt(cluster, {}, d, sides, off);
  ASSERT_TRUE(gated.ok()) << gated.message();
  EXPECT_NE(gated->find("outcome: bound to n1"), std::string::npos) << *gated;
}

// At 1.37 a pod its profile signs may have been served by OpportunisticBatching, which the
// explanation does not rebuild: it says so. The default profile signs no pod (PodTopologySpread's
// default constraints); without PodTopologySpread it signs q; with the gate off nothing is batched.
TEST(ExplainAtTest, SaysWhenThePodCouldHaveTakenABatchHint) {
  const trace::Trace cluster = ClusterWithPod(
      R"({"metadata": {"name": "q", "namespace": "default"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}})");
  Divergence d;
  d.pod = "default/q";
  reference::SchedulerConfiguration signing = reference::DefaultConfiguration("1.37");
  std::erase_if(signing.profiles[0].at(reference::ExtensionPoint::kMultiPoint).enabled,
                [](const reference::PluginEntry& e) { return e.name == "PodTopologySpread"; });
  const std::string note = "note: this profile signs the pod (OpportunisticBatching)";

  auto by_default =
      ExplainAt(cluster, {}, d, {{"reference", reference::DefaultConfiguration("1.37")}});
  ASSERT_TRUE(by_default.ok()) << by_default.message();
  EXPECT_EQ(by_default->find(note), std::string::npos) << *by_default;

  auto signed_pod = ExplainAt(cluster, {}, d, {{"reference", signing}});
  ASSERT_TRUE(signed_pod.ok()) << signed_pod.message();
  EXPECT_NE(signed_pod->find(note), std::string::npos) << *signed_pod;

  ExplainOptions off;
  off.feature_gates = {{"OpportunisticBatching", false}};
  auto unbatched = ExplainAt(cluster, {}, d, {{"reference", signing}}, off);
  ASSERT_TRUE(unbatched.ok()) << unbatched.message();
  EXPECT_EQ(unbatched->find(note), std::string::npos) << *unbatched;
}

}  // namespace
}  // namespace schedcheck::diff
