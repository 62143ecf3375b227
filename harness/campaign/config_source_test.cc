// Generated configurations: a function of the seed, accepted by the reference at both levels,
// and varied (every kind of change appears).
#include "harness/campaign/config_source.h"

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"

namespace schedcheck::campaign {
namespace {

TEST(DrawConfiguration, SameSeedSameTextAndAlwaysAccepted) {
  std::set<std::string> texts;
  int disabled = 0, weights = 0, order = 0, fit = 0, spread = 0, affinity = 0, balanced = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    for (const char* compat : {"1.27", "1.37"}) {
      auto a = DrawConfiguration(seed, compat);
      ASSERT_TRUE(a.ok()) << "seed " << seed << " at " << compat << ": " << a.message();
      auto b = DrawConfiguration(seed, compat);
      ASSERT_TRUE(b.ok());
      EXPECT_EQ(*a, *b);
      texts.insert(*a);
      auto has = [&](const char* s) { return a->find(s) != std::string::npos ? 1 : 0; };
      disabled += has("\"disabled\"");
      weights += has("\"weight\"");
      order += has("\"filter\"");
      fit += has("\"scoringStrategy\"");
      spread += has("\"defaultConstraints\"");
      affinity += has("\"hardPodAffinityWeight\"");
      for (const auto& entry : nlohmann::json::parse(*a)["profiles"][0].value(
               "pluginConfig", nlohmann::json::array())) {
        balanced += entry["name"] == "NodeResourcesBalancedAllocation" ? 1 : 0;
      }
    }
  }
  EXPECT_GE(texts.size(), 150u);
  for (int count : {disabled, weights, order, fit, spread, affinity, balanced})
    EXPECT_GE(count, 10);
}

}  // namespace
}  // namespace schedcheck::campaign
