#include "reference/base/go_int.h"

#include <gtest/gtest.h>

#include <limits>

namespace schedcheck {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(GoIntTest, InRangeResultsAreTheUsualOnes) {
  EXPECT_EQ(GoAdd(40, 2), 42);
  EXPECT_EQ(GoSub(40, 42), -2);
  EXPECT_EQ(GoMul(-6, 7), -42);
  EXPECT_EQ(GoDiv(-7, 2), -3);  // toward zero
}

// The values Go gives (go run: fmt.Println(a + b) with int64 operands).
TEST(GoIntTest, OverflowWrapsAsInGo) {
  EXPECT_EQ(GoAdd(kMax, 1), kMin);
  EXPECT_EQ(GoSub(kMin, 1), kMax);
  EXPECT_EQ(GoMul(kMin, -1), kMin);
  EXPECT_EQ(GoMul(int64_t{112589990579404800}, 100), int64_t{-7187745015769071616});
  EXPECT_EQ(GoDiv(kMin, -1), kMin);
  EXPECT_EQ(GoMul32(-2147483647 - 1, -1), -2147483647 - 1);
  EXPECT_EQ(GoMul32(100, -1), -100);
}

TEST(GoIntTest, AddingThenSubtractingIsExactEvenAcrossTheWrap) {
  int64_t sum = GoAdd(kMax, kMax);
  EXPECT_EQ(GoSub(sum, kMax), kMax);
}

TEST(GoIntTest, FloatConversionTruncatesAndGivesMinInt64OutOfRange) {
  EXPECT_EQ(GoFloat64ToInt64(99.9), 99);
  EXPECT_EQ(GoFloat64ToInt64(-99.9), -99);
  EXPECT_EQ(GoFloat64ToInt64(-4.6e20), kMin);
  EXPECT_EQ(GoFloat64ToInt64(9223372036854775808.0), kMin);
  EXPECT_EQ(GoFloat64ToInt64(std::numeric_limits<double>::quiet_NaN()), kMin);
}

}  // namespace
}  // namespace schedcheck
