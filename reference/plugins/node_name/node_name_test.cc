#include "reference/plugins/node_name/node_name.h"

#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

struct Case {
  const char* name;
  const char* pod;
  Code want;
};

// Modelled on upstream nodename/node_name_test.go TestNodeName.
TEST(NodeName, Filter) {
  const std::vector<Case> cases = {
      {"no host specified", "metadata: {name: p}", Code::kSuccess},
      {"host matches", "metadata: {name: p}\nspec: {nodeName: foo}", Code::kSuccess},
      {"host doesn't match", "metadata: {name: p}\nspec: {nodeName: bar}",
       Code::kUnschedulableAndUnresolvable},
  };
  NodeName pl;
  CycleState state;
  auto ni = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: foo}"));
  for (const Case& c : cases) {
    Status s = pl.Filter(state, *testing::ParsePod(c.pod, CompatLevel::kV1_27), *ni);
    EXPECT_EQ(s.code(), c.want) << c.name;
    if (c.want != Code::kSuccess) {
      EXPECT_EQ(s.reasons(),
                std::vector<std::string>{"node(s) didn't match the requested node name"});
    }
  }
}

TEST(NodeName, MissingNodeIsError) {
  NodeName pl;
  CycleState state;
  NodeInfo ghost;
  Status s =
      pl.Filter(state, *testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27), ghost);
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(), "node not found");
}

TEST(NodeName, Events) {
  auto e = NodeName().EventsToRegister();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].resource, "Node");
  EXPECT_EQ(e[0].action, action::kAdd | action::kUpdate);
}

}  // namespace
}  // namespace schedcheck::reference
