// The allocator against upstream's expectations. Each case names (source:) the case of
// k8s.io/dynamic-resource-allocation v0.37.2 structured/internal/allocatortesting/
// allocator_testing.go (TestAllocator's table) it transcribes, with the same names: claim-0,
// req-0, class-a (selecting driver-a), slice-1, pool-1, device-1, node-1 in region-1.
#include "reference/dra/allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference::dra {
namespace {

using nlohmann::json;

template <typename T>
T Must(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.message();
  return result.ok() ? std::move(*result) : T();
}

k8s::Node Node(const std::string& name, const std::string& region) {
  return Must(k8s::NodeFromJson(
      {{"metadata", {{"name", name}, {"labels", {{"region", region}, {"planet", "earth"}}}}}},
      "test"));
}

json ClassJson(const std::string& name, const std::string& driver) {
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"selectors",
             json::array({{{"cel", {{"expression", "device.driver == \"" + driver + "\""}}}}})}}}};
}

json Request(const std::string& name, const std::string& device_class, int64_t count,
             json selectors = json::array()) {
  return {
      {"name", name},
      {"exactly", {{"deviceClassName", device_class}, {"count", count}, {"selectors", selectors}}}};
}

k8s::ResourceClaim Claim(const std::string& name, json requests, json constraints = json::array()) {
  return Must(k8s::ResourceClaimFromJson(
      {{"metadata", {{"name", name}}},
       {"spec", {{"devices", {{"requests", requests}, {"constraints", constraints}}}}}},
      "test"));
}

json Device(const std::string& name, json attributes = json::object(),
            json capacity = json::object()) {
  return {{"name", name}, {"attributes", attributes}, {"capacity", capacity}};
}

// A slice for one node by name (`node` a string) or for the nodes a selector picks (an object).
json Slice(const std::string& name, const json& node, const std::string& pool,
           const std::string& driver, json devices, int64_t generation = 1,
           int64_t slice_count = 1) {
  json spec = {
      {"driver", driver},
      {"pool", {{"name", pool}, {"generation", generation}, {"resourceSliceCount", slice_count}}},
      {"devices", devices}};
  if (node.is_string()) {
    spec["nodeName"] = node;
  } else {
    spec["nodeSelector"] = node;
  }
  return {{"metadata", {{"name", name}}}, {"spec", spec}};
}

json RegionSelector(const std::string& region) {
  return {
      {"nodeSelectorTerms",
       json::array(
           {{{"matchExpressions",
              json::array({{{"key", "region"}, {"operator", "In"}, {"values", {region}}}})}}})}};
}

struct Fixture {
  DeviceClasses classes;
  std::vector<k8s::ResourceSlice> slices;
  AllocatedState allocated;
  CelCache cel;

  void AddClass(const json& device_class) {
    k8s::DeviceClass made = Must(k8s::DeviceClassFromJson(device_class, "test"));
    classes[made.metadata().name()] = made;
  }
  void AddSlice(const json& slice) {
    slices.push_back(Must(k8s::ResourceSliceFromJson(slice, "test")));
  }

  Result<std::optional<std::vector<k8s::AllocationResult>>> Allocate(
      const k8s::Node& node, const std::vector<k8s::ResourceClaim>& claims) {
    std::vector<const k8s::ResourceSlice*> slice_ptrs;
    for (const auto& slice : slices) slice_ptrs.push_back(&slice);
    std::vector<const k8s::ResourceClaim*> claim_ptrs;
    for (const auto& claim : claims) claim_ptrs.push_back(&claim);
    Allocator allocator(allocated, classes, slice_ptrs, cel);
    return allocator.Allocate(node, claim_ptrs);
  }
};

// "request driver/pool/device" for each device of an allocation, in order.
std::vector<std::string> Devices(const k8s::AllocationResult& result) {
  std::vector<std::string> out;
  for (const auto& r : result.devices().results()) {
    out.push_back(r.request() + " " + r.driver() + "/" + r.pool() + "/" + r.device());
  }
  return out;
}

