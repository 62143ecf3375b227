#include "reference/plugins/node_resources_fit/node_resources_fit.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/plugins/node_resources_fit/fit_test_objects.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using fit_testing::EnoughNode;
using fit_testing::Pod;
using testing::MakeNodeInfo;
using testing::ParseNode;

Status RunFilter(NodeResourcesFit& plugin, const PodPtr& pod, const NodeInfo& node) {
  CycleState state;
  PreFilterResult result;
  Status pre = plugin.PreFilter(state, *pod, &result);
  EXPECT_TRUE(pre.IsSuccess()) << pre.DebugString();
  return plugin.Filter(state, *pod, node);
}

std::unique_ptr<NodeResourcesFit> NewFit(const nlohmann::json& args = nullptr) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  auto p = NodeResourcesFit::New(args, handle);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.message());
  return std::unique_ptr<NodeResourcesFit>(dynamic_cast<NodeResourcesFit*>(p->release()));
}

struct FilterCase {
  std::string name;
  PodPtr pod;
  std::vector<PodPtr> existing;
  std::vector<std::string> want_reasons;  // empty = fits
  nlohmann::json args = nullptr;
  std::string pods = "32";
};

// Transcribed from kubernetes v1.27 noderesources/fit_test.go TestEnoughRequests (cases whose
// expectations v1.27 shares) and reasoning over v1.27 fitsRequest.
TEST(NodeResourcesFitTest, FilterEnoughRequests) {
  const std::string r11 = "{cpu: 1m, memory: '1'}";
  std::vector<FilterCase> cases = {
      {"no resources requested always fits",
       Pod("p", {}),
       {Pod("e", {"{cpu: 10m, memory: '20'}"})},
       {}},
      {"too many resources fails",
       Pod("p", {r11}),
       {Pod("e", {"{cpu: 10m, memory: '20'}"})},
       {"Insufficient cpu", "Insufficient memory"}},
      {"init container cpu",
       Pod("p", {r11}, {"{cpu: 3m, memory: '1'}"}),
       {Pod("e", {"{cpu: 8m, memory: '19'}"})},
       {"Insufficient cpu"}},
      {"highest init container cpu",
       Pod("p", {r11}, {"{cpu: 3m, memory: '1'}", "{cpu: 2m, memory: '1'}"}),
       {Pod("e", {"{cpu: 8m, memory: '19'}"})},
       {"Insufficient cpu"}},
      {"init container memory",
       Pod("p", {r11}, {"{cpu: 1m, memory: '3'}"}),
       {Pod("e", {"{cpu: 9m, memory: '19'}"})},
       {"Insufficient memory"}},
      {"fits due to init container cpu",
       Pod("p", {r11}, {r11}),
       {Pod("e", {"{cpu: 9m, memory: '19'}"})},
       {}},
      {"both resources fit", Pod("p", {r11}), {Pod("e", {"{cpu: 5m, memory: '5'}"})}, {}},
      {"one resource memory fits",
       Pod("p", {"{cpu: 2m, memory: '1'}"}),
       {Pod("e", {"{cpu: 9m, memory: '5'}"})},
       {"Insufficient cpu"}},
      {"equal edge case",
       Pod("p", {"{cpu: 5m, memory: '1'}"}),
       {Pod("e", {"{cpu: 5m, memory: '19'}"})},
       {}},
      {"extended resource fits", Pod("p", {"{example.com/aaa: '1'}"}), {}, {}},
      {"extended resource capacity enforced",
       Pod("p", {"{example.com/aaa: '10'}"}),
       {},
       {"Insufficient example.com/aaa"}},
      {"extended resource allocatable enforced",
       Pod("p", {"{example.com/aaa: '1'}"}),
       {Pod("e", {"{example.com/aaa: '5'}"})},
       {"Insufficient example.com/aaa"}},
      {"unknown extended resource",
       Pod("p", {"{example.com/bbb: '1'}"}),
       {},
       {"Insufficient example.com/bbb"}},
      {"kubernetes.io resource enforced",
       Pod("p", {"{kubernetes.io/something: '1'}"}),
       {},
       {"Insufficient kubernetes.io/something"}},
      {"hugepages enforced",
       Pod("p", {"{hugepages-2Mi: '10'}"}),
       {},
       {"Insufficient hugepages-2Mi"}},
      {"ignored extended resource",
       Pod("p", {"{example.com/bbb: '2'}"}),
       {},
       {},
       nlohmann::json{{"ignoredResources", {"example.com/bbb"}}}},
      {"ignored resource group",
       Pod("p", {"{example.com/bbb: '2'}"}),
       {},
       {},
       nlohmann::json{{"ignoredResourceGroups", {"example.com"}}}},
      {"ignoredResources never covers hugepages",
       Pod("p", {"{hugepages-2Mi: '10'}"}),
       {},
       {"Insufficient hugepages-2Mi"},
       nlohmann::json{{"ignoredResources", {"hugepages-2Mi"}}}},
      {"resources + pod count fails",
       Pod("p", {r11}),
       {Pod("e", {"{cpu: 10m, memory: '10'}"})},
       {"Too many pods", "Insufficient cpu"},
       nullptr,
       "1"},
      {"pod count only, empty request",
       Pod("p", {}),
       {Pod("e", {})},
       {"Too many pods"},
       nullptr,
       "1"},
      {"ephemeral storage exceeds",
       Pod("p", {"{ephemeral-storage: '25'}"}),
       {},
       {"Insufficient ephemeral-storage"}},
      {"overhead counts",
       Pod("p", {r11}, {}, "{cpu: 5m}"),
       {Pod("e", {"{cpu: 5m}"})},
       {"Insufficient cpu"}},
      // v1.27: a zero request is still compared; the node is already over-committed on cpu.
      {"zero cpu request on overcommitted node",
       Pod("p", {"{cpu: '0', memory: '1'}"}),
       {Pod("e", {"{cpu: 11m}"})},
       {"Insufficient cpu"}},
      // v1.27.8 fitsRequest skips a zero scalar request ("Skip in case request quantity is
      // zero"), although the node is over its allocatable of it...
      {"scalar listed with zero is skipped",
       Pod("p", {"{example.com/aaa: '0'}"}),
       {Pod("e", {"{example.com/aaa: '6'}"})},
       {}},
      // ... but the zero entry still makes the request not all zero, so cpu is compared (and the
      // node is over-committed on cpu). An init container's zero entry counts too
      // (maxResourceList enters every resource it names).
      {"zero scalar request still compares cpu",
       Pod("p", {"{example.com/aaa: '0'}"}),
       {Pod("e", {"{cpu: 11m}"})},
       {"Insufficient cpu"}},
      {"init container's zero scalar still compares cpu",
       Pod("p", {"{}"}, {"{example.com/aaa: '0'}"}),
       {Pod("e", {"{cpu: 11m}"})},
       {"Insufficient cpu"}},
  };
  for (const FilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto node = MakeNodeInfo(EnoughNode(c.pods), c.existing);
    auto plugin = NewFit(c.args);
    Status got = RunFilter(*plugin, c.pod, *node);
    if (c.want_reasons.empty()) {
      EXPECT_TRUE(got.IsSuccess()) << got.DebugString();
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulable);
      EXPECT_EQ(got.reasons(), c.want_reasons);
    }
  }
}

