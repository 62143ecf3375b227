#include "reference/plugins/node_resources_balanced_allocation/node_resources_balanced_allocation.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

PodPtr Pod(const std::string& name, const std::string& containers) {
  return testing::ParsePod("metadata: {name: " + name + "}\nspec: {containers: " + containers + "}",
                           CompatLevel::kV1_27);
}

std::string Req(const std::string& requests) {
  return "[{name: c, resources: {requests: " + requests + "}}]";
}

struct Case {
  std::string name;
  PodPtr pod;
  std::string node_alloc;
  std::vector<PodPtr> existing;
  int64_t want;
  nlohmann::json args = nullptr;
};

// Transcribed from upstream balanced_allocation_test.go TestNodeResourcesBalancedAllocation
// (node/pod shapes unchanged since v1.27) plus std-dev reasoning for three resources.
TEST(NodeResourcesBalancedAllocationTest, Score) {
  PodPtr big = Pod("p",
                   "[{name: a, resources: {requests: {cpu: '1000', memory: '2000'}}}, "
                   "{name: b, resources: {requests: {cpu: '2000', memory: '3000'}}}]");
  std::vector<Case> cases = {
      {"nothing scheduled, nothing requested",
       Pod("p", "[]"),
       "{cpu: '4000', memory: '10000'}",
       {},
       100},
      {"differently sized node 1", big, "{cpu: '4000', memory: '10000'}", {}, 87},
      {"differently sized node 2", big, "{cpu: '6000', memory: '10000'}", {}, 100},
      {"no request, pods with resources (node1)",
       Pod("p", "[]"),
       "{cpu: '10000', memory: '20000'}",
       {Pod("a", Req("{cpu: '3000', memory: '0'}")), Pod("b", Req("{cpu: '3000', memory: '0'}"))},
       70},
      {"no request, pods with resources (node2)",
       Pod("p", "[]"),
       "{cpu: '10000', memory: '20000'}",
       {Pod("a", Req("{cpu: '3000', memory: '0'}")),
        Pod("b", Req("{cpu: '3000', memory: '5000'}"))},
       82},
      {"requested, pods with resources",
       big,
       "{cpu: '10000', memory: '20000'}",
       {Pod("a", Req("{cpu: '3000', memory: '5000'}"))},
       95},
      // A container without requests counts 0 here (no non-zero defaults).
      {"empty requests are zero", Pod("p", "[{name: c}]"), "{cpu: '4', memory: 1Gi}", {}, 100},
      {"fraction capped at 1",
       Pod("p", Req("{cpu: '8', memory: 512Mi}")),
       "{cpu: '4', memory: 1Gi}",
       {},
       75},
      {"three resources use population std-dev",
       Pod("p", Req("{cpu: '2', memory: 256Mi, example.com/foo: '3'}")),
       "{cpu: '4', memory: 1Gi, example.com/foo: '4'}",
       {},
       79,
       {{"resources", {{{"name", "cpu"}}, {{"name", "memory"}}, {{"name", "example.com/foo"}}}}}},
      {"unrequested scalar is skipped",
       Pod("p", Req("{cpu: '2', memory: 512Mi}")),
       "{cpu: '4', memory: 1Gi, example.com/foo: '4'}",
       {},
       100,
       {{"resources", {{{"name", "cpu"}}, {{"name", "memory"}}, {{"name", "example.com/foo"}}}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto plugin =
        NodeResourcesBalancedAllocation::New(c.args, Handle{FeaturesFor(CompatLevel::kV1_27)});
    ASSERT_TRUE(plugin.ok()) << plugin.message();
    auto* score_plugin = dynamic_cast<ScorePlugin*>(plugin->get());
    auto node = testing::MakeNodeInfo(
        testing::ParseNode("metadata: {name: n}\nstatus: {allocatable: " + c.node_alloc + "}"),
        c.existing);
    CycleState state;
    int64_t score = -1;
    Status st = score_plugin->Score(state, *c.pod, *node, &score);
    ASSERT_TRUE(st.IsSuccess()) << st.DebugString();
    EXPECT_EQ(score, c.want);
  }
}

TEST(NodeResourcesBalancedAllocationTest, Args) {
  auto defaults = ParseBalancedAllocationArgs(nullptr);
  ASSERT_TRUE(defaults.ok());
  ASSERT_EQ(defaults->size(), 2u);
  EXPECT_EQ((*defaults)[0].name, "cpu");
  auto weight0 = ParseBalancedAllocationArgs({{"resources", {{{"name", "cpu"}, {"weight", 0}}}}});
  ASSERT_TRUE(weight0.ok());
  EXPECT_EQ((*weight0)[0].weight, 1);
  auto weight2 = ParseBalancedAllocationArgs({{"resources", {{{"name", "cpu"}, {"weight", 2}}}}});
  ASSERT_FALSE(weight2.ok());
  EXPECT_EQ(weight2.message(), "resources[0].weight: Invalid value: 2: must be 1");
  auto dup = ParseBalancedAllocationArgs({{"resources", {{{"name", "cpu"}}, {{"name", "cpu"}}}}});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.message(), "resources[1].name: Duplicate value: \"cpu\"");
  EXPECT_FALSE(ParseBalancedAllocationArgs({{"foo", 1}}).ok());
}

}  // namespace
}  // namespace schedcheck::reference