// localNodeSelector: matchFields metadata.name In [node].
void ExpectLocalNodeSelector(const k8s::AllocationResult& result, const std::string& node) {
  ASSERT_EQ(result.node_selector().node_selector_terms_size(), 1);
  const auto& term = result.node_selector().node_selector_terms(0);
  ASSERT_EQ(term.match_fields_size(), 1);
  EXPECT_EQ(term.match_expressions_size(), 0);
  EXPECT_EQ(term.match_fields(0).key(), "metadata.name");
  EXPECT_EQ(term.match_fields(0).operator_(), "In");
  ASSERT_EQ(term.match_fields(0).values_size(), 1);
  EXPECT_EQ(term.match_fields(0).values(0), node);
}

TEST(AllocatorTest, Simple) {  // source: "simple"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok()) << got.message();
  ASSERT_TRUE(got->has_value());
  ASSERT_EQ((*got)->size(), 1u);
  EXPECT_EQ(Devices((**got)[0]), std::vector<std::string>{"req-0 driver-a/pool-1/device-1"});
  ExpectLocalNodeSelector((**got)[0], "node-1");
  EXPECT_EQ((**got)[0].devices().config_size(), 0);
}

TEST(AllocatorTest, OtherNode) {  // source: "other-node"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-b", {Device("device-1")}));
  f.AddSlice(Slice("slice-2", "node-2", "pool-2", "driver-a", {Device("device-1")}));
  auto got =
      f.Allocate(Node("node-2", "region-2"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok() && got->has_value()) << (got.ok() ? "no allocation" : got.message());
  EXPECT_EQ(Devices((**got)[0]), std::vector<std::string>{"req-0 driver-a/pool-2/device-1"});
  ExpectLocalNodeSelector((**got)[0], "node-2");
  // The same claim on node-1: its slice is driver-b's, which class-a does not select.
  auto none =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_FALSE(none->has_value());
}

// source: "small-and-large" and "small-and-large-backtrack-requests": the second lists the large
// device first, so the small request takes it at first and the search has to undo that.
TEST(AllocatorTest, SmallAndLargeBacktracks) {
  const json small = json::array(
      {{{"cel",
         {{"expression",
           R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)"}}}}});
  const json large = json::array(
      {{{"cel",
         {{"expression",
           R"(device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0)"}}}}});
  const json d1 = Device("device-1", json::object(), {{"memory", {{"value", "1Gi"}}}});
  const json d2 = Device("device-2", json::object(), {{"memory", {{"value", "2Gi"}}}});
  for (const json& devices : {json::array({d1, d2}), json::array({d2, d1})}) {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", devices));
    auto got = f.Allocate(Node("node-1", "region-1"),
                          {Claim("claim-0", {Request("req-0", "class-a", 1, small),
                                             Request("req-1", "class-a", 1, large)})});
    ASSERT_TRUE(got.ok() && got->has_value()) << (got.ok() ? "no allocation" : got.message());
    EXPECT_EQ(Devices((**got)[0]), (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                                             "req-1 driver-a/pool-1/device-2"}))
        << devices.dump();
  }
}

TEST(AllocatorTest, ObsoleteSlice) {  // source: "obsolete-slice"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1-obsolete", "node-1", "pool-1", "driver-a", {Device("device-1")}, 1, 2));
  f.AddSlice(Slice("slice-1-obsolete", "node-1", "pool-1", "driver-a", {Device("device-2")}, 2, 2));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());  // the newer generation is incomplete: no device is used
}

TEST(AllocatorTest, NotEnoughSuitableDevices) {  // source: "not-enough-suitable-devices"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                                              Claim("claim-0", {Request("req-1", "class-a", 1)})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
}

TEST(AllocatorTest, UnknownClass) {  // source: "unknown-class"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  auto got = f.Allocate(Node("node-1", "region-1"),
                        {Claim("claim-0", {Request("req-0", "unknown-class", 1)})});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.message().find("could not retrieve device class unknown-class"), std::string::npos)
      << got.message();
}

json AllRequest(const std::string& name, const std::string& device_class) {
  return {{"name", name},
          {"exactly", {{"deviceClassName", device_class}, {"allocationMode", "All"}}}};
}

TEST(AllocatorTest,
     AllDevicesOfTheIncompletePool) {  // source: "all-devices-of-the-incomplete-pool"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}, 1, 2));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {AllRequest("req-0", "class-a")})});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.message().find("claim claim-0, request req-0: asks for all devices, but resource "
                               "pool driver-a/pool-1 is currently being updated"),
            std::string::npos)
      << got.message();
}

