#include "reference/accel/helper/normalize_uniform_score.h"

#include <string>

#include <gtest/gtest.h>

#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {
namespace {

// The shortcut for lists of equal scores gives what the list normalisation gives.
TEST(DefaultNormalizeUniformScore, AgreesWithDefaultNormalizeScore) {
  for (int64_t uniform : {0, 1, 7, 100, 250}) {
    for (bool reverse : {false, true}) {
      for (size_t n = 1; n <= 3; ++n) {
        NodeScoreList scores;
        for (size_t i = 0; i < n; ++i) scores.push_back({"n" + std::to_string(i), uniform});
        ASSERT_TRUE(DefaultNormalizeScore(kMaxNodeScore, reverse, scores).IsSuccess());
        for (const NodeScore& s : scores) {
          EXPECT_EQ(DefaultNormalizeUniformScore(kMaxNodeScore, reverse, uniform), s.score)
              << "uniform " << uniform << " reverse " << reverse << " nodes " << n;
        }
      }
    }
  }
}

}  // namespace
}  // namespace schedcheck::reference
