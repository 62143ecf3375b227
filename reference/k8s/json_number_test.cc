#include "reference/k8s/json_number.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace schedcheck::k8s {
namespace {

using nlohmann::json;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(JsonNumberTest, CheckedIntegerAcceptsOnlyIntegersInRange) {
  EXPECT_EQ(*CheckedInteger(json(7), 0, 10, "f"), 7);
  EXPECT_EQ(*CheckedInteger(json::parse("9223372036854775807"), 0, kMax, "f"), kMax);
  EXPECT_EQ(*CheckedInteger(json(-3), -5, 5, "f"), -3);
  struct {
    json v;
    int64_t lo, hi;
    const char* message;
  } bad[] = {
      {json::parse("4294967297"), 0, 2147483647,
       "ops[1].n: expected an integer in [0, 2147483647], got 4294967297"},
      {json::parse("9223372036854775808"), 0, kMax,
       "ops[1].n: expected an integer in [0, 9223372036854775807], got 9223372036854775808"},
      {json::parse("1e300"), 0, kMax,
       "ops[1].n: expected an integer in [0, 9223372036854775807], got 1e+300"},
      {json(2.5), 0, 10, "ops[1].n: expected an integer in [0, 10], got 2.5"},
      {json(-1), 0, 10, "ops[1].n: expected an integer in [0, 10], got -1"},
      {json(3), 5, 10, "ops[1].n: expected an integer in [5, 10], got 3"},
      {json("x"), 0, 10, "ops[1].n: expected an integer in [0, 10], got \"x\""},
      {json(), 0, 10, "ops[1].n: expected an integer in [0, 10], got null"},
  };
  for (const auto& b : bad) {
    Result<int64_t> r = CheckedInteger(b.v, b.lo, b.hi, "ops[1].n");
    ASSERT_FALSE(r.ok()) << b.v;
    EXPECT_EQ(r.message(), b.message);
  }
}

TEST(JsonNumberTest, CheckedSecondsAsNanosRoundsAndRangeChecks) {
  EXPECT_EQ(*CheckedSecondsAsNanos(json(0.5), 0, 10, "s"), 500'000'000);
  EXPECT_EQ(*CheckedSecondsAsNanos(json(-0.3), -10, 10, "s"), -300'000'000);
  EXPECT_EQ(*CheckedSecondsAsNanos(json(kMaxInt64Seconds), 0, kMaxInt64Seconds, "s"),
            kMaxInt64Seconds * 1'000'000'000);
  EXPECT_EQ(*CheckedSecondsAsNanos(json(-static_cast<double>(kMaxInt64Seconds)), -kMaxInt64Seconds,
                                   0, "s"),
            -kMaxInt64Seconds * 1'000'000'000);
  for (const json& v : {json::parse("1e300"), json::parse("-1e300"), json(11), json(10.5),
                        json(-0.1), json::parse("18446744073709551615"), json("1"), json(true),
                        json(std::numeric_limits<double>::quiet_NaN())}) {
    Result<int64_t> r = CheckedSecondsAsNanos(v, 0, 10, "seconds");
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_EQ(r.message().rfind("seconds: expected a number of seconds in [0, 10], got ", 0), 0u)
        << r.message();
  }
}

}  // namespace
}  // namespace schedcheck::k8s