TEST(AllocatorTest, AllDevicesSomeAllocated) {  // source: "all-devices-some-allocated"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(
      Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1"), Device("device-2")}));
  f.allocated.allocated_devices.insert(DeviceId{"driver-a", "pool-1", "device-1"});
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {AllRequest("req-0", "class-a")})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
  // All devices free: both are allocated ("all-devices-many").
  f.allocated.allocated_devices.clear();
  auto all =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {AllRequest("req-0", "class-a")})});
  ASSERT_TRUE(all.ok() && all->has_value());
  EXPECT_EQ(Devices((**all)[0]), (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                                           "req-0 driver-a/pool-1/device-2"}));
}

TEST(AllocatorTest, NetworkAttachedDevice) {  // source: "network-attached-device"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(
      Slice("slice-1", RegionSelector("region-1"), "pool-1", "driver-a", {Device("device-1")}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok() && got->has_value()) << (got.ok() ? "no allocation" : got.message());
  EXPECT_EQ(Devices((**got)[0]), std::vector<std::string>{"req-0 driver-a/pool-1/device-1"});
  const auto& term = (**got)[0].node_selector().node_selector_terms(0);
  ASSERT_EQ(term.match_expressions_size(), 1);
  EXPECT_EQ(term.match_expressions(0).key(), "region");
  EXPECT_EQ(term.match_fields_size(), 0);
  // source: "unsuccessful-allocation-network-attached-device": another region.
  auto none =
      f.Allocate(Node("node-2", "region-2"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

json Attributes(int64_t numa) {
  return {{"driverVersion", {{"version", "1.0.0"}}},
          {"numa", {{"int", numa}}},
          {"stringAttribute", {{"string", "stringAttributeValue"}}},
          {"boolAttribute", {{"bool", true}}}};
}

TEST(AllocatorTest, WithConstraint) {  // source: "with-constraint"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a",
                   {Device("device-1", Attributes(1)), Device("device-2", Attributes(1))}));
  const json constraints = json::array({{{"matchAttribute", "driver-a/numa"}},
                                        {{"matchAttribute", "driver-a/driverVersion"}},
                                        {{"matchAttribute", "driver-a/stringAttribute"}},
                                        {{"matchAttribute", "driver-a/boolAttribute"}}});
  auto got =
      f.Allocate(Node("node-1", "region-1"),
                 {Claim("claim-0", {Request("req-0", "class-a", 1), Request("req-1", "class-a", 1)},
                        constraints)});
  ASSERT_TRUE(got.ok() && got->has_value()) << (got.ok() ? "no allocation" : got.message());
  EXPECT_EQ(Devices((**got)[0]), (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                                           "req-1 driver-a/pool-1/device-2"}));
}

// source: "with-constraint-not-matching-int-attribute" and "...-all-devices".
TEST(AllocatorTest, WithConstraintNotMatchingIntAttribute) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a",
                   {Device("device-1", {{"numa", {{"int", 1}}}}),
                    Device("device-2", {{"numa", {{"int", 2}}}})}));
  const json numa = json::array({{{"matchAttribute", "driver-a/numa"}}});
  auto got = f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Request("req-0", "class-a", 1), Request("req-1", "class-a", 1)}, numa)});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
  auto all = f.Allocate(Node("node-1", "region-1"),
                        {Claim("claim-0", {AllRequest("req-0", "class-a")}, numa)});
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.message().find("claim claim-0, request req-0: cannot add device "
                               "driver-a/pool-1/device-2 because a claim constraint would not be "
                               "satisfied"),
            std::string::npos)
      << all.message();
}

