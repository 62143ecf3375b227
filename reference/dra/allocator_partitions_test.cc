// Partitionable devices with shared counters against upstream's expectations. Each case names
// (source:) the case of k8s.io/dynamic-resource-allocation v0.37.2
// structured/internal/allocatortesting/allocator_testing.go (TestAllocator's table) it
// transcribes, with its names: claim-0, req-0, class-a (selecting driver-a), slice-1, pool-1,
// device-1, counter-set-1, node-1. Every slice of a pool here is generation 1.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reference/dra/allocator.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference::dra {
namespace {

using nlohmann::json;

template <typename T>
T Must(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.message();
  return result.ok() ? std::move(*result) : T();
}

k8s::Node Node(const std::string& name) {
  return Must(
      k8s::NodeFromJson({{"metadata", {{"name", name}, {"labels", {{"region", "r"}}}}}}, "test"));
}

json Class(const std::string& name, const std::string& driver) {
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"selectors",
             json::array({{{"cel", {{"expression", "device.driver == \"" + driver + "\""}}}}})}}}};
}

json Request(const std::string& name, const std::string& device_class, int64_t count) {
  return {{"name", name}, {"exactly", {{"deviceClassName", device_class}, {"count", count}}}};
}

k8s::ResourceClaim Claim(const std::string& name, json requests, json constraints = json::array()) {
  return Must(k8s::ResourceClaimFromJson(
      {{"metadata", {{"name", name}}},
       {"spec", {{"devices", {{"requests", requests}, {"constraints", constraints}}}}}},
      "test"));
}

// {"memory": "4Gi"} -> {"memory": {"value": "4Gi"}}.
json Counters(const std::map<std::string, std::string>& values) {
  json out = json::object();
  for (const auto& [name, value] : values) out[name] = {{"value", value}};
  return out;
}

// A device consuming counters: {set: {counter: quantity}}.
json Device(const std::string& name,
            const std::map<std::string, std::map<std::string, std::string>>& consumes = {},
            json attributes = json::object()) {
  json device = {{"name", name}, {"attributes", attributes}};
  json consumption = json::array();
  for (const auto& [set, counters] : consumes) {
    consumption.push_back({{"counterSet", set}, {"counters", Counters(counters)}});
  }
  if (!consumption.empty()) device["consumesCounters"] = consumption;
  return device;
}

json Slice(const std::string& name, const std::string& node, const std::string& pool,
           const std::string& driver, int64_t slice_count) {
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"driver", driver},
            {"nodeName", node},
            {"pool", {{"name", pool}, {"generation", 1}, {"resourceSliceCount", slice_count}}}}}};
}

json DeviceSlice(const std::string& name, const std::string& node, const std::string& pool,
                 const std::string& driver, int64_t slice_count, json devices) {
  json slice = Slice(name, node, pool, driver, slice_count);
  slice["spec"]["devices"] = devices;
  return slice;
}

json CounterSlice(const std::string& name, const std::string& node, const std::string& pool,
                  const std::string& driver, int64_t slice_count,
                  const std::map<std::string, std::map<std::string, std::string>>& sets) {
  json slice = Slice(name, node, pool, driver, slice_count);
  json shared = json::array();
  for (const auto& [set, counters] : sets) {
    shared.push_back({{"name", set}, {"counters", Counters(counters)}});
  }
  slice["spec"]["sharedCounters"] = shared;
  return slice;
}

struct Fixture {
  DeviceClasses classes;
  std::vector<k8s::ResourceSlice> slices;
  AllocatedState allocated;
  CelCache cel;

  Fixture() { AddClass(Class("class-a", "driver-a")); }
  void AddClass(const json& device_class) {
    k8s::DeviceClass made = Must(k8s::DeviceClassFromJson(device_class, "test"));
    classes[made.metadata().name()] = made;
  }
  void AddSlice(const json& slice) {
    slices.push_back(Must(k8s::ResourceSliceFromJson(slice, "test")));
  }
  void Allocated(const std::string& driver, const std::string& pool, const std::string& device) {
    allocated.allocated_devices.insert(DeviceId{driver, pool, device});
  }

  // "request driver/pool/device" per allocated device of each claim; {"none"} when the claims
  // do not fit; {"error: <message>"} on an error.
  std::vector<std::vector<std::string>> Allocate(const std::string& node,
                                                 const std::vector<k8s::ResourceClaim>& claims) {
    std::vector<const k8s::ResourceSlice*> slice_ptrs;
    for (const auto& slice : slices) slice_ptrs.push_back(&slice);
    std::vector<const k8s::ResourceClaim*> claim_ptrs;
    for (const auto& claim : claims) claim_ptrs.push_back(&claim);
    Allocator allocator(allocated, classes, slice_ptrs, cel);
    auto got = allocator.Allocate(Node(node), claim_ptrs);
    if (!got.ok()) return {{"error: " + got.message()}};
    if (!got->has_value()) return {{"none"}};
    std::vector<std::vector<std::string>> out;
    for (const k8s::AllocationResult& result : **got) {
      out.emplace_back();
      for (const auto& r : result.devices().results()) {
        out.back().push_back(r.request() + " " + r.driver() + "/" + r.pool() + "/" + r.device());
      }
    }
    return out;
  }
};

