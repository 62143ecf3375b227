#include "reference/framework/pod_group_state.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

PodPtr Member(const std::string& name, const std::string& node = "") {
  std::string yaml = "metadata: {name: " + name + ", namespace: ns, uid: " + name +
                     "}\nspec: {schedulingGroup: {podGroupName: pg}";
  if (!node.empty()) yaml += ", nodeName: " + node;
  return testing::ParsePod(yaml + "}", CompatLevel::kV1_37);
}

// kubernetes v1.37.2 pkg/scheduler/backend/cache/podgroupstate.go: a member moves from
// unscheduled to assumed (assumePod), back (forgetPod) and to assigned when bound (updatePod);
// a member added bound is assigned at once; the state goes when its last member and its object
// are gone.
TEST(PodGroupStates, MembersMoveBetweenUnscheduledAssumedAndAssigned) {
  PodGroupStates groups;
  PodPtr a = Member("a");
  groups.AddPod(a);
  groups.AddPod(Member("b", "n1"));
  groups.AddPod(testing::ParsePod("metadata: {name: c, namespace: ns, uid: c}",
                                  CompatLevel::kV1_37));  // no group: ignored
  const PodGroupState* s = groups.GetState("ns", "pg");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(groups.GetPodGroup("ns", "pg"), nullptr);  // no object yet
  EXPECT_EQ(s->AllPodsCount(), 2);
  EXPECT_EQ(s->ScheduledPodsCount(), 1);
  EXPECT_EQ(s->UnscheduledPods().size(), 1u);

  PodPtr assumed = Member("a", "n2");
  groups.AssumePod(assumed);
  EXPECT_EQ(s->ScheduledPodsCount(), 2);
  EXPECT_EQ(s->AssumedPods(), std::vector<std::string>{"a"});
  groups.ForgetPod(*assumed);
  EXPECT_TRUE(s->AssumedPods().empty());
  EXPECT_EQ(s->UnscheduledPods().size(), 1u);

  groups.AssumePod(assumed);
  groups.UpdatePod(a, assumed);  // the binding seen back
  EXPECT_TRUE(s->AssumedPods().empty());
  EXPECT_EQ(s->assigned.size(), 2u);

  k8s::PodGroup group;
  group.mutable_metadata()->set_namespace_("ns");
  group.mutable_metadata()->set_name("pg");
  groups.AddPodGroup(group);
  EXPECT_NE(groups.GetPodGroup("ns", "pg"), nullptr);
  groups.DeletePod(*assumed);
  groups.DeletePod(*Member("b", "n1"));
  EXPECT_NE(groups.GetState("ns", "pg"), nullptr);  // the object keeps it
  groups.DeletePodGroup("ns", "pg");
  EXPECT_EQ(groups.GetState("ns", "pg"), nullptr);
}

}  // namespace
}  // namespace schedcheck::reference
