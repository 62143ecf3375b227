// ParseNanos: exact quantities for DRA's counters and capacity.
#include "reference/dra/nanos.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace schedcheck::reference::dra {
namespace {

constexpr __int128 kGiga = 1000000000;

__int128 Must(const char* text) {
  Result<__int128> got = ParseNanos(text);
  EXPECT_TRUE(got.ok()) << text << ": " << got.message();
  return got.ok() ? *got : -1;
}

// Sums of large decimal amounts stay exact; below a nano rounds up; binary amounts are capped at
// 2^63-1 units as ParseQuantity caps them.
TEST(NanosTest, Exact) {
  EXPECT_EQ(Must("10000000000000000000"), static_cast<__int128>(10000000000000000000ULL) * kGiga);
  EXPECT_EQ(Must("4Gi"), static_cast<__int128>(4) * 1073741824 * kGiga);
  EXPECT_EQ(Must("1.5"), 1500000000);
  EXPECT_EQ(Must("1500m"), 1500000000);
  EXPECT_EQ(Must("2e3"), 2000 * kGiga);
  EXPECT_EQ(Must("1e-12"), 1);
  EXPECT_EQ(Must("-2m"), -2000000);
  EXPECT_EQ(Must("10G"), 10 * kGiga * kGiga);
  EXPECT_EQ(Must("16Ei"), static_cast<__int128>(INT64_MAX) * kGiga);
  EXPECT_FALSE(ParseNanos("1e40").ok());
  Result<__int128> bad = ParseNanos("4Gx");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("invalid quantity"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace schedcheck::reference::dra
