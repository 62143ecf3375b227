// main() of the property tests: GoogleTest plus RapidCheck defaults that keep `bazel test //...`
// fast and reproducible. When RC_PARAMS is unset, every property runs max_success=kDefaultRuns
// cases from the fixed seed kDefaultSeed; setting RC_PARAMS (e.g. --config=deep, or a
// "reproduce=..." string from a failure) replaces these defaults entirely. The configuration in
// force is printed first, so every log names its seed.
//
// Sharding (shard_count in BUILD.bazel). By default Bazel's shards split the properties between
// them (GoogleTest's own sharding), so a sharded run checks exactly the cases of an unsharded one.
// With RC_SHARDING=iterations (set by --config=deep) they split the iterations instead: every
// shard runs every property, shard i of N with max_success = its share of the budget and seed =
// the campaign's seed + i (a seed drawn here when RC_PARAMS names none), and prints the command
// that reruns exactly that shard alone. A "reproduce=..." RC_PARAMS is never split.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {
constexpr int kDefaultRuns = 100;
constexpr unsigned long long kDefaultSeed = 20230427;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

// RC_PARAMS is a space-separated list of key=value pairs.
std::vector<std::pair<std::string, std::string>> ParseParams(const std::string& params) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(params);
  std::string token;
  while (in >> token) {
    const size_t eq = token.find('=');
    out.emplace_back(token.substr(0, eq), eq == std::string::npos ? "" : token.substr(eq + 1));
  }
  return out;
}

// Rewrites RC_PARAMS for shard `index` of `total`: this shard's share of max_success (the first
// budget % total shards run one more) and seed + index. Returns false when RC_PARAMS cannot be
// split (a reproduce= string, or a number that does not parse), leaving it as it is.
bool SplitIterations(int index, int total) {
  auto params = ParseParams(Env("RC_PARAMS"));
  unsigned long long budget = kDefaultRuns, seed = 0;
  bool has_seed = false;
  std::string rest;
  for (const auto& [key, value] : params) {
    char* end = nullptr;
    if (key == "reproduce") return false;
    if (key == "max_success" || key == "seed") {
      const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') return false;
      (key == "seed" ? seed : budget) = n;
      has_seed |= key == "seed";
    } else {
      rest += " " + key + (value.empty() ? "" : "=" + value);
    }
  }
  if (!has_seed) {  // a random campaign: the seed drawn here is printed below
    std::random_device entropy;
    seed = (static_cast<unsigned long long>(entropy()) << 32) | entropy();
  }
  const unsigned long long runs =
      budget / total + (static_cast<unsigned long long>(index) < budget % total);
  const std::string shard =
      "max_success=" + std::to_string(runs) + " seed=" + std::to_string(seed + index) + rest;
  setenv("RC_PARAMS", shard.c_str(), 1);
  std::fprintf(stderr,
               "properties: shard %d of %d runs %llu of %llu iterations per property; reproduce "
               "this shard alone with: bazel test %s --test_sharding_strategy=disabled "
               "--test_env=RC_PARAMS=\"%s\"\n",
               index, total, runs, budget, Env("TEST_TARGET").c_str(), shard.c_str());
  return true;
}

// Under Bazel sharding with RC_SHARDING=iterations: splits the iterations and turns GoogleTest's
// own sharding off (it would split the properties too). Bazel's shard status file tells Bazel
// this binary honours sharding.
void ShardIterationsIfAsked() {
  const int total = std::atoi(Env("TEST_TOTAL_SHARDS").c_str());
  if (total <= 1 || Env("RC_SHARDING") != "iterations") return;
  if (!SplitIterations(std::atoi(Env("TEST_SHARD_INDEX").c_str()), total)) {
    std::fprintf(stderr,
                 "properties: RC_PARAMS is not split between shards (reproduce= or not "
                 "numeric); GoogleTest splits the properties\n");
    return;
  }
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
  if (const std::string status = Env("TEST_SHARD_STATUS_FILE"); !status.empty()) {
    std::ofstream touch(status, std::ios::app);
  }
}
}  // namespace

int main(int argc, char** argv) {
  const char* params = std::getenv("RC_PARAMS");
  if (params == nullptr || *params == '\0') {
    std::string defaults =
        "max_success=" + std::to_string(kDefaultRuns) + " seed=" + std::to_string(kDefaultSeed);
    setenv("RC_PARAMS", defaults.c_str(), 1);
  }
  ShardIterationsIfAsked();
  std::fprintf(
      stderr,
      "properties: RC_PARAMS=\"%s\" (a failure prints RC_PARAMS=\"reproduce=...\"; rerun with "
      "bazel test <target> --test_env=RC_PARAMS=\"reproduce=...\")\n",
      std::getenv("RC_PARAMS"));
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