TEST(NodeResourcesFitTest, FilterWithoutPreFilterIsError) {
  auto plugin = NewFit();
  CycleState state;
  auto node = MakeNodeInfo(EnoughNode());
  Status got = plugin->Filter(state, *Pod("p", {}), *node);
  EXPECT_EQ(got.code(), Code::kError);
  EXPECT_EQ(got.Message(),
            "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
}

TEST(NodeResourcesFitTest, FitsIgnoresNothing) {
  auto node = MakeNodeInfo(EnoughNode());
  std::vector<InsufficientResource> got = Fits(*Pod("p", {"{example.com/bbb: '2', cpu: 11m}"}),
                                               *node, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].resource_name, "cpu");
  EXPECT_EQ(got[0].requested, 11);
  EXPECT_EQ(got[0].capacity, 10);
  EXPECT_EQ(got[1].reason, "Insufficient example.com/bbb");
}

TEST(NodeResourcesFitTest, EventsToRegister) {
  auto events = NewFit()->EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].resource, "Pod");
  EXPECT_EQ(events[0].action, action::kDelete);
  EXPECT_EQ(events[1].resource, "Node");
  EXPECT_EQ(events[1].action, action::kAdd | action::kUpdate);
}

struct ArgsCase {
  std::string name;
  nlohmann::json args;
  std::string want_error;  // substring; empty = valid
};

