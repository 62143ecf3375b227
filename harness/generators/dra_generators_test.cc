// The DRA generator's traces: every object is one the API server accepts (the importers'
// validators), the same seed gives the same trace, pods name only claims the trace has written
// (the ResourceClaim controller's part), and each feature switch adds its fields and nothing
// without it does.
#include "harness/generators/dra_generators.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "harness/generators/sample.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::generators {
namespace {

using Json = nlohmann::json;
constexpr int kSamples = 40;

std::vector<trace::Record> Draw(uint64_t seed, const DraFeatures& features) {
  auto s = Sample<WideScenario>(seed, [&] { return *DraScenarioGen(features); });
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? s->records : std::vector<trace::Record>{};
}

// The event's object as Kubernetes JSON and its kind.
std::pair<std::string, Json> ObjectOf(const trace::ApiEvent& api) {
  if (api.has_pod()) return {"Pod", Json::parse(k8s::ToJson(api.pod()))};
  if (api.has_node()) return {"Node", Json::parse(k8s::ToJson(api.node()))};
  if (api.has_resource_claim())
    return {"ResourceClaim", Json::parse(k8s::ToJson(api.resource_claim()))};
  if (api.has_resource_claim_template())
    return {"ResourceClaimTemplate", Json::parse(k8s::ToJson(api.resource_claim_template()))};
  if (api.has_resource_slice())
    return {"ResourceSlice", Json::parse(k8s::ToJson(api.resource_slice()))};
  if (api.has_device_class()) return {"DeviceClass", Json::parse(k8s::ToJson(api.device_class()))};
  if (api.has_device_taint_rule())
    return {"DeviceTaintRule", Json::parse(k8s::ToJson(api.device_taint_rule()))};
  return {"", Json()};
}

// Which switch's fields a trace's JSON shows (by field name).
std::set<std::string> FeaturesShown(const std::vector<trace::Record>& records) {
  std::set<std::string> shown;
  for (const trace::Record& r : records) {
    const std::string text = ObjectOf(r.api()).second.dump();
    if (text.find("sharedCounters") != std::string::npos) shown.insert("partitions");
    if (text.find("allowMultipleAllocations") != std::string::npos ||
        text.find("\"capacity\":{\"requests\"") != std::string::npos)
      shown.insert("consumable-capacity");
    if (text.find("\"taints\"") != std::string::npos ||
        text.find("\"tolerations\"") != std::string::npos || r.api().has_device_taint_rule())
      shown.insert("device-taints");
    if (text.find("firstAvailable") != std::string::npos) shown.insert("prioritized-lists");
    if (text.find("extendedResourceName") != std::string::npos) shown.insert("extended-resources");
  }
  return shown;
}

std::vector<DraFeatures> FeatureSets() {
  std::vector<DraFeatures> sets = {DraFeatures{}, DraFeatures::All()};
  for (const char* one : {"partitions", "consumable-capacity", "device-taints", "prioritized-lists",
                          "extended-resources"}) {
    sets.push_back(*ParseDraFeatures(one));
  }
  return sets;
}

// The generator validates every object it writes with the importers' API validators (and fails
// when one is refused); here every feature set draws its traces without such a failure, each
// record carrying an object.
TEST(DraGenerators, EveryObjectPassesTheApiValidators) {
  for (const DraFeatures& features : FeatureSets()) {
    for (uint64_t seed = 1; seed <= kSamples; ++seed) {
      auto s = Sample<WideScenario>(seed, [&] { return *DraScenarioGen(features); });
      ASSERT_TRUE(s.ok()) << features.Names() << " seed " << seed << ": " << s.message();
      for (const trace::Record& r : s->records) ASSERT_FALSE(ObjectOf(r.api()).first.empty());
    }
  }
}

TEST(DraGenerators, SameSeedSameTrace) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const std::vector<trace::Record> a = Draw(seed, DraFeatures::All());
    const std::vector<trace::Record> b = Draw(seed, DraFeatures::All());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(k8s::ToJson(a[i]), k8s::ToJson(b[i])) << "record " << i;
  }
}

// A pod's resourceClaimName and its status' claim names name claims the trace wrote before and
// did not delete; a claim made from a template is owned by its pod; times never go back.
TEST(DraGenerators, PodsNameClaimsTheTraceWrote) {
  int template_pods = 0, shared = 0;
  for (uint64_t seed = 1; seed <= kSamples; ++seed) {
    std::set<std::string> claims;
    std::map<std::string, int> users;
    int64_t last = 0;
    for (const trace::Record& r : Draw(seed, DraFeatures::All())) {
      EXPECT_GE(r.time_ns(), last);
      last = r.time_ns();
      const trace::ApiEvent& api = r.api();
      if (api.has_resource_claim()) {
        const k8s::ResourceClaim& c = api.resource_claim();
        if (api.type() == trace::DELETED) {
          claims.erase(c.metadata().name());
        } else {
          claims.insert(c.metadata().name());
        }
        for (const auto& owner : c.metadata().owner_references()) {
          EXPECT_EQ(owner.uid(), "uid-" + owner.name());
          EXPECT_TRUE(owner.controller());
        }
      }
      if (!api.has_pod() || api.type() == trace::DELETED) continue;
      const k8s::Pod& pod = api.pod();
      for (const auto& entry : pod.spec().resource_claims()) {
        if (!entry.resource_claim_name().empty()) {
          EXPECT_TRUE(claims.count(entry.resource_claim_name()))
              << "seed " << seed << ": pod " << pod.metadata().name() << " names "
              << entry.resource_claim_name();
          if (api.type() == trace::ADDED && ++users[entry.resource_claim_name()] == 2) ++shared;
        } else {
          template_pods += api.type() == trace::ADDED;
        }
      }
      for (const auto& status : pod.status().resource_claim_statuses())
        EXPECT_TRUE(claims.count(status.resource_claim_name())) << status.resource_claim_name();
    }
  }
  EXPECT_GT(template_pods, 0);
  EXPECT_GT(shared, 0);
}

TEST(DraGenerators, EachSwitchAddsItsFieldsAndOnlyIt) {
  for (const DraFeatures& features : FeatureSets()) {
    std::set<std::string> shown;
    for (uint64_t seed = 1; seed <= kSamples; ++seed) {
      for (const std::string& f : FeaturesShown(Draw(seed, features))) shown.insert(f);
    }
    std::set<std::string> want;
    if (features.Names() != "base") {
      const std::string names = features.Names();
      size_t start = 0;
      while (start < names.size()) {
        const size_t end = std::min(names.find(',', start), names.size());
        want.insert(names.substr(start, end - start));
        start = end + 1;
      }
    }
    EXPECT_EQ(shown, want) << features.Names();
  }
}

TEST(DraGenerators, ParsesSwitchNames) {
  EXPECT_EQ(ParseDraFeatures("base")->Names(), "base");
  EXPECT_EQ(ParseDraFeatures("all")->Names(),
            "partitions,consumable-capacity,device-taints,prioritized-lists,extended-resources");
  EXPECT_EQ(ParseDraFeatures("device-taints,partitions")->Names(), "partitions,device-taints");
  const auto bad = ParseDraFeatures("partitions,gpus");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("\"gpus\""), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace schedcheck::generators
