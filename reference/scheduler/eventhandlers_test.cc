#include "reference/scheduler/eventhandlers.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

TEST(PreCheckForNodeTest, Table) {
  NodePtr node = ParseNode(
      "metadata: {name: n1, labels: {zone: z1}}\n"
      "spec: {taints: [{key: a, effect: NoSchedule}, {key: b, effect: NoExecute}]}\n"
      "status: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n");
  PodPtr existing = ParsePod(
      "metadata: {name: e}\nspec: {nodeName: n1, containers: [{name: c, ports: [{containerPort: 1, "
      "hostPort: 80}]}]}\n",
      CompatLevel::kV1_27);
  auto ni = MakeNodeInfo(node, {existing});
  struct Row {
    const char* name;
    std::string spec;
    bool want;
  };
  const std::string tol = "tolerations: [{key: a, operator: Exists}], ";
  std::vector<Row> rows = {
      {"fits", tol + "containers: [{name: c}]", true},
      {"untolerated NoSchedule", "containers: [{name: c}]", false},
      {"too much cpu", tol + "containers: [{name: c, resources: {requests: {cpu: '2'}}}]", false},
      {"selector mismatch", tol + "nodeSelector: {zone: z2}, containers: [{name: c}]", false},
      {"selector match", tol + "nodeSelector: {zone: z1}, containers: [{name: c}]", true},
      {"other nodeName", tol + "nodeName: n2, containers: [{name: c}]", false},
      {"port clash", tol + "containers: [{name: c, ports: [{containerPort: 1, hostPort: 80}]}]",
       false},
      {"free port", tol + "containers: [{name: c, ports: [{containerPort: 1, hostPort: 81}]}]",
       true},
  };
  for (const Row& r : rows) {
    PodPtr pod = ParsePod("metadata: {name: p}\nspec: {" + r.spec + "}\n", CompatLevel::kV1_27);
    EXPECT_EQ(PreCheckForNode(*pod, *ni, FeaturesFor(CompatLevel::kV1_27)), r.want) << r.name;
  }
}

}  // namespace
}  // namespace schedcheck::reference
