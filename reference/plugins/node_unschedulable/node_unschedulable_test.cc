#include "reference/plugins/node_unschedulable/node_unschedulable.h"

#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

struct Case {
  const char* name;
  const char* pod;
  const char* node;
  Code want;
};

// Modelled on upstream nodeunschedulable/node_unschedulable_test.go TestNodeUnschedulable.
TEST(NodeUnschedulable, Filter) {
  const std::vector<Case> cases = {
      {"does not schedule pod to unschedulable node", "metadata: {name: p}",
       "metadata: {name: n}\nspec: {unschedulable: true}", Code::kUnschedulableAndUnresolvable},
      {"schedules pod to schedulable node", "metadata: {name: p}",
       "metadata: {name: n}\nspec: {unschedulable: false}", Code::kSuccess},
      {"schedules pod that tolerates the unschedulable taint",
       "metadata: {name: p}\nspec: {tolerations: [{key: node.kubernetes.io/unschedulable, "
       "effect: NoSchedule}]}",
       "metadata: {name: n}\nspec: {unschedulable: true}", Code::kSuccess},
      {"Exists toleration with empty key tolerates",
       "metadata: {name: p}\nspec: {tolerations: [{operator: Exists}]}",
       "metadata: {name: n}\nspec: {unschedulable: true}", Code::kSuccess},
      {"toleration with a value does not tolerate the empty-valued taint",
       "metadata: {name: p}\nspec: {tolerations: [{key: node.kubernetes.io/unschedulable, "
       "value: x, effect: NoSchedule}]}",
       "metadata: {name: n}\nspec: {unschedulable: true}", Code::kUnschedulableAndUnresolvable},
      {"NoExecute toleration does not tolerate NoSchedule",
       "metadata: {name: p}\nspec: {tolerations: [{key: node.kubernetes.io/unschedulable, "
       "operator: Exists, effect: NoExecute}]}",
       "metadata: {name: n}\nspec: {unschedulable: true}", Code::kUnschedulableAndUnresolvable},
  };
  NodeUnschedulable pl;
  CycleState state;
  for (const Case& c : cases) {
    auto ni = testing::MakeNodeInfo(testing::ParseNode(c.node));
    Status s = pl.Filter(state, *testing::ParsePod(c.pod, CompatLevel::kV1_27), *ni);
    EXPECT_EQ(s.code(), c.want) << c.name;
    if (c.want != Code::kSuccess) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) were unschedulable"}) << c.name;
    }
  }
}

TEST(NodeUnschedulable, MissingNode) {
  NodeUnschedulable pl;
  CycleState state;
  NodeInfo ghost;
  Status s =
      pl.Filter(state, *testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27), ghost);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had unknown conditions"});
}

TEST(NodeUnschedulable, Events) {
  auto e = NodeUnschedulable().EventsToRegister();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].resource, "Node");
  EXPECT_EQ(e[0].action, action::kAdd | action::kUpdateNodeTaint);
}

}  // namespace
}  // namespace schedcheck::reference