TEST(AllocatorTest, AlreadyAllocatedDevices) {  // source: "already-allocated-devices"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  f.allocated.allocated_devices = {DeviceId{"driver-a", "pool-1", "device-1"},
                                   DeviceId{"driver-a", "pool-1", "device-2"}};
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
}

// source: "tainted-two-devices" and "tainted-two-devices-tolerated".
TEST(AllocatorTest, TaintedDevices) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  json d1 = Device("device-1");
  d1["taints"] =
      json::array({{{"key", "taint-key"}, {"value", "taint-value"}, {"effect", "NoSchedule"}}});
  json d2 = Device("device-2");
  d2["taints"] =
      json::array({{{"key", "taint-key"}, {"value", "taint-value"}, {"effect", "NoExecute"}}});
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {d1, d2}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
  json tolerant = Request("req-0", "class-a", 1);
  tolerant["exactly"]["tolerations"] = json::array({{{"key", "taint-key"},
                                                     {"operator", "Equal"},
                                                     {"value", "taint-value"},
                                                     {"effect", "NoExecute"}}});
  auto tolerated = f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {tolerant})});
  ASSERT_TRUE(tolerated.ok() && tolerated->has_value());
  EXPECT_EQ(Devices((**tolerated)[0]), std::vector<std::string>{"req-0 driver-a/pool-1/device-2"});
  EXPECT_EQ((**tolerated)[0].devices().results(0).tolerations_size(), 1);
}

TEST(AllocatorTest, TooManyDevicesSingleRequest) {  // source: "too-many-devices-single-request"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  auto got = f.Allocate(Node("node-1", "region-1"),
                        {Claim("claim-0", {Request("req-0", "class-a", 500)})});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.message().find("exceeds the claim limit"), std::string::npos) << got.message();
}

TEST(AllocatorTest, WithClassDeviceConfig) {  // source: "with-class-device-config"
  Fixture f;
  json device_class = ClassJson("class-a", "driver-a");
  device_class["spec"]["config"] = json::array({{{"opaque", {{"driver", "driver-a"}}}}});
  f.AddClass(device_class);
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_TRUE(got.ok() && got->has_value());
  const auto& config = (**got)[0].devices().config();
  ASSERT_EQ(config.size(), 1);
  EXPECT_EQ(config[0].source(), "FromClass");
  EXPECT_EQ(config[0].requests_size(), 0);  // names every request of the claim: nil
  EXPECT_EQ(config[0].opaque().driver(), "driver-a");
}

// Prioritized lists: a request with `firstAvailable` subrequests, tried in order.
json SubRequest(const std::string& name, const std::string& device_class, int64_t count,
                json selectors = json::array()) {
  return {{"name", name},
          {"deviceClassName", device_class},
          {"allocationMode", "ExactCount"},
          {"count", count},
          {"selectors", selectors}};
}

json Prioritized(const std::string& name, json sub_requests) {
  return {{"name", name}, {"firstAvailable", sub_requests}};
}

json MemoryAtLeast(const std::string& quantity) {
  return json::array(
      {{{"cel",
         {{"expression", R"(device.capacity["driver-a"].memory.compareTo(quantity(")" + quantity +
                             R"(")) >= 0)"}}}}});
}

json MemoryDevice(const std::string& name, const std::string& memory,
                  json attributes = json::object()) {
  return Device(name, attributes, {{"memory", {{"value", memory}}}});
}

// The one allocation of a call that must succeed.
k8s::AllocationResult Only(const Result<std::optional<std::vector<k8s::AllocationResult>>>& got) {
  EXPECT_TRUE(got.ok()) << got.message();
  if (!got.ok() || !got->has_value() || (*got)->size() != 1) {
    ADD_FAILURE() << "no single allocation";
    return k8s::AllocationResult();
  }
  return (**got)[0];
}

TEST(AllocatorTest,
     PrioritizedListFirstUnavailable) {  // source: "prioritized-list-first-unavailable"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddClass(ClassJson("class-b", "driver-b"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  const k8s::AllocationResult result = Only(f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-b", 1),
                                               SubRequest("subReq-1", "class-a", 1)})})}));
  EXPECT_EQ(Devices(result), std::vector<std::string>{"req-0/subReq-1 driver-a/pool-1/device-1"});
  ExpectLocalNodeSelector(result, "node-1");
}

