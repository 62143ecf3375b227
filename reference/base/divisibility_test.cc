#include "reference/base/divisibility.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "reference/base/rand.h"

namespace schedcheck {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(DivisibilityTableTest, AgreesWithRemainderOnRandomDividends) {
  DivisibilityTable table;
  Rand rng(20261123);
  for (uint64_t d = 1; d <= 5000; ++d) {
    for (int i = 0; i < 40; ++i) {
      uint64_t v = rng.Next();
      // Half the dividends are multiples of d (or near one), where a wrong limit would show.
      if (i % 2 == 1) v = (v / d) * d + static_cast<uint64_t>(i % 4 == 1 ? 0 : 1);
      ASSERT_EQ(table.Divides(v, d), v % d == 0) << "v=" << v << " d=" << d;
    }
  }
}

TEST(DivisibilityTableTest, EdgeDividendsAndDivisors) {
  DivisibilityTable table;
  const uint64_t divisors[] = {1,
                               2,
                               3,
                               4,
                               7,
                               8,
                               64,
                               96,
                               1000,
                               4096,
                               4097,
                               65535,
                               uint64_t{1} << 24,
                               (uint64_t{1} << 24) + 1,
                               uint64_t{1} << 40,
                               kMax / 3,
                               kMax};
  const uint64_t dividends[] = {
      0, 1, 2, 3, 6, 8, 4096, kMax, kMax - 1, kMax / 3 * 3, uint64_t{1} << 63};
  for (uint64_t d : divisors) {
    for (uint64_t v : dividends) {
      EXPECT_EQ(table.Divides(v, d), v % d == 0) << "v=" << v << " d=" << d;
      EXPECT_EQ(table.Divides(v + d, d), (v + d) % d == 0) << "v+d=" << v + d << " d=" << d;
    }
  }
}

TEST(RandTest, UniformIsZeroDrawsLikeUniform) {
  Rand a(7), b(7);
  DivisibilityTable table;
  for (uint64_t n = 1; n < 3000; ++n) {
    ASSERT_EQ(a.UniformIsZero(n, table), b.Uniform(n) == 0) << "n=" << n;
  }
  EXPECT_EQ(a.Next(), b.Next());  // the same number of draws
}

}  // namespace
}  // namespace schedcheck
