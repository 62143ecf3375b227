#include "reference/api/pod_requests.h"

#include <gtest/gtest.h>

#include "reference/api/objects.h"

namespace schedcheck::reference {
namespace {

k8s::Container MakeContainer(const std::string& name, std::map<std::string, std::string> requests) {
  k8s::Container c;
  c.set_name(name);
  for (auto& [k, v] : requests) (*c.mutable_resources()->mutable_requests())[k] = v;
  return c;
}

k8s::Container Sidecar(const std::string& name, std::map<std::string, std::string> requests) {
  k8s::Container c = MakeContainer(name, std::move(requests));
  c.set_restart_policy("Always");
  return c;
}

// The example of component-helpers' PodRequests: a sidecar adds to the sum and to every later
// init container; a regular init container before it does not see it.
TEST(PodRequestsTest, SidecarsAddToTheSumAndToLaterInitContainers) {
  k8s::Pod pod;
  *pod.mutable_spec()->add_init_containers() = MakeContainer("init1", {{"cpu", "5"}});
  *pod.mutable_spec()->add_init_containers() = Sidecar("side", {{"cpu", "1"}});
  *pod.mutable_spec()->add_init_containers() = MakeContainer("init2", {{"cpu", "3"}});
  *pod.mutable_spec()->add_containers() = MakeContainer("app", {{"cpu", "2"}});
  Result<ResourceList> r = PodRequests(pod, {});
  ASSERT_TRUE(r.ok()) << r.message();
  // sum = app 2 + sidecar 1 = 3; init peaks: init1 5, sidecar 1, init2 3 + 1 = 4 -> max 5.
  EXPECT_EQ(r->at("cpu"), 5000);
  pod.mutable_spec()->mutable_init_containers(0)->mutable_resources()->mutable_requests()->at(
      "cpu") = "1";
  r = PodRequests(pod, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->at("cpu"), 4000);  // init2 + sidecar = 4 > sum 3
}

TEST(PodRequestsTest, PodLevelRequestsReplaceTheAggregateThenOverheadIsAdded) {
  k8s::Pod pod;
  *pod.mutable_spec()->add_containers() = MakeContainer("a", {{"cpu", "1"}, {"memory", "1Gi"}});
  (*pod.mutable_spec()->mutable_resources()->mutable_requests())["cpu"] = "3";
  (*pod.mutable_spec()->mutable_overhead())["cpu"] = "100m";
  Result<ResourceList> r = PodRequests(pod, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->at("cpu"), 3100);
  EXPECT_EQ(r->at("memory"), 1073741824);
  PodResourcesOptions skip;
  skip.skip_pod_level_resources = true;
  r = PodRequests(pod, skip);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->at("cpu"), 1100);
}

// CalculateResource defaults only what the whole pod leaves unset once pod-level requests exist;
// NodeResourcesFit's scorer defaults each container and, as v1.37.2's getScorer builds it without
// enablePodLevelResources, does not apply pod-level requests at all (resource_allocation.go).
TEST(PodRequestsTest, NonZeroDefaultsWithPodLevelRequests) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer("a", {{"memory", "1Gi"}});
  *obj.mutable_spec()->add_containers() = MakeContainer("b", {});
  (*obj.mutable_spec()->mutable_resources()->mutable_requests())["cpu"] = "2";
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(pod.ok()) << pod.message();
  EXPECT_EQ((*pod)->non_zero_milli_cpu, 2000);
  EXPECT_EQ((*pod)->non_zero_memory, 1073741824);  // memory is set (container a): no default
  EXPECT_EQ((*pod)->score_non_zero_milli_cpu, 2 * kDefaultMilliCpuRequest);      // not the pod's 2
  EXPECT_EQ((*pod)->score_non_zero_memory, 1073741824 + kDefaultMemoryRequest);  // b defaulted
  Result<PodPtr> old = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(old.ok());
  EXPECT_EQ((*old)->requests.milli_cpu, 0) << "v1.27 has no pod-level resources";
  EXPECT_EQ((*old)->non_zero_milli_cpu, 2 * kDefaultMilliCpuRequest);
}

TEST(PodRequestsTest, ResizeStatusCountsForTheNodeNotForTheFitRequest) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer("c", {{"cpu", "1"}});
  k8s::ContainerStatus* cs = obj.mutable_status()->add_container_statuses();
  cs->set_name("c");
  (*cs->mutable_allocated_resources())["cpu"] = "3";
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ((*pod)->requests.milli_cpu, 3000);
  EXPECT_EQ((*pod)->spec_requests.milli_cpu, 1000);
  // An infeasible resize drops the spec: only what is allocated counts.
  (*obj.mutable_spec()->mutable_containers(0)->mutable_resources()->mutable_requests())["cpu"] =
      "5";
  k8s::PodCondition* cond = obj.mutable_status()->add_conditions();
  cond->set_type("PodResizePending");
  cond->set_reason("Infeasible");
  pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ((*pod)->requests.milli_cpu, 3000);
  cond->set_reason("Deferred");
  pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ((*pod)->requests.milli_cpu, 5000);
}

TEST(PodRequestsTest, BadStatusQuantityNamesTheField) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer("c", {{"cpu", "1"}});
  k8s::ContainerStatus* cs = obj.mutable_status()->add_container_statuses();
  cs->set_name("c");
  (*cs->mutable_allocated_resources())["cpu"] = "-2";
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_FALSE(pod.ok());
  EXPECT_NE(pod.message().find("status.containerStatuses[0].allocatedResources.cpu"),
            std::string::npos)
      << pod.message();
}

TEST(PodRequestsTest, HostPortsAtV137IncludeSidecarsAndOnlyHostPorts) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  k8s::Container side = Sidecar("s", {});
  side.add_ports()->set_host_port(8080);
  side.add_ports()->set_container_port(90);
  *obj.mutable_spec()->add_init_containers() = side;
  k8s::Container app = MakeContainer("a", {});
  app.add_ports()->set_container_port(80);
  app.add_ports()->set_host_port(9090);
  *obj.mutable_spec()->add_containers() = app;
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(pod.ok());
  ASSERT_EQ((*pod)->container_ports.size(), 2u);
  EXPECT_EQ((*pod)->container_ports[0].port, 8080);
  EXPECT_EQ((*pod)->container_ports[1].port, 9090);
  Result<PodPtr> old = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(old.ok());
  EXPECT_EQ((*old)->container_ports.size(), 2u) << "v1.27: every containers[*].ports entry";
}

}  // namespace
}  // namespace schedcheck::reference