TEST(NodeResourcesFitTest, ArgsValidation) {
  std::vector<ArgsCase> cases = {
      {"null", nullptr, ""},
      {"empty strategy type",
       {{"scoringStrategy", {{"resources", {{{"name", "cpu"}}}}}}},
       "scoringStrategy.type: Unsupported value"},
      {"weight 0 defaults to 1",
       {{"scoringStrategy",
         {{"type", "MostAllocated"}, {"resources", {{{"name", "cpu"}, {"weight", 0}}}}}}},
       ""},
      {"negative weight",
       {{"scoringStrategy",
         {{"type", "LeastAllocated"},
          {"resources",
           {{{"name", "memory"}, {"weight", -1}}, {{"name", "cpu"}, {"weight", 1}}}}}}},
       "scoringStrategy.resources[0].weight"},
      {"weight over 100",
       {{"scoringStrategy",
         {{"type", "LeastAllocated"}, {"resources", {{{"name", "cpu"}, {"weight", 101}}}}}}},
       "scoringStrategy.resources[0].weight"},
      {"group with slash",
       {{"ignoredResourceGroups", {"example.com/aaa"}}},
       "ignoredResourceGroups[0]"},
      {"bad resource name", {{"ignoredResources", {"-bad"}}}, "ignoredResources[0]"},
      {"unknown field", {{"foo", 1}}, "foo: unknown field"},
      {"empty shape",
       {{"scoringStrategy",
         {{"type", "RequestedToCapacityRatio"},
          {"requestedToCapacityRatio", {{"shape", nlohmann::json::array()}}}}}},
       "scoringStrategy.shape: Required value"},
      {"unsorted shape",
       {{"scoringStrategy",
         {{"type", "RequestedToCapacityRatio"},
          {"requestedToCapacityRatio",
           {{"shape",
             {{{"utilization", 10}, {"score", 1}}, {{"utilization", 10}, {"score", 2}}}}}}}}},
       "scoringStrategy.shape[1].utilization"},
      {"score over 10",
       {{"scoringStrategy",
         {{"type", "RequestedToCapacityRatio"},
          {"requestedToCapacityRatio", {{"shape", {{{"utilization", 10}, {"score", 11}}}}}}}}},
       "scoringStrategy.shape[0].score"},
      {"utilization over 100",
       {{"scoringStrategy",
         {{"type", "RequestedToCapacityRatio"},
          {"requestedToCapacityRatio", {{"shape", {{{"utilization", 101}, {"score", 1}}}}}}}}},
       "scoringStrategy.shape[0].utilization"},
  };
  for (const ArgsCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = ParseNodeResourcesFitArgs(c.args, FeaturesFor(CompatLevel::kV1_27));
    if (c.want_error.empty()) {
      EXPECT_TRUE(got.ok()) << (got.ok() ? "" : got.message());
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_NE(got.message().find(c.want_error), std::string::npos) << got.message();
    }
  }
  // The same unsorted shape at v1.37: validation_pluginargs.go there reports it under
  // requestedToCapacityRatio.shape and words it "values must be sorted in increasing order".
  const nlohmann::json unsorted = {
      {"scoringStrategy",
       {{"type", "RequestedToCapacityRatio"},
        {"requestedToCapacityRatio",
         {{"shape",
           {{{"utilization", 10}, {"score", 1}}, {{"utilization", 10}, {"score", 2}}}}}}}}};
  auto at_1_27 = ParseNodeResourcesFitArgs(unsorted, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_FALSE(at_1_27.ok());
  EXPECT_EQ(at_1_27.message(),
            "scoringStrategy.shape[1].utilization: Invalid value: 10: utilization values must be "
            "sorted in increasing order");
  auto at_1_37 = ParseNodeResourcesFitArgs(unsorted, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_FALSE(at_1_37.ok());
  EXPECT_EQ(at_1_37.message(),
            "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: "
            "values must be sorted in increasing order");
  auto defaulted = ParseNodeResourcesFitArgs(
      {{"scoringStrategy", {{"type", "MostAllocated"}, {"resources", {{{"name", "cpu"}}}}}}},
      FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(defaulted.ok());
  ASSERT_EQ(defaulted->resources.size(), 1u);
  EXPECT_EQ(defaulted->resources[0].weight, 1);
  auto no_resources = ParseNodeResourcesFitArgs({{"scoringStrategy", {{"type", "MostAllocated"}}}},
                                                FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(no_resources.ok());
  EXPECT_EQ(no_resources->resources.size(), 2u);
}

struct ScoreCase {
  std::string name;
  PodPtr pod;
  std::vector<std::string> node_alloc;  // one allocatable map per node
  std::vector<std::vector<PodPtr>> existing;
  std::vector<int64_t> want;
  nlohmann::json args = nullptr;
};

// Transcribed from upstream least_allocated_test.go, most_allocated_test.go and
// requested_to_capacity_ratio_test.go (cases unchanged since v1.27).
TEST(NodeResourcesFitTest, Score) {
  const std::string pod_req2 = "{cpu: '1000', memory: '2000'}";
  const std::string pod_req3 = "{cpu: '2000', memory: '3000'}";
  nlohmann::json most = {{"scoringStrategy", {{"type", "MostAllocated"}}}};
  std::vector<ScoreCase> cases = {
      {"least: differently sized nodes",
       Pod("p", {pod_req2, pod_req3}),
       {"{cpu: '4000', memory: '10000'}", "{cpu: '6000', memory: '10000'}"},
       {{}, {}},
       {37, 50}},
      {"least: no requests, pods scheduled with resources",
       Pod("p", {}),
       {"{cpu: '10000', memory: '20000'}", "{cpu: '10000', memory: '20000'}"},
       {{Pod("a", {"{cpu: '3000', memory: '0'}"}), Pod("b", {"{cpu: '3000', memory: '0'}"})},
        {Pod("c", {"{cpu: '3000', memory: '0'}"}), Pod("d", {"{cpu: '3000', memory: '5000'}"})}},
       {70, 57}},
      {"least: exceeds capacity",
       Pod("p", {"{cpu: '3000', memory: '0'}"}),
       {"{cpu: '4000', memory: '10000'}", "{cpu: '4000', memory: '10000'}"},
       {{Pod("a", {"{cpu: '3000', memory: '0'}"})}, {Pod("b", {"{cpu: '3000', memory: '5000'}"})}},
       {50, 25}},
      {"least: weights memory 2 cpu 1",
       Pod("p", {pod_req2, pod_req3}),
       {"{cpu: '4000', memory: '10000'}", "{cpu: '6000', memory: '10000'}"},
       {{}, {}},
       {41, 50},
       {{"scoringStrategy",
         {{"type", "LeastAllocated"},
          {"resources",
           {{{"name", "memory"}, {"weight", 2}}, {{"name", "cpu"}, {"weight", 1}}}}}}}},
      {"least: zero node resources", Pod("p", {}), {"{}", "{}"}, {{}, {}}, {0, 0}},
      {"most: differently sized nodes",
       Pod("p", {pod_req2, pod_req3}),
       {"{cpu: '4000', memory: '10000'}", "{cpu: '6000', memory: '10000'}"},
       {{}, {}},
       {62, 50},
       most},
      {"most: nothing requested uses non-zero defaults",
       Pod("p", {"{}"}),
       {"{cpu: '4', memory: '10000'}"},
       {{}},
       {51},
       most},
  };
  for (const ScoreCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto plugin = NewFit(c.args);
    for (size_t i = 0; i < c.node_alloc.size(); ++i) {
      auto node = MakeNodeInfo(ParseNode("metadata: {name: n" + std::to_string(i) +
                                         "}\nstatus: {allocatable: " + c.node_alloc[i] + "}"),
                               c.existing[i]);
      CycleState state;
      int64_t score = -1;
      Status st = plugin->Score(state, *c.pod, *node, &score);
      ASSERT_TRUE(st.IsSuccess()) << st.DebugString();
      EXPECT_EQ(score, c.want[i]) << "node " << i;
    }
  }
}

}  // namespace
}  // namespace schedcheck::reference
