// Generated configurations: a function of the seed, accepted by the reference at both levels,
// and varied (every kind of change appears).
#include "harness/campaign/config_source.h"

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"
#include "reference/runtime/profile.h"

namespace schedcheck::campaign {
namespace {

TEST(DrawConfiguration, SameSeedSameTextAndAlwaysAccepted) {
  std::set<std::string> texts;
  int disabled = 0, weights = 0, order = 0, fit = 0, spread = 0, affinity = 0, balanced = 0,
      pre_filter = 0, pre_score = 0, reweighted = 0, repeats = 0;
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
      pre_filter += has("\"preFilter\"");
      pre_score += has("\"preScore\"");
      const nlohmann::json profile = nlohmann::json::parse(*a)["profiles"][0];
      for (const auto& entry : profile.value("pluginConfig", nlohmann::json::array())) {
        balanced += entry["name"] == "NodeResourcesBalancedAllocation" ? 1 : 0;
      }
      reweighted += profile.contains("plugins") && profile["plugins"].contains("multiPoint") &&
                    profile["plugins"]["multiPoint"].contains("enabled");
      // Upstream builds a framework from it too: every listed plugin extends its point.
      auto parsed = reference::ParseSchedulerConfigurationYaml(*a, "drawn", compat);
      ASSERT_TRUE(parsed.ok()) << parsed.message();
      reference::Handle handle{reference::FeaturesFor(*reference::ParseCompatLevel(compat))};
      auto fw =
          reference::Framework::Create(parsed->profiles[0], reference::PluginRegistry(), &handle);
      ASSERT_TRUE(fw.ok()) << "seed " << seed << " at " << compat << ": " << fw.message();
      repeats += (*fw)->RepeatsAScorePlugin();
    }
  }
  EXPECT_GE(texts.size(), 150u);
  for (int count : {disabled, weights, order, fit, spread, affinity, balanced, pre_filter,
                    pre_score, reweighted})
    EXPECT_GE(count, 10);
  // Three score plugins in MultiPoint listed at Score: at 1.27 one is repeated.
  EXPECT_GE(repeats, 10);
}

}  // namespace
}  // namespace schedcheck::campaign
