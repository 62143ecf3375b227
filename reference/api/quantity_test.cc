#include "reference/api/quantity.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

struct Case {
  const char* text;
  int64_t milli;
  int64_t value;
};

TEST(QuantityTest, ParsesKubernetesForms) {
  const Case cases[] = {
      {"100m", 100, 1},
      {"1", 1000, 1},
      {"0.5", 500, 1},
      {"2", 2000, 2},
      {"1Ki", 1024000, 1024},
      {"1Mi", 1048576000, 1048576},
      {"1.5Gi", 1610612736000, 1610612736},
      {"1k", 1000000, 1000},
      {"1e3", 1000000, 1000},
      {"1E3", 1000000, 1000},
      {"500M", 500000000000, 500000000},
      {"0", 0, 0},
      {"1n", 1, 1},
      {"1500u", 2, 1},
      {"+3", 3000, 3},
      {"-100m", -100, -1},
      {"200Mi", 209715200000, 209715200},
  };
  for (const Case& c : cases) {
    Result<Quantity> q = Quantity::Parse(c.text);
    ASSERT_TRUE(q.ok()) << c.text << ": " << q.message();
    EXPECT_EQ(q->MilliValue(), c.milli) << c.text;
    EXPECT_EQ(q->Value(), c.value) << c.text;
  }
}

TEST(QuantityTest, RejectsMalformedText) {
  for (const char* text : {"", "abc", "1.2.3", "1Xi", "m", "1e", "--1", "1 Gi"}) {
    Result<Quantity> q = Quantity::Parse(text);
    EXPECT_FALSE(q.ok()) << text;
    if (!q.ok()) {
      EXPECT_NE(q.message().find("invalid quantity"), std::string::npos);
    }
  }
}

// docs/DEVIATIONS.md "Quantities beyond int64 in the scheduler's unit": upstream's MilliValue()
// of cpu "1e16" is 0 and Value() of memory "1e20" is 0 (v0.27.8 int64Amount overflow), of "8Ei"
// MilliValue() -1000 (inf.Dec wrap); the reference saturates. Values within int64 are exact, as
// upstream: cpu "9e15" is 9e18 millicores.
TEST(QuantityTest, SaturatesInsteadOfOverflowing) {
  Result<Quantity> q = Quantity::Parse("100000000000000000000000Ei");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->Value(), INT64_MAX);
  EXPECT_EQ(*ParseResourceQuantity("cpu", "1e16"), INT64_MAX);
  EXPECT_EQ(*ParseResourceQuantity("memory", "1e20"), INT64_MAX);
  EXPECT_EQ(*ParseResourceQuantity("cpu", "8Ei"), INT64_MAX);
  EXPECT_EQ(*ParseResourceQuantity("cpu", "9e15"), 9000000000000000000);
  EXPECT_EQ(*ParseResourceQuantity("memory", "8Ei"), INT64_MAX);  // upstream: capped at 2^63-1 too
}

TEST(QuantityTest, ResourceQuantityUsesMillisForCpuOnly) {
  EXPECT_EQ(*ParseResourceQuantity("cpu", "2"), 2000);
  EXPECT_EQ(*ParseResourceQuantity("memory", "2"), 2);
  EXPECT_EQ(*ParseResourceQuantity("example.com/gpu", "3"), 3);
}

}  // namespace
}  // namespace schedcheck::reference
