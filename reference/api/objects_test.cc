#include "reference/api/objects.h"

#include <gtest/gtest.h>

#include <limits>

namespace schedcheck::reference {
namespace {

k8s::Container MakeContainer(std::map<std::string, std::string> requests) {
  k8s::Container c;
  for (auto& [k, v] : requests) (*c.mutable_resources()->mutable_requests())[k] = v;
  return c;
}

TEST(BuildPodTest, InitContainerMaxRuleAndOverhead) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "1"}, {"memory", "1Gi"}});
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "500m"}});
  *obj.mutable_spec()->add_init_containers() = MakeContainer({{"cpu", "2"}, {"memory", "10Mi"}});
  (*obj.mutable_spec()->mutable_overhead())["cpu"] = "100m";
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(pod.ok()) << pod.message();
  EXPECT_EQ((*pod)->requests.milli_cpu, 2100);     // max(1500, 2000) + 100
  EXPECT_EQ((*pod)->requests.memory, 1073741824);  // max(1Gi, 10Mi)
  EXPECT_EQ((*pod)->non_zero_milli_cpu, 2100);
  // Second container has no memory: 1Gi + 200Mi default, larger than the init container.
  EXPECT_EQ((*pod)->non_zero_memory, 1073741824 + kDefaultMemoryRequest);
  EXPECT_EQ((*pod)->key, "default/p");
  EXPECT_EQ((*pod)->scheduler_name(), "default-scheduler");
}

// DRA is not modelled at 1.27: a pod naming claims is an error there; at 1.37 it builds (and
// DynamicResources rejects it in PreFilter).
TEST(BuildPodTest, ResourceClaimsAreAnErrorAt127Only) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "1"}});
  k8s::PodResourceClaim* claim = obj.mutable_spec()->add_resource_claims();
  claim->set_name("gpu");
  claim->set_resource_claim_template_name("one-gpu");
  Result<PodPtr> at127 = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_FALSE(at127.ok());
  EXPECT_EQ(at127.message(),
            "spec.resourceClaims: Dynamic Resource Allocation is not modelled at compat 1.27 (its "
            "feature gate was off in v1.27.8; docs/DEVIATIONS.md)");
  EXPECT_TRUE(BuildPod(obj, FeaturesFor(CompatLevel::kV1_37)).ok());
  obj.mutable_spec()->clear_resource_claims();
  EXPECT_TRUE(BuildPod(obj, FeaturesFor(CompatLevel::kV1_27)).ok());
}

// spec.schedulingGroup: no such field at 1.27; ignored with GenericWorkload off at 1.37 (the pod
// builds and schedules as a plain pod, as upstream); refused with the gate on (pod groups are not
// modelled), naming the field and the group.
TEST(BuildPodTest, SchedulingGroupIsAnErrorAt127AndWithGenericWorkload) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "1"}});
  obj.mutable_spec()->mutable_scheduling_group()->set_pod_group_name("workers");
  Result<PodPtr> at127 = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_FALSE(at127.ok());
  EXPECT_EQ(at127.message(),
            "spec.schedulingGroup: pod group \"workers\": the field does not exist at compat 1.27 "
            "(it is new in v1.36)");
  Result<PodPtr> gate_off = BuildPod(obj, FeaturesFor(CompatLevel::kV1_37));
  ASSERT_TRUE(gate_off.ok()) << gate_off.message();
  EXPECT_EQ((*gate_off)->obj.spec().scheduling_group().pod_group_name(), "workers");
  Result<Features> gate_on = FeaturesFor(CompatLevel::kV1_37, {{"GenericWorkload", true}});
  ASSERT_TRUE(gate_on.ok()) << gate_on.message();
  Result<PodPtr> refused = BuildPod(obj, *gate_on);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(),
            "spec.schedulingGroup: pod group \"workers\": pod groups are not modelled by "
            "schedcheck (GenericWorkload=true; docs/DEVIATIONS.md)");
  // A pod without a group builds under every setting.
  obj.mutable_spec()->clear_scheduling_group();
  EXPECT_TRUE(BuildPod(obj, FeaturesFor(CompatLevel::kV1_27)).ok());
  EXPECT_TRUE(BuildPod(obj, *gate_on).ok());
}