TEST(AllocatorTest, PrioritizedListNonAvailable) {  // source: "prioritized-list-non-available"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddClass(ClassJson("class-b", "driver-b"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1")}));
  f.AddSlice(Slice("slice-2", "node-1", "pool-2", "driver-b", {Device("device-1")}));
  auto got = f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-b", 2),
                                               SubRequest("subReq-1", "class-a", 2)})})});
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_FALSE(got->has_value());
}

TEST(AllocatorTest, PrioritizedListDeviceConfig) {  // source: "prioritized-list-device-config"
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddClass(ClassJson("class-b", "driver-b"));
  f.AddSlice(
      Slice("slice-1", "node-1", "pool-1", "driver-b", {Device("device-1"), Device("device-2")}));
  json claim = {
      {"metadata", {{"name", "claim-0"}}},
      {"spec",
       {{"devices",
         {{"requests",
           {Prioritized("req-0", {SubRequest("subReq-0", "class-a", 1),
                                  SubRequest("subReq-1", "class-b", 2)})}},
          {"config",
           json::array(
               {{{"requests", {"req-0/subReq-0"}}, {"opaque", {{"driver", "driver-a"}}}},
                {{"requests", {"req-0/subReq-1"}}, {"opaque", {{"driver", "driver-b"}}}}})}}}}}};
  const k8s::AllocationResult result = Only(
      f.Allocate(Node("node-1", "region-1"), {Must(k8s::ResourceClaimFromJson(claim, "test"))}));
  EXPECT_EQ(Devices(result), (std::vector<std::string>{"req-0/subReq-1 driver-b/pool-1/device-1",
                                                       "req-0/subReq-1 driver-b/pool-1/device-2"}));
  // Only the chosen subrequest's configuration, naming every request of the claim: nil.
  ASSERT_EQ(result.devices().config_size(), 1);
  EXPECT_EQ(result.devices().config(0).source(), "FromClaim");
  EXPECT_EQ(result.devices().config(0).requests_size(), 0);
  EXPECT_EQ(result.devices().config(0).opaque().driver(), "driver-b");
}

TEST(AllocatorTest, PrioritizedListClassConfig) {  // source: "prioritized-list-class-config"
  Fixture f;
  for (const auto& [name, driver] : {std::pair{"class-a", "driver-a"}, {"class-b", "driver-b"}}) {
    json device_class = ClassJson(name, driver);
    device_class["spec"]["config"] = json::array({{{"opaque", {{"driver", driver}}}}});
    f.AddClass(device_class);
  }
  f.AddSlice(
      Slice("slice-1", "node-1", "pool-1", "driver-b", {Device("device-1"), Device("device-2")}));
  f.AddSlice(Slice("slice-2", "node-1", "pool-2", "driver-a", {Device("device-3")}));
  const k8s::AllocationResult result = Only(f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-a", 2),
                                               SubRequest("subReq-1", "class-b", 2)})})}));
  EXPECT_EQ(Devices(result), (std::vector<std::string>{"req-0/subReq-1 driver-b/pool-1/device-1",
                                                       "req-0/subReq-1 driver-b/pool-1/device-2"}));
  ASSERT_EQ(result.devices().config_size(), 1);
  EXPECT_EQ(result.devices().config(0).source(), "FromClass");
  EXPECT_EQ(result.devices().config(0).requests_size(), 0);
  EXPECT_EQ(result.devices().config(0).opaque().driver(), "driver-b");
}

