// Sample draws the same trace from the same seed and other traces from other seeds, and turns a
// generator's failure into an error.
#include "harness/generators/sample.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/generators/generators.h"
#include "harness/generators/wide_generators.h"

namespace schedcheck::generators {
namespace {

std::vector<std::string> Serialized(const std::vector<trace::Record>& records) {
  std::vector<std::string> out;
  for (const trace::Record& r : records) out.push_back(r.ShortDebugString());
  return out;
}

Result<std::vector<trace::Record>> Wide(uint64_t seed) {
  return Sample<std::vector<trace::Record>>(
      seed, [] { return RealizeTrace((*WideScenarioGen()).records, 1); });
}

TEST(Sample, SameSeedSameTrace) {
  auto a = Wide(7), b = Wide(7);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_FALSE(a->empty());
  EXPECT_EQ(Serialized(*a), Serialized(*b));
}

TEST(Sample, OtherSeedsOtherTraces) {
  std::vector<std::vector<std::string>> seen;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    auto s = Sample<Scenario>(seed, [] { return *ScenarioGen(); });
    ASSERT_TRUE(s.ok()) << s.message();
    seen.push_back(Serialized(s->records));
  }
  int distinct = 0;
  for (size_t i = 0; i < seen.size(); ++i) {
    bool repeated = false;
    for (size_t j = 0; j < i; ++j) repeated = repeated || seen[i] == seen[j];
    distinct += repeated ? 0 : 1;
  }
  EXPECT_GE(distinct, 4);
}

TEST(Sample, FailureIsAnError) {
  auto s = Sample<int>(1, []() -> int { RC_FAIL("no such trace"); });
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no such trace"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace schedcheck::generators
