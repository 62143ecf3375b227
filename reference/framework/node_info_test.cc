#include "reference/framework/node_info.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

PodInfoPtr MakeTestPod(const std::string& name, const std::string& cpu, int host_port = 0,
                       bool anti_affinity = false) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name(name);
  auto* c = obj.mutable_spec()->add_containers();
  (*c->mutable_resources()->mutable_requests())["cpu"] = cpu;
  if (host_port > 0) c->add_ports()->set_host_port(host_port);
  if (anti_affinity) {
    obj.mutable_spec()
        ->mutable_affinity()
        ->mutable_pod_anti_affinity()
        ->add_required_during_scheduling_ignored_during_execution()
        ->set_topology_key("zone");
  }
  return MakePodInfo(*BuildPod(obj, FeaturesFor(CompatLevel::kV1_27)));
}

TEST(NodeInfoTest, AggregatesFollowAddAndRemove) {
  NodeInfo info;
  info.AddPod(MakeTestPod("a", "1", 80));
  info.AddPod(MakeTestPod("b", "500m", 0, true));
  info.AddPod(MakeTestPod("c", "250m"));
  EXPECT_EQ(info.requested().milli_cpu, 1750);
  EXPECT_EQ(info.non_zero_requested().memory, 3 * kDefaultMemoryRequest);
  EXPECT_TRUE(info.used_ports().CheckConflict({"0.0.0.0", "TCP", 80}));
  EXPECT_TRUE(info.used_ports().CheckConflict({"10.0.0.1", "TCP", 80}));
  EXPECT_FALSE(info.used_ports().CheckConflict({"0.0.0.0", "UDP", 80}));
  EXPECT_EQ(info.pods_with_affinity().size(), 1u);
  EXPECT_EQ(info.pods_with_required_anti_affinity().size(), 1u);

  ASSERT_TRUE(info.RemovePod(*MakeTestPod("a", "1")->pod));
  EXPECT_EQ(info.requested().milli_cpu, 750);
  EXPECT_FALSE(info.used_ports().CheckConflict({"0.0.0.0", "TCP", 80}));
  // Upstream's swap-with-last removal: "c" moved into slot 0.
  ASSERT_EQ(info.pods().size(), 2u);
  EXPECT_EQ(info.pods()[0]->pod->name(), "c");
  EXPECT_FALSE(info.RemovePod(*MakeTestPod("zzz", "1")->pod));
}

// Upstream's HostPortInfo is a set (source: k8s.io/kubernetes@v1.27.8
// pkg/scheduler/framework/types.go HostPortInfo.Add / Remove, NodeInfo.updateUsedPorts): with two
// pods on one host port, removing one of them frees the port for NodePorts. Found by a campaign
// against kube-scheduler v1.27.8 (a preemption victim holding a port another pod also held).
TEST(NodeInfoTest, RemovingOneOfTwoPodsOnAHostPortFreesIt) {
  NodeInfo info;
  info.AddPod(MakeTestPod("a", "1", 8080));
  info.AddPod(MakeTestPod("b", "1", 8080));
  EXPECT_EQ(info.used_ports().size(), 1u);
  ASSERT_TRUE(info.RemovePod(*MakeTestPod("a", "1")->pod));
  EXPECT_FALSE(info.used_ports().CheckConflict({"0.0.0.0", "TCP", 8080}));
  // Adding a pod with the port claims it again.
  info.AddPod(MakeTestPod("c", "1", 8080));
  EXPECT_TRUE(info.used_ports().CheckConflict({"0.0.0.0", "TCP", 8080}));
}

TEST(HostPortInfoTest, SpecificIpConflictsWithWildcardOnly) {
  HostPortInfo ports;
  ports.Add({"127.0.0.1", "TCP", 8080});
  EXPECT_TRUE(ports.CheckConflict({"127.0.0.1", "TCP", 8080}));
  EXPECT_TRUE(ports.CheckConflict({"0.0.0.0", "TCP", 8080}));
  EXPECT_FALSE(ports.CheckConflict({"127.0.0.2", "TCP", 8080}));
  EXPECT_FALSE(ports.CheckConflict({"127.0.0.1", "TCP", 0}));
}

}  // namespace
}  // namespace schedcheck::reference
