// ApplyDeviceTaintRules and TaintsDiffer against the cases of upstream's tracker test
// (k8s.io/dynamic-resource-allocation v0.37.2 resourceslice/tracker/tracker_test.go, by name:
// source:): which devices a rule's selector picks, and that taints are appended.
#include "reference/dra/device_taint_rules.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference::dra {
namespace {

using nlohmann::json;

k8s::ResourceSlice Slice(const std::string& name, const std::string& driver,
                         const std::string& pool, json devices) {
  auto slice = k8s::ResourceSliceFromJson(
      {{"metadata", {{"name", name}}},
       {"spec",
        {{"driver", driver},
         {"pool", {{"name", pool}, {"generation", 1}, {"resourceSliceCount", 1}}},
         {"nodeName", "node-1"},
         {"devices", devices}}}},
      "test");
  EXPECT_TRUE(slice.ok()) << slice.message();
  return slice.ok() ? *slice : k8s::ResourceSlice();
}

// A rule tainting key=<name>:NoExecute; `selector` null: no selector at all.
k8s::DeviceTaintRule Rule(const std::string& name, json selector) {
  json spec = {{"taint", {{"key", name}, {"value", "v"}, {"effect", "NoExecute"}}}};
  if (!selector.is_null()) spec["deviceSelector"] = selector;
  auto rule =
      k8s::DeviceTaintRuleFromJson({{"metadata", {{"name", name}}}, {"spec", spec}}, "test");
  EXPECT_TRUE(rule.ok()) << rule.message();
  return rule.ok() ? *rule : k8s::DeviceTaintRule();
}

// "device:key,key" for each device of the slice.
std::vector<std::string> Taints(const k8s::ResourceSlice& slice) {
  std::vector<std::string> out;
  for (const k8s::Device& device : slice.spec().devices()) {
    std::string text = device.name() + ":";
    for (int i = 0; i < device.taints_size(); ++i) {
      text += (i > 0 ? "," : "") + device.taints(i).key();
    }
    out.push_back(text);
  }
  return out;
}

const json kTwoDevices = json::array({{{"name", "device-1"}}, {{"name", "device-2"}}});

DeviceTaintRules Rules(const std::vector<k8s::DeviceTaintRule>& rules) {
  DeviceTaintRules out;
  for (const auto& rule : rules) out[rule.metadata().name()] = rule;
  return out;
}

TEST(DeviceTaintRulesTest, PatchAllSlices) {  // source: "patch-all-slices"
  const auto rules = Rules({Rule("all", json::object())});
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(Slice("s1", "driver-1", "pool-1", kTwoDevices), rules)),
            (std::vector<std::string>{"device-1:all", "device-2:all"}));
}

// source: "add-taint-for-driver", "add-taint-for-pool", "add-taint-for-device",
// "filter-all-criteria".
TEST(DeviceTaintRulesTest, SelectorCriteria) {
  const auto s1 = Slice("s1", "driver-1", "pool-1", kTwoDevices);
  const auto s2 = Slice("s2", "driver-2", "pool-2", kTwoDevices);
  const auto driver = Rules({Rule("driver", {{"driver", "driver-1"}})});
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s1, driver)),
            (std::vector<std::string>{"device-1:driver", "device-2:driver"}));
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s2, driver)),
            (std::vector<std::string>{"device-1:", "device-2:"}));
  const auto pool = Rules({Rule("pool", {{"pool", "pool-2"}})});
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s1, pool)),
            (std::vector<std::string>{"device-1:", "device-2:"}));
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s2, pool)),
            (std::vector<std::string>{"device-1:pool", "device-2:pool"}));
  const auto device = Rules({Rule("device", {{"device", "device-1"}})});
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s2, device)),
            (std::vector<std::string>{"device-1:device", "device-2:"}));
  const auto all =
      Rules({Rule("all", {{"driver", "driver-1"}, {"pool", "pool-1"}, {"device", "device-2"}})});
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s1, all)),
            (std::vector<std::string>{"device-1:", "device-2:all"}));
  EXPECT_EQ(Taints(ApplyDeviceTaintRules(s2, all)),
            (std::vector<std::string>{"device-1:", "device-2:"}));
}

TEST(DeviceTaintRulesTest, MergeTaints) {  // source: "merge-taints"
  json devices = kTwoDevices;
  devices[0]["taints"] = json::array({{{"key", "own"}, {"effect", "NoSchedule"}}});
  const auto patched =
      ApplyDeviceTaintRules(Slice("s1", "driver-1", "pool-1", devices),
                            Rules({Rule("b", json::object()), Rule("a", json::object())}));
  EXPECT_EQ(Taints(patched), (std::vector<std::string>{"device-1:own,a,b", "device-2:a,b"}));
}

TEST(DeviceTaintRulesTest, NilSelectorMatchesNone) {  // source: "nil-selector-matches-none"
  const auto slice = Slice("s1", "driver-1", "pool-1", kTwoDevices);
  const auto patched = ApplyDeviceTaintRules(slice, Rules({Rule("none", nullptr)}));
  EXPECT_EQ(Taints(patched), (std::vector<std::string>{"device-1:", "device-2:"}));
  EXPECT_FALSE(TaintsDiffer(slice, patched));
}

// syncSlice after a rule event: an update only where some device's taints changed
// (source: "remove-patch-known-deleted-rule": the slice the rule tainted gets one).
TEST(DeviceTaintRulesTest, TaintsDiffer) {
  const auto slice = Slice("s1", "driver-1", "pool-1", kTwoDevices);
  const auto tainted = ApplyDeviceTaintRules(slice, Rules({Rule("pool", {{"pool", "pool-1"}})}));
  EXPECT_TRUE(TaintsDiffer(slice, tainted));
  EXPECT_TRUE(TaintsDiffer(tainted, slice));
  EXPECT_FALSE(TaintsDiffer(tainted, tainted));
  auto other_value = tainted;
  other_value.mutable_spec()->mutable_devices(1)->mutable_taints(0)->set_value("w");
  EXPECT_TRUE(TaintsDiffer(tainted, other_value));
}

}  // namespace
}  // namespace schedcheck::reference::dra
