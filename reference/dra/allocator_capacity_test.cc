// Consumable capacity against upstream's expectations. Each case names (source:) the case of
// k8s.io/dynamic-resource-allocation v0.37.2 structured/internal/allocatortesting/
// allocator_testing.go (TestAllocator's table) it transcribes, with its names and quantities:
// capacity-0 and capacity-1, "one" to "four" (binary quantities written as integers), devices
// sharing by allowMultipleAllocations, the range policy (default 2, min 2, step 2, max 4) and the
// valid-values policy of its helpers. Upstream's share IDs are random UIDs; here only their
// presence is compared.
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

  // "request driver/pool/device" per allocated device of each claim, with " share" for a share
  // and " name=amount" for each consumed capacity; {"none"} when the claims do not fit;
  // {"error: <message>"} on an error.
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
        std::string line = r.request() + " " + r.driver() + "/" + r.pool() + "/" + r.device();
        if (r.has_share_id()) line += " share";
        for (const auto& [name, amount] : std::map<std::string, std::string>(
                 r.consumed_capacity().begin(), r.consumed_capacity().end())) {
          line += " " + name + "=" + amount;
        }
        out.back().push_back(line);
      }
    }
    return out;
  }
};

using Want = std::vector<std::vector<std::string>>;
const Want kNone = {{"none"}};

// A shared device (allowMultipleAllocations) with capacities {name: capacity json}.
json SharedDevice(const std::string& name, json capacity = json::object()) {
  json device = Device(name);
  device["allowMultipleAllocations"] = true;
  if (!capacity.empty()) device["capacity"] = capacity;
  return device;
}

// withCapacityRequestPolicyRange: value, default 2, range min 2, step 2, max 4.
json RangeCapacity(const std::string& value) {
  return {{"value", value},
          {"requestPolicy",
           {{"default", "2"}, {"validRange", {{"min", "2"}, {"step", "2"}, {"max", "4"}}}}}};
}

// withCapacityRequestPolicyValidValues: the default first, then the others.
json ValuesCapacity(const std::string& value, const std::string& default_value,
                    std::vector<std::string> more = {}) {
  more.insert(more.begin(), default_value);
  return {{"value", value}, {"requestPolicy", {{"default", default_value}, {"validValues", more}}}};
}

json Asking(const std::string& amount, const std::string& capacity = "capacity-0") {
  json request = Request("req-0", "class-a", 1);
  request["exactly"]["capacity"] = {{"requests", {{capacity, amount}}}};
  return request;
}

json OneSlice(json devices) {
  return DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 1, devices);
}

// source: "consumable-capacity-multi-allocatable-device-with-missing-capacity-request" (and
// "...-allocation-mode-all-with-missing-capacity-request"): no device has the capacity asked for.
TEST(ConsumableCapacityTest, MissingCapacity) {
  Fixture f;
  f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-1", {{"value", "1"}}}})}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("1")})}), kNone);
  json all = Asking("1");
  all["exactly"].erase("count");
  all["exactly"]["allocationMode"] = "All";
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {all})}), kNone);
}

// source: "consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request".
TEST(ConsumableCapacityTest, SharedWithoutCapacity) {
  Fixture f;
  f.AddSlice(OneSlice({SharedDevice("device-1")}));
  EXPECT_EQ(
      f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                            Claim("claim-1", {Request("req-0", "class-a", 1)})}),
      (Want{{"req-0 driver-a/pool-1/device-1 share"}, {"req-0 driver-a/pool-1/device-1 share"}}));
}

// source: "consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request" and
// "...-with-range-policy-with-capacity-request": the default, or 1 rounded up to the minimum.
TEST(ConsumableCapacityTest, RangePolicyDefaultAndMinimum) {
  for (bool asking : {false, true}) {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", RangeCapacity("4")}})}));
    const json request = asking ? Asking("1") : Request("req-0", "class-a", 1);
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {request}), Claim("claim-1", {request})}),
              (Want{{"req-0 driver-a/pool-1/device-1 share capacity-0=2"},
                    {"req-0 driver-a/pool-1/device-1 share capacity-0=2"}}))
        << "asking=" << asking;
  }
}

// source: "consumable-capacity-multi-allocatable-device-with-range-policy-step" (3 rounds up to
// 4), "...-with-request-over-max-sharing-policy" (6 is above the range's max although the device
// has 10) and "...-with-exceeded-consumable-capacity-request" (2 + 2 > 2).
TEST(ConsumableCapacityTest, RangePolicyStepMaxAndTotal) {
  {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", RangeCapacity("4")}})}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("3")})}),
              (Want{{"req-0 driver-a/pool-1/device-1 share capacity-0=4"}}));
  }
  {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", RangeCapacity("10")}})}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("6")})}), kNone);
  }
  {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", RangeCapacity("2")}})}));
    json second = Asking("2");
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("1")}), Claim("claim-1", {second})}),
              kNone);
  }
}

