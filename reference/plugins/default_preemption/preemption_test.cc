#include "reference/plugins/default_preemption/preemption.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParsePod;

PodInfoPtr Info(const std::string& yaml) {
  return MakePodInfo(ParsePod(yaml, CompatLevel::kV1_27));
}

std::vector<std::string> Names(const std::vector<PodInfoPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->pod->name());
  return out;
}

TEST(Preemption, MoreImportantPod) {
  auto hi = ParsePod("metadata: {name: hi}\nspec: {priority: 10}", CompatLevel::kV1_27);
  auto lo = ParsePod("metadata: {name: lo}\nspec: {priority: 1}", CompatLevel::kV1_27);
  auto old = ParsePod("metadata: {name: old}\nstatus: {startTime: '2020-01-01T00:00:00Z'}",
                      CompatLevel::kV1_27);
  auto young = ParsePod("metadata: {name: young}\nstatus: {startTime: '2021-01-01T00:00:00Z'}",
                        CompatLevel::kV1_27);
  auto unstarted = ParsePod("metadata: {name: u}", CompatLevel::kV1_27);
  EXPECT_TRUE(MoreImportantPod(*hi, *lo));
  EXPECT_FALSE(MoreImportantPod(*lo, *hi));
  EXPECT_TRUE(MoreImportantPod(*old, *young));
  EXPECT_FALSE(MoreImportantPod(*young, *old));
  EXPECT_TRUE(MoreImportantPod(*young, *unstarted));  // a start time is before "now"
  EXPECT_FALSE(MoreImportantPod(*unstarted, *young));
  EXPECT_TRUE(MoreImportantPod(*unstarted, *unstarted));  // now(a) taken before now(b)
}

// GetPodStartTime reads time.Now() for a pod without a start time; in a replay that is the wall
// clock the replay stands for (epoch + virtual time), as the kube adapter's patched clock reads
// it. A recorded start later than that clock (a trace whose epoch precedes its start times, e.g.
// manifests imported without timestamps) makes the unstarted pod the more important one.
TEST(Preemption, MoreImportantPodReadsTheReplayClock) {
  auto started = ParsePod("metadata: {name: s}\nstatus: {startTime: '2023-04-27T10:00:00Z'}",
                          CompatLevel::kV1_27);
  auto unstarted = ParsePod("metadata: {name: u}", CompatLevel::kV1_27);
  const int64_t before = 0;                                    // 1970: the start is in its future
  const int64_t after = int64_t{1682589600} * 1000000000 + 1;  // 2023-04-27T10:00:00Z + 1 ns
  EXPECT_TRUE(MoreImportantPod(*unstarted, *started, before));
  EXPECT_FALSE(MoreImportantPod(*started, *unstarted, before));
  EXPECT_TRUE(MoreImportantPod(*started, *unstarted, after));
  EXPECT_FALSE(MoreImportantPod(*unstarted, *started, after));
  // At exactly the start instant, time.Now() has moved on by the time it is read.
  EXPECT_TRUE(MoreImportantPod(*started, *unstarted, after - 1));
  std::vector<PodInfoPtr> pods = {MakePodInfo(started), MakePodInfo(unstarted)};
  SortByImportance(pods, before);
  EXPECT_EQ(Names(pods), (std::vector<std::string>{"u", "s"}));
  SortByImportance(pods, after);
  EXPECT_EQ(Names(pods), (std::vector<std::string>{"s", "u"}));
}

TEST(Preemption, SortByImportanceEmulatesGoInsertionSort) {
  std::vector<PodInfoPtr> pods = {
      Info("metadata: {name: a}"),
      Info("metadata: {name: b}\nspec: {priority: 5}"),
      Info("metadata: {name: c}"),
      Info("metadata: {name: d}\nstatus: {startTime: '2020-01-01T00:00:00Z'}"),
      Info("metadata: {name: e}"),
  };
  SortByImportance(pods);
  // Priority first; among priority 0 the started pod, then unstarted ones in reverse node order.
  EXPECT_EQ(Names(pods), (std::vector<std::string>{"b", "d", "e", "c", "a"}));
}