// source: "claim-config-scoped-to-subrequests-of-one-request" and
// "claim-config-covering-all-requests-is-cleared".
TEST(AllocatorTest, ClaimConfigScopedToSubrequests) {
  for (bool covering : {false, true}) {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddClass(ClassJson("class-b", "driver-b"));
    f.AddSlice(
        Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-0"), Device("device-1")}));
    const json names = covering ? json::array({"req-0/subReq-0", "req-1"})
                                : json::array({"req-0/subReq-0", "req-0/subReq-1"});
    json claim = {
        {"metadata", {{"name", "claim-0"}}},
        {"spec",
         {{"devices",
           {{"requests",
             {Prioritized("req-0", {SubRequest("subReq-0", "class-a", 1),
                                    SubRequest("subReq-1", "class-b", 1)}),
              Request("req-1", "class-a", 1)}},
            {"config",
             json::array({{{"requests", names}, {"opaque", {{"driver", "driver-a"}}}}})}}}}}};
    const k8s::AllocationResult result = Only(
        f.Allocate(Node("node-1", "region-1"), {Must(k8s::ResourceClaimFromJson(claim, "test"))}));
    EXPECT_EQ(Devices(result), (std::vector<std::string>{"req-0/subReq-0 driver-a/pool-1/device-0",
                                                         "req-1 driver-a/pool-1/device-1"}));
    ASSERT_EQ(result.devices().config_size(), 1);
    EXPECT_EQ(result.devices().config(0).source(), "FromClaim");
    if (covering) {
      EXPECT_EQ(result.devices().config(0).requests_size(), 0);
    } else {
      EXPECT_EQ(std::vector<std::string>(result.devices().config(0).requests().begin(),
                                         result.devices().config(0).requests().end()),
                (std::vector<std::string>{"req-0/subReq-0", "req-0/subReq-1"}));
    }
  }
}

// source: "prioritized-list-subrequests-with-expressions"
TEST(AllocatorTest, PrioritizedListSubrequestsWithExpressions) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a",
                   {MemoryDevice("device-1", "2Gi"), MemoryDevice("device-2", "2Gi"),
                    MemoryDevice("device-3", "1Gi")}));
  const k8s::AllocationResult result = Only(f.Allocate(
      Node("node-1", "region-1"),
      {Claim(
          "claim-0",
          {Request("req-0", "class-a", 1, MemoryAtLeast("1Gi")),
           Prioritized("req-1", {SubRequest("subReq-0", "class-a", 1, MemoryAtLeast("4Gi")),
                                 SubRequest("subReq-1", "class-a", 2, MemoryAtLeast("2Gi"))})})}));
  EXPECT_EQ(Devices(result), (std::vector<std::string>{"req-0 driver-a/pool-1/device-3",
                                                       "req-1/subReq-1 driver-a/pool-1/device-1",
                                                       "req-1/subReq-1 driver-a/pool-1/device-2"}));
}

// source: "prioritized-list-subrequests-with-constraints-ref-parent-request" and
// "prioritized-list-subrequests-with-constraints-ref-sub-request": a constraint naming the parent
// covers every subrequest, one naming "req-1/subReq-0" only that subrequest.
TEST(AllocatorTest, PrioritizedListSubrequestsWithConstraints) {
  const json v1 = {{"driverVersion", {{"version", "1.0.0"}}}};
  const json v2 = {{"driverVersion", {{"version", "2.0.0"}}}};
  const json claim_requests = {
      Request("req-0", "class-a", 1, MemoryAtLeast("8Gi")),
      Prioritized("req-1", {SubRequest("subReq-0", "class-a", 1, MemoryAtLeast("2Gi")),
                            SubRequest("subReq-1", "class-a", 1, MemoryAtLeast("1Gi"))})};
  {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddSlice(
        Slice("slice-1", "node-1", "pool-1", "driver-a", {MemoryDevice("device-1", "8Gi", v1)}));
    f.AddSlice(Slice("slice-2", "node-1", "pool-2", "driver-a",
                     {MemoryDevice("device-2", "2Gi", v2), MemoryDevice("device-3", "1Gi", v1)}));
    const json constraint = json::array(
        {{{"requests", {"req-0", "req-1"}}, {"matchAttribute", "driver-a/driverVersion"}}});
    const k8s::AllocationResult result = Only(
        f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", claim_requests, constraint)}));
    EXPECT_EQ(Devices(result),
              (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                        "req-1/subReq-1 driver-a/pool-2/device-3"}));
  }
  {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddSlice(
        Slice("slice-1", "node-1", "pool-1", "driver-a", {MemoryDevice("device-1", "8Gi", v1)}));
    f.AddSlice(
        Slice("slice-2", "node-1", "pool-2", "driver-a", {MemoryDevice("device-2", "2Gi", v2)}));
    const json constraint = json::array({{{"requests", {"req-0", "req-1/subReq-0"}},
                                          {"matchAttribute", "driver-a/driverVersion"}}});
    const k8s::AllocationResult result = Only(
        f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", claim_requests, constraint)}));
    EXPECT_EQ(Devices(result),
              (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                        "req-1/subReq-1 driver-a/pool-2/device-2"}));
  }
}

