#include "reference/queue/nominator.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

PodPtr MakePod(const std::string& name, const std::string& nominated = "") {
  std::string yaml =
      "metadata: {name: " + name + ", uid: " + name + "-uid}\nspec: {containers: [{name: c}]}\n";
  if (!nominated.empty()) yaml += "status: {nominatedNodeName: " + nominated + "}\n";
  return ParsePod(yaml, CompatLevel::kV1_27);
}

std::vector<std::string> Names(const std::vector<PodInfoPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p->pod->name());
  return out;
}

TEST(NominatorTest, NoopUsesStatusAndOverrideWins) {
  Nominator n;
  n.AddNominatedPod(MakePodInfo(MakePod("a")), std::nullopt);
  EXPECT_FALSE(n.NominatedNodeFor("a-uid"));
  n.AddNominatedPod(MakePodInfo(MakePod("b", "n1")), std::nullopt);
  n.AddNominatedPod(MakePodInfo(MakePod("c")),
                    NominatingInfo{NominatingInfo::Mode::kOverride, "n1"});
  EXPECT_EQ(Names(n.NominatedPodsForNode("n1")), (std::vector<std::string>{"b", "c"}));
  // Re-nominating moves the pod; it is never stored twice.
  n.AddNominatedPod(MakePodInfo(MakePod("b")),
                    NominatingInfo{NominatingInfo::Mode::kOverride, "n2"});
  EXPECT_EQ(Names(n.NominatedPodsForNode("n1")), std::vector<std::string>{"c"});
  EXPECT_EQ(Names(n.NominatedPodsForNode("n2")), std::vector<std::string>{"b"});
  n.DeleteNominatedPodIfExists(*MakePod("c"));
  EXPECT_TRUE(n.NominatedPodsForNode("n1").empty());
}

TEST(NominatorTest, UpdateKeepsInMemoryNomination) {
  Nominator n;
  n.AddNominatedPod(MakePodInfo(MakePod("p")),
                    NominatingInfo{NominatingInfo::Mode::kOverride, "n1"});
  // Neither object names a node: keep n1.
  n.UpdateNominatedPod(*MakePod("p"), MakePodInfo(MakePod("p")));
  EXPECT_EQ(n.NominatedNodeFor("p-uid"), std::optional<std::string>("n1"));
  // The new object names n2: re-derived.
  n.UpdateNominatedPod(*MakePod("p"), MakePodInfo(MakePod("p", "n2")));
  EXPECT_EQ(n.NominatedNodeFor("p-uid"), std::optional<std::string>("n2"));
  // The field removed: nomination dropped.
  n.UpdateNominatedPod(*MakePod("p", "n2"), MakePodInfo(MakePod("p")));
  EXPECT_FALSE(n.NominatedNodeFor("p-uid"));
}

TEST(NominatorTest, LookupSkipsBoundOrDeletedPods) {
  PodPtr bound =
      ParsePod("metadata: {name: p, uid: p-uid}\nspec: {nodeName: n1, containers: [{name: c}]}\n",
               CompatLevel::kV1_27);
  Nominator n([&](const std::string& key) { return key == "default/p" ? bound : nullptr; });
  n.AddNominatedPod(MakePodInfo(MakePod("p", "n1")), std::nullopt);
  n.AddNominatedPod(MakePodInfo(MakePod("q", "n1")), std::nullopt);
  EXPECT_TRUE(n.NominatedPodsForNode("n1").empty());
}

}  // namespace
}  // namespace schedcheck::reference
