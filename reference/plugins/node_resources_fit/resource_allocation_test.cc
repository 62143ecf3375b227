#include "reference/plugins/node_resources_fit/resource_allocation.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using V = std::vector<int64_t>;  // scorers take spans; a braced list needs a named type

// Evaluates the RequestedToCapacityRatio scorer on one resource at `utilization` percent, which
// exposes the broken-linear shape function (scores come back scaled by 10).
int64_t ShapeAt(const std::vector<UtilizationShapePoint>& shape, int64_t utilization) {
  ResourceScorerFunc s = RequestedToCapacityRatioScorer({{"cpu", 1}}, shape);
  return s(V{utilization}, V{100});
}

// Upstream requested_to_capacity_ratio_test.go TestBrokenLinearFunction (points scaled by 10
// here because the scorer multiplies configured scores by 10; utilization is capped at 100).
TEST(ResourceAllocationTest, BrokenLinearFunction) {
  std::vector<UtilizationShapePoint> a = {{10, 1}, {90, 9}};
  EXPECT_EQ(ShapeAt(a, 0), 10);
  EXPECT_EQ(ShapeAt(a, 15), 15);
  EXPECT_EQ(ShapeAt(a, 20), 20);
  EXPECT_EQ(ShapeAt(a, 89), 89);
  EXPECT_EQ(ShapeAt(a, 100), 90);
  EXPECT_EQ(ShapeAt(a, 150), 90);  // requested > capacity counts as full utilization
  std::vector<UtilizationShapePoint> b = {{0, 2}, {40, 10}, {100, 0}};
  EXPECT_EQ(ShapeAt(b, 0), 20);
  EXPECT_EQ(ShapeAt(b, 20), 60);
  EXPECT_EQ(ShapeAt(b, 30), 80);
  EXPECT_EQ(ShapeAt(b, 40), 100);
  EXPECT_EQ(ShapeAt(b, 70), 50);
  EXPECT_EQ(ShapeAt(b, 100), 0);
}

TEST(ResourceAllocationTest, RequestedToCapacityRatioWeightsAndRounding) {
  // (0,10)->(100,0): cpu 75% -> 25, memory 50% -> 50, round(37.5) = 38.
  ResourceScorerFunc s =
      RequestedToCapacityRatioScorer(DefaultResourceSpecs(), {{0, 10}, {100, 0}});
  EXPECT_EQ(s(V{75, 50}, V{100, 100}), 38);
  // A resource scoring 0 leaves the average: only memory's 50 counts.
  EXPECT_EQ(s(V{100, 50}, V{100, 100}), 50);
  // Weighted multi-resource (upstream TestResourceBinPackingMultipleExtended): foo w3 bar w5.
  ResourceScorerFunc w =
      RequestedToCapacityRatioScorer({{"foo", 3}, {"bar", 5}}, {{0, 0}, {100, 1}});
  EXPECT_EQ(w(V{2, 2}, V{8, 4}), 4);  // (2*3 + 5*5) / 8 = 3.875 -> 4
  EXPECT_EQ(w(V{2, 2}, V{4, 8}), 3);  // (5*3 + 2*5) / 8 = 3.125 -> 3
  EXPECT_EQ(w(V{0, 0}, V{0, 0}), 0);
}

TEST(ResourceAllocationTest, LeastAndMostRequested) {
  EXPECT_EQ(LeastRequestedScore(3000, 4000), 25);
  EXPECT_EQ(LeastRequestedScore(5000, 4000), 0);
  EXPECT_EQ(LeastRequestedScore(1, 0), 0);
  EXPECT_EQ(MostRequestedScore(3000, 4000), 75);
  EXPECT_EQ(MostRequestedScore(5000, 4000), 100);
  EXPECT_EQ(MostRequestedScore(1, 0), 0);
  ResourceScorerFunc least = LeastResourceScorer({{"memory", 2}, {"cpu", 1}});
  EXPECT_EQ(least(V{5000, 3000}, V{10000, 4000}), 41);  // (50*2 + 25) / 3
  EXPECT_EQ(least(V{5000, 3000}, V{0, 0}), 0);
}

