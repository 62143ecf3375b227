#include "harness/cli/seed_option.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedcheck::cli {
namespace {

// Parses `args` (after the program name) with a --seed option; "" or CLI11's error message.
std::string Parse(std::vector<std::string> args, uint64_t* seed) {
  CLI::App app;
  AddSeedOption(&app, "--seed", seed, "seed");
  args.insert(args.begin(), "schedcheck");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(SeedOptionTest, AcceptsEveryUint64) {
  for (const auto& [text, want] : {std::pair<std::string, uint64_t>{"0", 0},
                                   {"1", 1},
                                   {"88172635", 88172635},
                                   {"18446744073709551615", UINT64_MAX}}) {
    uint64_t seed = 7;
    EXPECT_EQ(Parse({"--seed", text}, &seed), "") << text;
    EXPECT_EQ(seed, want) << text;
  }
  uint64_t seed = 7;
  EXPECT_EQ(Parse({}, &seed), "");
  EXPECT_EQ(seed, 7u);  // the default stays
}

// Each of these used to become 18446744073709551615 without a word (finding 19).
TEST(SeedOptionTest, RefusesNegativeOutOfRangeAndNonDecimalSeeds) {
  for (const std::string text : {"-1", "18446744073709551616", "99999999999999999999999", "abc",
                                 "1.5", "+1", " 1", "0x10", "1e3"}) {
    uint64_t seed = 7;
    const std::string error = Parse({"--seed=" + text}, &seed);
    EXPECT_NE(error.find("--seed"), std::string::npos) << text << ": " << error;
    EXPECT_NE(error.find("must be an integer in [0, 18446744073709551615], got \"" + text + "\""),
              std::string::npos)
        << text << ": " << error;
    EXPECT_EQ(seed, 7u) << text;
  }
}

}  // namespace
}  // namespace schedcheck::cli
