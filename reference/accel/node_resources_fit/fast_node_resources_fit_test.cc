// Tests of the fast NodeResourcesFit's own machinery: the room and rejections it keeps across
// nodes and cycles. Its results against the plain rule: fast_node_resources_fit_equivalence_test.
#include "reference/accel/node_resources_fit/fast_node_resources_fit.h"

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

std::unique_ptr<FastNodeResourcesFit> NewFit(const nlohmann::json& args = nullptr) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  auto p = FastNodeResourcesFit::New(args, handle);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.message());
  return std::unique_ptr<FastNodeResourcesFit>(dynamic_cast<FastNodeResourcesFit*>(p->release()));
}

// The reasons of the batch Filter over `nodes`, one list per rejected node.
std::vector<std::vector<std::string>> BatchReasons(FastNodeResourcesFit& plugin, const PodPtr& pod,
                                                   const std::vector<const NodeInfo*>& nodes) {
  CycleState state;
  PreFilterResult result;
  EXPECT_TRUE(plugin.PreFilter(state, *pod, &result).IsSuccess());
  std::vector<BatchRejection> rejected;
  plugin.FilterNodes(state, *pod, nodes, &rejected);
  std::vector<std::vector<std::string>> out;
  for (const BatchRejection& r : rejected) out.push_back(r.status.reasons());
  return out;
}

TEST(FastNodeResourcesFitTest, BatchFilterFollowsTheNodeAsItsPodsChange) {
  // The room kept per node must follow the node's generation: after a pod lands, the scalar
  // left is gone.
  auto plugin = NewFit();
  auto node = MakeNodeInfo(EnoughNode(), {Pod("e", {"{example.com/aaa: '3'}"})});
  const PodPtr wants_two = Pod("p", {"{example.com/aaa: '2'}"});
  auto rejections = [&](const NodeInfo& info) {
    CycleState state;
    PreFilterResult result;
    EXPECT_TRUE(plugin->PreFilter(state, *wants_two, &result).IsSuccess());
    const NodeInfo* batch[] = {&info};
    std::vector<BatchRejection> rejected;
    plugin->FilterNodes(state, *wants_two, batch, &rejected);
    return rejected.size();
  };
  EXPECT_EQ(rejections(*node), 0u);
  EXPECT_EQ(rejections(*node), 0u);
  node->AddPod(MakePodInfo(Pod("e2", {"{example.com/aaa: '1'}"})));
  EXPECT_EQ(rejections(*node), 1u);
}

TEST(FastNodeResourcesFitTest, BatchRejectionsFollowTheRequestOfTheCycle) {
  // Rejections are remembered per cycle by which of the request's resources are lacking; the
  // same positions name other resources in another pod's request.
  auto plugin = NewFit();
  auto full = MakeNodeInfo(EnoughNode(), {Pod("e", {"{cpu: 10m, example.com/aaa: '5'}"})});
  auto roomy = MakeNodeInfo(EnoughNode());
  auto reasons = [&](const PodPtr& pod) {
    CycleState state;
    PreFilterResult result;
    EXPECT_TRUE(plugin->PreFilter(state, *pod, &result).IsSuccess());
    const NodeInfo* batch[] = {full.get(), roomy.get(), full.get()};
    std::vector<BatchRejection> rejected;
    plugin->FilterNodes(state, *pod, batch, &rejected);
    std::vector<std::vector<std::string>> out;
    for (const BatchRejection& r : rejected) out.push_back(r.status.reasons());
    return out;
  };
  using Lists = std::vector<std::vector<std::string>>;
  EXPECT_EQ(reasons(Pod("a", {"{example.com/aaa: '1'}"})),
            (Lists{{"Insufficient example.com/aaa"}, {"Insufficient example.com/aaa"}}));
  EXPECT_EQ(reasons(Pod("b", {"{example.com/bbb: '1'}"})),
            (Lists{{"Insufficient example.com/bbb"},
                   {"Insufficient example.com/bbb"},
                   {"Insufficient example.com/bbb"}}));
  EXPECT_EQ(reasons(Pod("c", {"{cpu: 1m, example.com/aaa: '1'}"})),
            (Lists{{"Insufficient cpu", "Insufficient example.com/aaa"},
                   {"Insufficient cpu", "Insufficient example.com/aaa"}}));
  EXPECT_EQ(reasons(Pod("d", {"{cpu: 1m, example.com/aaa: '6'}"})),
            (Lists{{"Insufficient cpu", "Insufficient example.com/aaa"},
                   {"Insufficient example.com/aaa"},
                   {"Insufficient cpu", "Insufficient example.com/aaa"}}));
}

TEST(FastNodeResourcesFitTest, BatchFilterReadsTheRoomItKeptAsTheNodeItself) {
  // First pass computes each node's room, the second reads it back (free_room.h).
  auto plugin = NewFit();
  auto full = MakeNodeInfo(EnoughNode(), {Pod("e", {"{cpu: 10m, example.com/aaa: '5'}"})});
  const PodPtr pod = Pod("p", {"{cpu: 1m, example.com/aaa: '1', hugepages-2Mi: '6'}"});
  using Lists = std::vector<std::vector<std::string>>;
  const Lists want = {
      {"Insufficient cpu", "Insufficient example.com/aaa", "Insufficient hugepages-2Mi"}};
  EXPECT_EQ(BatchReasons(*plugin, pod, {full.get()}), want);
  EXPECT_EQ(BatchReasons(*plugin, pod, {full.get()}), want);
}

TEST(FastNodeResourcesFitTest, RequestsWithMoreScalarsThanSlotMasksHold) {
  // Beyond kMaxMaskedScalars scalar requests the rejection is built from the names.
  auto plugin = NewFit();
  auto node = MakeNodeInfo(EnoughNode());
  std::string requests = "{";
  for (int i = 0; i < 62; ++i)
    requests += (i ? ", " : "") + std::string("example.com/r") + std::to_string(100 + i) + ": '1'";
  requests += ", example.com/aaa: '1'}";
  std::vector<std::string> want;
  for (int i = 0; i < 62; ++i)
    want.push_back("Insufficient example.com/r" + std::to_string(100 + i));
  using Lists = std::vector<std::vector<std::string>>;
  EXPECT_EQ(BatchReasons(*plugin, Pod("p", {requests}), {node.get()}), Lists{want});
}

}  // namespace
}  // namespace schedcheck::reference