using Want = std::vector<std::vector<std::string>>;
const Want kNone = {{"none"}};
const Want kInvalidPools = {{"error: invalid resource pools were encountered"}};

TEST(PartitionsTest, SingleDevice) {  // source: "partitionable-devices-single-device"
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("device-1", {{"counter-set-1", {{"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"memory", "8Gi"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-1"}}));
}

// source: "partitionable-devices-counter-quantities-are-not-modified": sums beyond int64 stay
// exact (9e18 allocated + 1 fits 1e19).
TEST(PartitionsTest, CounterQuantitiesAreExact) {
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("device-1", {{"counter-set-1", {{"c", "9000000000000000000"}}}}),
                          Device("device-2", {{"counter-set-1", {{"c", "1"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"c", "10000000000000000000"}}}}));
  f.Allocated("driver-a", "pool-1", "device-1");
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-2"}}));
}

// source: "partitionable-devices-counter-cache-scoped-by-pool-ID" and
// "partitionable-devices-counter-cache-not-crossed-between-driver-schemas": two drivers' pools of
// one name keep their own counters.
TEST(PartitionsTest, CountersArePerPoolOfADriver) {
  for (bool over : {false, true}) {
    Fixture f;
    f.AddClass(Class("class-b", "driver-b"));
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                           {Device("device-1", {{"counter-set-1", {{"c", "1"}}}})}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                            {{"counter-set-1", {{"c", "1"}}}}));
    const std::string set = over ? "counter-set-2" : "counter-set-1";
    const std::string counter = over ? "d" : "c";
    f.AddSlice(DeviceSlice("slice-3", "node-1", "pool-1", "driver-b", 2,
                           {Device("device-2", {{set, {{counter, "2"}}}})}));
    f.AddSlice(CounterSlice("slice-4", "node-1", "pool-1", "driver-b", 2,
                            {{set, {{counter, over ? "1" : "2"}}}}));
    const Want want =
        over ? kNone : Want{{"req-0 driver-a/pool-1/device-1"}, {"req-1 driver-b/pool-1/device-2"}};
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                                    Claim("claim-1", {Request("req-1", "class-b", 1)})}),
              want)
        << "over=" << over;
  }
}

TEST(PartitionsTest,
     TaintReleasesCounter) {  // source: "partitionable-devices-taint-releases-counter"
  Fixture f;
  json tainted = Device("device-1", {{"counter-set-1", {{"c", "1"}}}});
  tainted["taints"] = json::array({{{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}}});
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {tainted, Device("device-2", {{"counter-set-1", {{"c", "1"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"c", "1"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-2"}}));
}

// source: "partitionable-devices-constraint-releases-counter".
TEST(PartitionsTest, ConstraintReleasesCounter) {
  Fixture f;
  auto colored = [](const std::string& name, const std::string& color) {
    return Device(name, {{"counter-set-1", {{"c", "1"}}}},
                  {{"stringAttribute", {{"string", color}}}});
  };
  f.AddSlice(DeviceSlice(
      "slice-1", "node-1", "pool-1", "driver-a", 2,
      {colored("device-1", "red"), colored("device-2", "blue"), colored("device-3", "blue")}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"c", "2"}}}}));
  const json match = json::array({{{"matchAttribute", "driver-a/stringAttribute"}}});
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 2)}, match)}),
            (Want{{"req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3"}}));
}