// source: "prioritized-list-subrequests-with-allocation-mode-all" and
// "prioritized-list-allocation-mode-all-multiple-requests": "all" includes a device in use, so that
// subrequest fails and the next is taken.
TEST(AllocatorTest, PrioritizedListAllocationModeAll) {
  json all = SubRequest("subReq-0", "class-a", 0);
  all["allocationMode"] = "All";
  {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddSlice(
        Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1"), Device("device-2")}));
    f.allocated.allocated_devices = {DeviceId{"driver-a", "pool-1", "device-1"}};
    const k8s::AllocationResult result = Only(f.Allocate(
        Node("node-1", "region-1"),
        {Claim("claim-0", {Prioritized("req-0", {all, SubRequest("subReq-1", "class-a", 1)})})}));
    EXPECT_EQ(Devices(result), std::vector<std::string>{"req-0/subReq-1 driver-a/pool-1/device-2"});
  }
  {
    Fixture f;
    f.AddClass(ClassJson("class-a", "driver-a"));
    f.AddSlice(
        Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1"), Device("device-2")}));
    const k8s::AllocationResult result = Only(f.Allocate(
        Node("node-1", "region-1"),
        {Claim("claim-0", {Request("req-0", "class-a", 1),
                           Prioritized("req-1", {all, SubRequest("subReq-1", "class-a", 1)})})}));
    EXPECT_EQ(Devices(result),
              (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                        "req-1/subReq-1 driver-a/pool-1/device-2"}));
  }
}

// source: "prioritized-list-multi-request" and "prioritized-list-with-backtracking": in the second
// the list comes first, takes the 8Gi device with its first subrequest, and has to fall back to
// its second when req-1 finds nothing left.
TEST(AllocatorTest, PrioritizedListMultiRequestAndBacktracking) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {MemoryDevice("device-1", "8Gi")}));
  f.AddSlice(Slice("slice-2", "node-1", "pool-2", "driver-a", {MemoryDevice("device-2", "4Gi")}));
  const json list =
      Prioritized("req-0", {SubRequest("subReq-0", "class-a", 1, MemoryAtLeast("8Gi")),
                            SubRequest("subReq-1", "class-a", 1, MemoryAtLeast("4Gi"))});
  const json large = Request("req-1", "class-a", 1, MemoryAtLeast("8Gi"));
  EXPECT_EQ(
      Devices(Only(f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {large, list})}))),
      (std::vector<std::string>{"req-1 driver-a/pool-1/device-1",
                                "req-0/subReq-1 driver-a/pool-2/device-2"}));
  EXPECT_EQ(
      Devices(Only(f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {list, large})}))),
      (std::vector<std::string>{"req-0/subReq-1 driver-a/pool-2/device-2",
                                "req-1 driver-a/pool-1/device-1"}));
}