// A capacity past about 9.2e16 (82 PiB of memory) makes upstream's int64 product wrap; the
// scores are those Go prints for leastRequestedScore and mostRequestedScore (go run, v1.27 code).
TEST(ResourceAllocationTest, ScoresOfHugeCapacitiesWrapAsInGo) {
  const int64_t capacity = 112589990579404800;  // 100Pi
  EXPECT_EQ(LeastRequestedScore(0, capacity), -63);
  EXPECT_EQ(LeastRequestedScore(int64_t{1} << 30, capacity), -63);
  EXPECT_EQ(MostRequestedScore(capacity / 2, capacity), 50);
  EXPECT_EQ(MostRequestedScore(capacity, capacity), -63);
}

TEST(ResourceAllocationTest, AllocatableRequestViews) {
  NodePtr node = testing::ParseNode(
      "metadata: {name: n}\nstatus: {allocatable: {cpu: '4', memory: 1Gi, example.com/foo: '4', "
      "ephemeral-storage: '100', pods: '10'}}");
  PodPtr existing = testing::ParsePod(
      "metadata: {name: e}\nspec: {containers: [{name: c, resources: {requests: {memory: '100', "
      "example.com/foo: '1', ephemeral-storage: '10'}}}]}",
      CompatLevel::kV1_27);
  auto info = testing::MakeNodeInfo(node, {existing});
  PodPtr pod = testing::ParsePod(
      "metadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {cpu: 500m}}}]}",
      CompatLevel::kV1_27);
  const ResourceAllocationScorer non_zero{"LeastAllocated", false, nullptr, {}};
  const ResourceAllocationScorer real{"NodeResourcesBalancedAllocation", true, nullptr, {}};
  auto view = [&](const ResourceAllocationScorer& scorer, std::string_view resource) {
    return scorer.CalculateResourceAllocatableRequest(
        *info, resource, scorer.CalculatePodResourceRequest(*pod, resource));
  };
  // Non-zero view: the existing pod counts 100m cpu, the new pod 200 MiB memory.
  AllocatableRequest cpu = view(non_zero, "cpu");
  EXPECT_EQ(cpu.allocatable, 4000);
  EXPECT_EQ(cpu.requested, 600);
  AllocatableRequest mem = view(non_zero, "memory");
  EXPECT_EQ(mem.requested, 100 + kDefaultMemoryRequest);
  // Requested view: raw numbers.
  EXPECT_EQ(view(real, "cpu").requested, 500);
  EXPECT_EQ(view(real, "memory").requested, 100);
  // A scalar the pod does not request is skipped; "pods" is never a request.
  AllocatableRequest foo = view(non_zero, "example.com/foo");
  EXPECT_EQ(foo.allocatable, 0);
  EXPECT_EQ(view(non_zero, "pods").allocatable, 0);
  AllocatableRequest eph = view(non_zero, "ephemeral-storage");
  EXPECT_EQ(eph.allocatable, 100);
  EXPECT_EQ(eph.requested, 10);
  // A scalar the pod requests: the node's real requests of it plus the pod's.
  PodPtr wants_foo = testing::ParsePod(
      "metadata: {name: q}\nspec: {containers: [{name: c, resources: {requests: {example.com/foo: "
      "'2'}}}]}",
      CompatLevel::kV1_27);
  AllocatableRequest foo2 = non_zero.CalculateResourceAllocatableRequest(
      *info, "example.com/foo",
      non_zero.CalculatePodResourceRequest(*wants_foo, "example.com/foo"));
  EXPECT_EQ(foo2.allocatable, 4);
  EXPECT_EQ(foo2.requested, 3);
}

TEST(ResourceAllocationTest, ScoreErrors) {
  const ResourceAllocationScorer scorer{"LeastAllocated", false,
                                        LeastResourceScorer(DefaultResourceSpecs()),
                                        DefaultResourceSpecs(), nullptr};
  PodPtr pod = testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27);
  NodeInfo no_node;
  int64_t score = -1;
  EXPECT_EQ(scorer.Score(*pod, no_node, {0, 0}, &score), Status::Error("node not found"));
  EXPECT_EQ(score, 0);
  ResourceAllocationScorer no_resources = scorer;
  no_resources.resources.clear();
  auto info = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: n}"));
  EXPECT_EQ(no_resources.Score(*pod, *info, {}, &score), Status::Error("resources not found"));
}

TEST(ResourceAllocationTest, ParseResourceSpecsDefaults) {
  auto empty = ParseResourceSpecs(nlohmann::json::array(), "resources");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 2u);
  auto bad =
      ParseResourceSpecs(nlohmann::json::parse(R"([{"name":"cpu","wieght":1}])"), "resources");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "resources[0].wieght: unknown field");
}

}  // namespace
}  // namespace schedcheck::reference