// source: "partitionable-devices-multiple-devices": device-2 would leave too little for a second.
TEST(PartitionsTest, MultipleDevices) {
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("device-1", {{"counter-set-1", {{"memory", "4Gi"}}}}),
                          Device("device-2", {{"counter-set-1", {{"memory", "6Gi"}}}}),
                          Device("device-3", {{"counter-set-1", {{"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"memory", "8Gi"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1),
                                                    Request("req-1", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-3"}}));
}

TEST(PartitionsTest, MultipleCounters) {  // source: "partitionable-devices-multiple-counters"
  Fixture f;
  f.AddSlice(
      DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                  {Device("device-1", {{"counter-set-1", {{"memory", "4Gi"}, {"cpus", "6"}}},
                                       {"counter-set-2", {{"cpus", "4"}, {"memory", "2Gi"}}}}),
                   Device("device-2", {{"counter-set-1", {{"memory", "6Gi"}, {"cpus", "4"}}},
                                       {"counter-set-2", {{"cpus", "6"}, {"memory", "6Gi"}}}}),
                   Device("device-3", {{"counter-set-1", {{"memory", "4Gi"}, {"cpus", "4"}}},
                                       {"counter-set-2", {{"cpus", "4"}, {"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}},
                           {"counter-set-2", {{"cpus", "12"}, {"memory", "18Gi"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1),
                                                    Request("req-1", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-2", "req-1 driver-a/pool-1/device-3"}}));
}

// source: "partitionable-devices-multiple-pools": pool-1's allocated devices leave 0 cpus.
TEST(PartitionsTest, MultiplePools) {
  Fixture f;
  f.AddSlice(
      DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                  {Device("device-1", {{"counter-set-1", {{"cpus", "6"}, {"memory", "4Gi"}}}}),
                   Device("device-2", {{"counter-set-1", {{"cpus", "4"}, {"memory", "6Gi"}}}}),
                   Device("device-3", {{"counter-set-1", {{"cpus", "4"}, {"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}}}));
  f.AddSlice(
      DeviceSlice("slice-3", "node-1", "pool-2", "driver-a", 2,
                  {Device("device-1", {{"counter-set-1", {{"cpus", "6"}, {"memory", "4Gi"}}}}),
                   Device("device-2", {{"counter-set-1", {{"cpus", "1"}, {"memory", "7Gi"}}}}),
                   Device("device-3", {{"counter-set-1", {{"cpus", "1"}, {"memory", "7Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-4", "node-1", "pool-2", "driver-a", 2,
                          {{"counter-set-1", {{"cpus", "8"}, {"memory", "18Gi"}}}}));
  f.Allocated("driver-a", "pool-1", "device-2");
  f.Allocated("driver-a", "pool-1", "device-3");
  f.Allocated("driver-a", "pool-2", "device-1");
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1),
                                                    Request("req-1", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-2/device-2", "req-1 driver-a/pool-2/device-3"}}));
}

// source: "partitionable-devices-unused-counters-in-counter-set".
TEST(PartitionsTest, UnusedCountersInCounterSet) {
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("device-1", {{"counter-set-1", {{"memory", "5Gi"}}}}),
                          Device("device-2", {{"counter-set-1", {{"memory", "4Gi"}}}}),
                          Device("device-3", {{"counter-set-1", {{"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"memory", "8Gi"}, {"unused", "1Gi"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 2)})}),
            (Want{{"req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3"}}));
}

// source: "partitionable-devices-no-capacity-available" and
// "partitionable-devices-overallocated-capacity-pool", each with a complete pool (upstream's two
// slices of a one-slice pool make it incomplete as well): what an allocated device leaves is too
// little, or below zero.
TEST(PartitionsTest, NoCountersLeft) {
  for (const char* big : {"16Gi", "20Gi"}) {
    Fixture f;
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                           {Device("device-1", {{"counter-set-1", {{"memory", "4Gi"}}}}),
                            Device("device-2", {{"counter-set-1", {{"memory", big}}}})}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                            {{"counter-set-1", {{"memory", "18Gi"}}}}));
    f.Allocated("driver-a", "pool-1", "device-2");
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}), kNone)
        << big;
  }
}

// source: "partitionable-devices-same-counter-set-name-in-different-resource-slices",
// "...-device-counter-consumption-references-unknown-counter-set",
// "...-references-unknown-counter-in-counter-set" and "...-references-counter-set-in-other-pool".
TEST(PartitionsTest, InvalidCounterPools) {
  const json request = json::array({Request("req-0", "class-a", 1)});
  {
    Fixture f;
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 4, {Device("device-1")}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 4, {{"counter-set-1", {}}}));
    f.AddSlice(DeviceSlice("slice-3", "node-1", "pool-1", "driver-a", 4, {Device("device-2")}));
    f.AddSlice(CounterSlice("slice-4", "node-1", "pool-1", "driver-a", 4, {{"counter-set-1", {}}}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", request)}), kInvalidPools);
  }
  {
    Fixture f;
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                           {Device("device-1", {{"counter-set-2", {}}})}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2, {{"counter-set-1", {}}}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", request)}), kInvalidPools);
  }
  {
    Fixture f;
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                           {Device("device-1", {{"counter-set-1", {{"memory", "8Gi"}}}})}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                            {{"counter-set-1", {{"other-memory", "8Gi"}}}}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", request)}), kInvalidPools);
  }
  {
    Fixture f;
    f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 1,
                           {Device("device-1", {{"counter-set-1", {{"memory", "8Gi"}}}})}));
    f.AddSlice(CounterSlice("slice-2", "node-1", "pool-2", "driver-a", 1,
                            {{"counter-set-1", {{"memory", "8Gi"}}}}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", request)}), kInvalidPools);
  }
}

// source: "partitionable-devices-devices-consume-counter-set-in-different-nodes": a device
// allocated on node-1 consumes the counters node-2's devices share.
TEST(PartitionsTest, DevicesOnOtherNodesConsumeTheSet) {
  Fixture f;
  f.AddSlice(CounterSlice("slice-1", "node-1", "pool-1", "driver-a", 3,
                          {{"counter-set-1", {{"memory", "8Gi"}}}}));
  f.AddSlice(DeviceSlice("slice-2", "node-1", "pool-1", "driver-a", 3,
                         {Device("device-1", {{"counter-set-1", {{"memory", "6Gi"}}}})}));
  f.AddSlice(DeviceSlice("slice-3", "node-2", "pool-1", "driver-a", 3,
                         {Device("device-2", {{"counter-set-1", {{"memory", "6Gi"}}}}),
                          Device("device-3", {{"counter-set-1", {{"memory", "2Gi"}}}})}));
  f.Allocated("driver-a", "pool-1", "device-1");
  EXPECT_EQ(f.Allocate("node-2", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-3"}}));
}

// source: "partitionable-devices-validation-error-on-non-targeting-slice": a device of a slice for
// another node names an unknown counter set.
TEST(PartitionsTest, ValidationErrorOnNonTargetingSlice) {
  Fixture f;
  f.AddSlice(CounterSlice("slice-1", "node-1", "pool-1", "driver-a", 3,
                          {{"counter-set-1", {{"memory", "8Gi"}}}}));
  f.AddSlice(DeviceSlice("slice-2", "node-1", "pool-1", "driver-a", 3,
                         {Device("device-1", {{"counter-set-1", {{"memory", "6Gi"}}}})}));
  f.AddSlice(DeviceSlice("slice-3", "node-2", "pool-1", "driver-a", 3,
                         {Device("device-3", {{"counter-set-2", {{"memory", "6Gi"}}}})}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            kInvalidPools);
}

json AllRequest(const std::string& name) {
  return {{"name", name}, {"exactly", {{"deviceClassName", "class-a"}, {"allocationMode", "All"}}}};
}

// source: "all-devices-with-consumed-counters".
TEST(PartitionsTest, AllDevicesWithConsumedCounters) {
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("device-1", {{"counter-set-1", {{"memory", "4Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"memory", "8Gi"}}}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {AllRequest("req-0")})}),
            (Want{{"req-0 driver-a/pool-1/device-1"}}));
}

// source: "partitionable-all-mode-constraint-must-error-with-reserved-counter".
TEST(PartitionsTest, AllModeConstraintErrorAfterReservedCounter) {
  Fixture f;
  f.AddSlice(DeviceSlice(
      "slice-1", "node-1", "pool-1", "driver-a", 2,
      {Device("device-1", {}, {{"numa", {{"int", 1}}}}),
       Device("device-2", {{"counter-set-1", {{"c", "1"}}}}, {{"numa", {{"int", 2}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"c", "1"}}}}));
  const json numa = json::array({{{"matchAttribute", "driver-a/numa"}}});
  EXPECT_EQ(
      f.Allocate("node-1", {Claim("claim-0", {AllRequest("req-0")}, numa)}),
      (Want{{"error: claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 "
             "because a claim constraint would not be satisfied"}}));
}

// Two claims in one call: the first one's device consumes what the second would need (the
// in-flight half of the tracking, as the scheduler allocates a pod's claims together).
TEST(PartitionsTest, ClaimsOfOneCallShareTheCounters) {
  Fixture f;
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2,
                         {Device("whole", {{"gpu-0", {{"memory", "40Gi"}}}}),
                          Device("half-0", {{"gpu-0", {{"memory", "20Gi"}}}}),
                          Device("half-1", {{"gpu-0", {{"memory", "20Gi"}}}})}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"gpu-0", {{"memory", "40Gi"}}}}));
  // The first claim's whole device leaves nothing for the second: the search goes back to a half.
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                                  Claim("claim-1", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/half-0"}, {"req-0 driver-a/pool-1/half-1"}}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                                  Claim("claim-1", {Request("req-0", "class-a", 1)}),
                                  Claim("claim-2", {Request("req-0", "class-a", 1)})}),
            kNone);
  f.Allocated("driver-a", "pool-1", "half-1");
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/half-0"}}));
}

}  // namespace
}  // namespace schedcheck::reference::dra