TEST(BuildPodTest, LimitsDefaultMissingRequests) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  k8s::Container* c = obj.mutable_spec()->add_containers();
  (*c->mutable_resources()->mutable_limits())["cpu"] = "3";
  (*c->mutable_resources()->mutable_limits())["example.com/gpu"] = "1";
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ((*pod)->requests.milli_cpu, 3000);
  EXPECT_EQ((*pod)->requests.Scalar("example.com/gpu"), 1);
  EXPECT_EQ((*pod)->non_zero_memory, kDefaultMemoryRequest);
}

TEST(BuildPodTest, BadQuantityNamesTheField) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  obj.mutable_spec()->add_containers();
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "lots"}});
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_FALSE(pod.ok());
  EXPECT_NE(pod.message().find("spec.containers[1].resources.requests.cpu"), std::string::npos)
      << pod.message();
}

// The API server's validation refuses negative requests, overhead and allocatable, so no
// scheduler sees them; the reference refuses them too, naming the field.
TEST(BuildPodTest, NegativeQuantitiesAreRefusedAsTheApiServerDoes) {
  for (const char* text : {"-1", "-9223372036854775808", "-0.0001", "-1e-9"}) {
    SCOPED_TRACE(text);
    k8s::Pod obj;
    obj.mutable_metadata()->set_name("p");
    *obj.mutable_spec()->add_containers() = MakeContainer({{"memory", "1Gi"}});
    *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", text}});
    Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
    ASSERT_FALSE(pod.ok());
    EXPECT_EQ(pod.message(), std::string("spec.containers[1].resources.requests.cpu: ") + text +
                                 ": must be greater than or equal to 0");
  }
  k8s::Pod zero;
  zero.mutable_metadata()->set_name("p");
  *zero.mutable_spec()->add_containers() = MakeContainer({{"cpu", "-0"}});
  EXPECT_TRUE(BuildPod(zero, FeaturesFor(CompatLevel::kV1_27)).ok());
  k8s::Pod overhead = zero;
  (*overhead.mutable_spec()->mutable_overhead())["memory"] = "-5Mi";
  EXPECT_EQ(BuildPod(overhead, FeaturesFor(CompatLevel::kV1_27)).message(),
            "spec.overhead.memory: -5Mi: must be greater than or equal to 0");
  k8s::Node node;
  node.mutable_metadata()->set_name("n");
  (*node.mutable_status()->mutable_allocatable())["example.com/gpu"] = "-2";
  EXPECT_EQ(BuildNode(node).message(),
            "status.allocatable.example.com/gpu: -2: must be greater than or equal to 0");
}

// Sums wrap as Go's int64 sums do (upstream adds requests with +=): no undefined behaviour, and
// the same numbers as the real scheduler.
TEST(BuildPodTest, RequestSumsWrapAsInGo) {
  k8s::Pod obj;
  obj.mutable_metadata()->set_name("p");
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "9223372036854775807m"}});
  *obj.mutable_spec()->add_containers() = MakeContainer({{"cpu", "1m"}});
  Result<PodPtr> pod = BuildPod(obj, FeaturesFor(CompatLevel::kV1_27));
  ASSERT_TRUE(pod.ok()) << pod.message();
  EXPECT_EQ((*pod)->requests.milli_cpu, std::numeric_limits<int64_t>::min());
  EXPECT_EQ((*pod)->non_zero_milli_cpu, std::numeric_limits<int64_t>::min());
}

TEST(BuildNodeTest, AllocatableDefaultsToCapacity) {
  k8s::Node obj;
  obj.mutable_metadata()->set_name("n");
  (*obj.mutable_status()->mutable_capacity())["cpu"] = "4";
  (*obj.mutable_status()->mutable_capacity())["pods"] = "110";
  (*obj.mutable_status()->mutable_capacity())["hugepages-2Mi"] = "1Gi";
  Result<NodePtr> node = BuildNode(obj);
  ASSERT_TRUE(node.ok());
  EXPECT_EQ((*node)->allocatable.milli_cpu, 4000);
  EXPECT_EQ((*node)->allocatable.allowed_pod_number, 110);
  EXPECT_EQ((*node)->allocatable.Scalar("hugepages-2Mi"), 1073741824);
}

}  // namespace
}  // namespace schedcheck::reference
