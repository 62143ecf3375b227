#include "reference/plugins/helper/normalize_score.h"

#include <vector>

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

struct Case {
  const char* name;
  bool reverse;
  std::vector<int64_t> in;
  std::vector<int64_t> want;
};

// Expectations worked out from v1.27 helper/normalize_score.go (max from 0, integer division).
TEST(DefaultNormalizeScore, Table) {
  const std::vector<Case> cases = {
      {"max 100 keeps scores", false, {1, 2, 3, 4, 100}, {1, 2, 3, 4, 100}},
      {"reverse of max 100", true, {1, 2, 3, 4, 100}, {99, 98, 97, 96, 0}},
      {"scale up", false, {1, 2, 3, 4, 5}, {20, 40, 60, 80, 100}},
      {"reverse scale", true, {1, 2, 3, 4, 5}, {80, 60, 40, 20, 0}},
      {"integer division", false, {1, 3}, {33, 100}},
      {"all zero", false, {0, 0, 0}, {0, 0, 0}},
      {"all zero reverse", true, {0, 0, 0}, {100, 100, 100}},
      {"empty", true, {}, {}},
      {"large values", false, {1000, 10000, 20000}, {5, 50, 100}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> names;
    for (size_t i = 0; i < c.in.size(); ++i) names.push_back("n" + std::to_string(i));
    NodeScoreList scores;
    for (size_t i = 0; i < c.in.size(); ++i) scores.push_back({names[i], c.in[i]});
    EXPECT_TRUE(DefaultNormalizeScore(kMaxNodeScore, c.reverse, scores).IsSuccess()) << c.name;
    ASSERT_EQ(scores.size(), c.want.size()) << c.name;
    for (size_t i = 0; i < scores.size(); ++i) {
      EXPECT_EQ(scores[i].score, c.want[i]) << c.name << " index " << i;
      EXPECT_EQ(scores[i].name, "n" + std::to_string(i)) << c.name;
    }
  }
}

}  // namespace
}  // namespace schedcheck::reference