// source: "consumable-capacity-multi-allocatable-device-with-zero-request-policy",
// "...-violates-zero-request-policy" and "...-with-valid-values-policy-round-up".
TEST(ConsumableCapacityTest, ValidValuesPolicy) {
  {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", ValuesCapacity("1", "0")}})}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                                    Claim("claim-1", {Request("req-0", "class-a", 1)})}),
              (Want{{"req-0 driver-a/pool-1/device-1 share capacity-0=0"},
                    {"req-0 driver-a/pool-1/device-1 share capacity-0=0"}}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("1")})}), kNone);
  }
  {
    Fixture f;
    f.AddSlice(
        OneSlice({SharedDevice("device-1", {{"capacity-0", ValuesCapacity("3", "1", {"3"})}})}));
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("2")})}),
              (Want{{"req-0 driver-a/pool-1/device-1 share capacity-0=3"}}));
  }
}

// source: "consumable-capacity-range-policy-request-above-int64-rejected",
// "...-rounded-value-overflow-rejected", "...-overflow-aborts-not-skip" and
// "consumable-capacity-negative-request-aborts": errors, not a device skipped.
TEST(ConsumableCapacityTest, UnrepresentableOrNegativeAborts) {
  auto error = [](const Want& got) {
    return got.size() == 1 && got[0].size() == 1 ? got[0][0] : "";
  };
  for (const char* amount : {"18446744073709551616", "9223372036854775807"}) {
    Fixture f;
    f.AddSlice(OneSlice(
        {SharedDevice("device-1", {{"capacity-0", RangeCapacity("4")}}),
         SharedDevice("device-2", {{"capacity-0", {{"value", "36893488147419103232"}}}})}));
    const std::string got = error(f.Allocate("node-1", {Claim("claim-0", {Asking(amount)})}));
    EXPECT_NE(got.find("cannot be represented"), std::string::npos) << amount << ": " << got;
    EXPECT_NE(got.find("claim claim-0, request req-0: checking capacity for device "
                       "driver-a/pool-1/device-1: capacity \"capacity-0\""),
              std::string::npos)
        << got;
  }
  Fixture f;
  f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", {{"value", "10"}}}})}));
  const std::string got = error(f.Allocate("node-1", {Claim("claim-0", {Asking("-5")})}));
  EXPECT_NE(got.find("negative"), std::string::npos) << got;
}

// source: "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining" and
// "...-with-allocated-capacity-next-device": allocated shares' capacity counts.
TEST(ConsumableCapacityTest, AllocatedSharesCount) {
  for (const char* value : {"4", "2"}) {
    Fixture f;
    f.AddSlice(OneSlice({SharedDevice("device-1", {{"capacity-0", RangeCapacity(value)}}),
                         SharedDevice("device-2", {{"capacity-0", RangeCapacity(value)}})}));
    f.allocated.allocated_shared_devices.insert(DeviceId{"driver-a", "pool-1", "device-1"});
    f.allocated.aggregated_capacity[DeviceId{"driver-a", "pool-1", "device-1"}]["capacity-0"] =
        static_cast<__int128>(2) * 1000000000;
    const std::string device = std::string(value) == "4" ? "device-1" : "device-2";
    EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("2")})}),
              (Want{{"req-0 driver-a/pool-1/" + device + " share capacity-0=2"}}))
        << value;
  }
}

// source: "consumable-capacity-dedicated-device-with-consumable-capacity-request": a device that
// is not shared takes the request whole, and its result has no share.
TEST(ConsumableCapacityTest, DedicatedDeviceWithCapacityRequest) {
  Fixture f;
  json device = Device("device-1");
  device["capacity"] = {{"capacity-0", {{"value", "1"}}}};
  f.AddSlice(OneSlice({device}));
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Asking("1")})}),
            (Want{{"req-0 driver-a/pool-1/device-1"}}));
}

// source: "partitionable-consumable-capacity-shared-device-counter-not-recharged": a device shared
// before has its counters taken once, so another share does not need them again.
TEST(ConsumableCapacityTest, SharedDeviceCountersNotRecharged) {
  Fixture f;
  json device = SharedDevice("device-1");
  device["consumesCounters"] =
      json::array({{{"counterSet", "counter-set-1"}, {"counters", {{"c", {{"value", "1"}}}}}}});
  f.AddSlice(DeviceSlice("slice-1", "node-1", "pool-1", "driver-a", 2, {device}));
  f.AddSlice(CounterSlice("slice-2", "node-1", "pool-1", "driver-a", 2,
                          {{"counter-set-1", {{"c", "1"}}}}));
  f.allocated.allocated_shared_devices.insert(DeviceId{"driver-a", "pool-1", "device-1"});
  EXPECT_EQ(f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)})}),
            (Want{{"req-0 driver-a/pool-1/device-1 share"}}));
  // Two shares in one call take the counters once too.
  f.allocated.allocated_shared_devices.clear();
  EXPECT_EQ(
      f.Allocate("node-1", {Claim("claim-0", {Request("req-0", "class-a", 1)}),
                            Claim("claim-1", {Request("req-0", "class-a", 1)})}),
      (Want{{"req-0 driver-a/pool-1/device-1 share"}, {"req-0 driver-a/pool-1/device-1 share"}}));
}

}  // namespace
}  // namespace schedcheck::reference::dra