TEST(Preemption, FilterPodsWithPdbViolation) {
  k8s::PodDisruptionBudget pdb;
  pdb.mutable_metadata()->set_name("pdb");
  pdb.mutable_metadata()->set_namespace_("default");
  (*pdb.mutable_spec()->mutable_selector()->mutable_match_labels())["app"] = "web";
  pdb.mutable_status()->set_disruptions_allowed(1);
  k8s::PodDisruptionBudget empty_selector = pdb;
  empty_selector.mutable_spec()->mutable_selector()->clear_match_labels();
  empty_selector.mutable_status()->set_disruptions_allowed(0);
  k8s::PodDisruptionBudget disrupted = pdb;
  disrupted.mutable_status()->set_disruptions_allowed(0);
  (*disrupted.mutable_status()->mutable_disrupted_pods())["w3"] = "2023-01-01T00:00:00Z";
  std::vector<PodInfoPtr> pods = {
      Info("metadata: {name: w1, labels: {app: web}}"),
      Info("metadata: {name: w2, labels: {app: web}}"),
      Info("metadata: {name: other, namespace: ns2, labels: {app: web}}"),
      Info("metadata: {name: plain}"),
  };
  std::vector<PodInfoPtr> violating, non_violating;
  FilterPodsWithPdbViolation(pods, {&pdb, &empty_selector}, &violating, &non_violating);
  EXPECT_EQ(Names(violating), (std::vector<std::string>{"w2"}));
  EXPECT_EQ(Names(non_violating), (std::vector<std::string>{"w1", "other", "plain"}));

  violating.clear(), non_violating.clear();
  FilterPodsWithPdbViolation({Info("metadata: {name: w3, labels: {app: web}}")}, {&disrupted},
                             &violating, &non_violating);
  EXPECT_TRUE(violating.empty());
}

TEST(Preemption, NodesWherePreemptionMightHelp) {
  auto n1 = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n1}"));
  auto n2 = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n2}"));
  auto n3 = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n3}"));
  NodeToStatus statuses = {{"n1", Status(Code::kUnschedulable, "x")},
                           {"n2", Status(Code::kUnschedulableAndUnresolvable, "y")}};
  NodeToStatus unhelpful;
  auto potential =
      NodesWherePreemptionMightHelp({n1.get(), n2.get(), n3.get()}, statuses, &unhelpful);
  ASSERT_EQ(potential.size(), 2u);  // n3 has no status: potential in v1.27
  EXPECT_EQ(potential[0]->name(), "n1");
  EXPECT_EQ(potential[1]->name(), "n3");
  ASSERT_EQ(unhelpful.count("n2"), 1u);
  EXPECT_EQ(unhelpful["n2"].Message(), "Preemption is not helpful for scheduling");
}

struct PickCase {
  const char* name;
  std::vector<Candidate> candidates;
  std::vector<std::string> want;  // tied best nodes
};

Candidate Cand(const std::string& node, std::vector<std::string> victim_yamls,
               int64_t violations = 0) {
  Candidate c{node, {}, violations};
  for (const auto& y : victim_yamls) c.victims.push_back(ParsePod(y, CompatLevel::kV1_27));
  return c;
}

// Modelled on upstream TestSelectBestCandidate / pickOneNodeForPreemption's criteria.
TEST(Preemption, BestCandidates) {
  const std::string p0 = "metadata: {name: a}\nspec: {priority: 0}";
  const std::string p100 = "metadata: {name: b}\nspec: {priority: 100}";
  const std::string early =
      "metadata: {name: e}\nspec: {priority: 100}\nstatus: {startTime: '2020-01-01T00:00:00Z'}";
  const std::string late =
      "metadata: {name: l}\nspec: {priority: 100}\nstatus: {startTime: '2021-01-01T00:00:00Z'}";
  const std::vector<PickCase> cases = {
      {"fewest pdb violations", {Cand("n1", {p0}, 1), Cand("n2", {p100}, 0)}, {"n2"}},
      {"lowest first victim", {Cand("n1", {p100}), Cand("n2", {p0})}, {"n2"}},
      {"smallest sum", {Cand("n1", {p100, p100}), Cand("n2", {p100, p0})}, {"n2"}},
      {"fewest victims",
       {Cand("n1", {p0, "metadata: {name: m}\nspec: {priority: -2147483648}"}), Cand("n2", {p0})},
       {"n2"}},
      {"latest start", {Cand("n1", {early}), Cand("n2", {late})}, {"n2"}},
      {"unstarted counts as latest", {Cand("n1", {late}), Cand("n2", {p100})}, {"n2"}},
      // Unstarted victims start "now", and now moves on per candidate: the last one looked at wins.
      {"unstarted: the last looked at",
       {Cand("n1", {p100}), Cand("n2", {p100}), Cand("n3", {p100})},
       {"n3"}},
      {"full tie",
       {Cand("n1", {early}), Cand("n2", {early}), Cand("n3", {early})},
       {"n1", "n2", "n3"}},
  };
  for (const PickCase& c : cases) {
    std::vector<std::string> got;
    for (const Candidate& b : BestCandidates(c.candidates)) got.push_back(b.node);
    EXPECT_EQ(got, c.want) << c.name;
  }
}

}  // namespace
}  // namespace schedcheck::reference
