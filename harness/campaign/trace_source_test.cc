// The traces of a campaign: each a function of (seed, index) alone, every generator drawable.
#include "harness/campaign/trace_source.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace schedcheck::campaign {
namespace {

std::string Bytes(const std::vector<trace::Record>& records) {
  std::string out;
  for (const trace::Record& r : records) out += r.ShortDebugString() + "\n";
  return out;
}

TEST(TraceSource, EveryGeneratorDrawsTheSameTraceFromTheSameSeed) {
  for (const std::string& g : GeneratorNames()) {
    for (const char* compat : {"1.27", "1.37"}) {
      for (int64_t k = 0; k < 3; ++k) {
        TraceSpec spec = SpecOf(5, k, {g});
        EXPECT_EQ(spec.generator, g);
        auto a = DrawTrace(spec, compat);
        auto b = DrawTrace(spec, compat);
        ASSERT_TRUE(a.ok()) << g << " " << compat << ": " << a.message();
        ASSERT_TRUE(b.ok()) << b.message();
        EXPECT_FALSE(a->empty()) << g;
        EXPECT_EQ(Bytes(*a), Bytes(*b)) << g << " " << compat << " trace " << k;
      }
    }
  }
}

TEST(TraceSource, TracesDifferBySeedAndIndex) {
  std::set<uint64_t> seeds;
  for (uint64_t s : {1, 2}) {
    for (int64_t k = 0; k < 50; ++k) seeds.insert(TraceSeed(s, k));
  }
  EXPECT_EQ(seeds.size(), 100u);
  // The generator is chosen by the trace's own seed: a mix, not one generator per shard.
  std::set<std::string> chosen;
  for (int64_t k = 0; k < 40; k += 4) chosen.insert(SpecOf(1, k, DefaultGenerators()).generator);
  EXPECT_GE(chosen.size(), 3u);
  auto a = DrawTrace(SpecOf(1, 0, {"scenarios"}), "1.27");
  auto b = DrawTrace(SpecOf(1, 1, {"scenarios"}), "1.27");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(Bytes(*a), Bytes(*b));
}

TEST(TraceSource, ReplaySeedIsSmallAndDerived) {
  const TraceSpec spec = SpecOf(9, 4, DefaultGenerators());
  EXPECT_EQ(spec.seed, TraceSeed(9, 4));
  EXPECT_EQ(spec.replay_seed, 1 + spec.seed % 1'000'000);
}

TEST(TraceSource, CheckGeneratorsNamesTheBadEntry) {
  EXPECT_TRUE(CheckGenerators({"wide", "storage"}).ok());
  Outcome unknown = CheckGenerators({"wide", "wibble"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("\"wibble\""), std::string::npos) << unknown.message();
  EXPECT_NE(unknown.message().find("known: scenarios"), std::string::npos);
  EXPECT_FALSE(CheckGenerators({"wide", "wide"}).ok());
  EXPECT_FALSE(CheckGenerators({}).ok());
}

}  // namespace
}  // namespace schedcheck::campaign