// source: "prioritized-list-too-many-in-first-subrequest",
// "prioritized-list-minimum-sum-exceeds-claim-limit" and
// "prioritized-list-overflowing-first-subrequest-is-pruned".
TEST(AllocatorTest, PrioritizedListDeviceLimit) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddClass(ClassJson("class-b", "driver-b"));
  f.AddSlice(
      Slice("slice-1", "node-1", "pool-1", "driver-a", {Device("device-1"), Device("device-2")}));
  EXPECT_EQ(
      Devices(Only(f.Allocate(
          Node("node-1", "region-1"),
          {Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-b", 500),
                                                   SubRequest("subReq-1", "class-a", 1)})})}))),
      std::vector<std::string>{"req-0/subReq-1 driver-a/pool-1/device-1"});
  auto over = f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Request("req-0", "class-a", 20),
                         Prioritized("req-1", {SubRequest("subReq-0", "class-a", 20),
                                               SubRequest("subReq-1", "class-a", 24)})})});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.message().find("request req-1: adding 20 devices exceeds the claim limit"),
            std::string::npos)
      << over.message();
  EXPECT_EQ(
      Devices(Only(f.Allocate(
          Node("node-1", "region-1"),
          {Claim("claim-0", {Request("req-0", "class-a", 1),
                             Prioritized("req-1", {SubRequest("subReq-0", "class-a",
                                                              std::numeric_limits<int64_t>::max()),
                                                   SubRequest("subReq-1", "class-a", 1)})})}))),
      (std::vector<std::string>{"req-0 driver-a/pool-1/device-1",
                                "req-1/subReq-1 driver-a/pool-1/device-2"}));
}

// source: "tainted-two-devices-prioritized-list-tolerated" and "tainted-prioritized-list": a
// subrequest's own tolerations count, and go into the result.
TEST(AllocatorTest, TaintedPrioritizedList) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  f.AddClass(ClassJson("class-b", "driver-b"));
  json d1 = Device("device-1");
  d1["taints"] =
      json::array({{{"key", "taint-key"}, {"value", "taint-value"}, {"effect", "NoSchedule"}}});
  json d2 = Device("device-2");
  d2["taints"] =
      json::array({{{"key", "taint-key"}, {"value", "taint-value-2"}, {"effect", "NoExecute"}}});
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {d1, d2}));
  json tolerant = SubRequest("subReq-1", "class-a", 1);
  tolerant["tolerations"] = json::array({{{"key", "taint-key"},
                                          {"operator", "Equal"},
                                          {"value", "taint-value-2"},
                                          {"effect", "NoExecute"}}});
  const k8s::AllocationResult result = Only(f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0",
             {Prioritized("req-0", {SubRequest("subReq-0", "class-a", 1), tolerant})})}));
  EXPECT_EQ(Devices(result), std::vector<std::string>{"req-0/subReq-1 driver-a/pool-1/device-2"});
  ASSERT_EQ(result.devices().results(0).tolerations_size(), 1);
  EXPECT_EQ(result.devices().results(0).tolerations(0).value(), "taint-value-2");
  auto none = f.Allocate(
      Node("node-1", "region-1"),
      {Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-b", 1),
                                               SubRequest("subReq-1", "class-a", 1)})})});
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_FALSE(none->has_value());
}

TEST(AllocatorTest, UnmodelledFieldsAreRefused) {
  Fixture f;
  f.AddClass(ClassJson("class-a", "driver-a"));
  json device = Device("device-1");
  device["bindingConditions"] = json::array({"ready"});
  f.AddSlice(Slice("slice-1", "node-1", "pool-1", "driver-a", {device}));
  auto got =
      f.Allocate(Node("node-1", "region-1"), {Claim("claim-0", {Request("req-0", "class-a", 1)})});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(
      got.message(),
      "ResourceSlice slice-1: spec.devices[0].bindingConditions is not modelled by schedcheck");
  // Prioritized lists and capacity requests, of a request or a subrequest, are modelled.
  json with_capacity = SubRequest("a", "class-a", 1);
  with_capacity["capacity"] = {{"requests", {{"memory", "1Gi"}}}};
  EXPECT_EQ(UnmodelledClaimField(Claim("claim-0", {Prioritized("req-0", {with_capacity})})), "");
  EXPECT_EQ(UnmodelledClaimField(
                Claim("claim-0", {Prioritized("req-0", {SubRequest("subReq-0", "class-a", 1)})})),
            "");
}

}  // namespace
}  // namespace schedcheck::reference::dra
