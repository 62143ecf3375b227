// main() of the property tests: GoogleTest plus RapidCheck defaults that keep `bazel test //...`
// fast and reproducible. When RC_PARAMS is unset, every property runs max_success=kDefaultRuns
// cases from the fixed seed kDefaultSeed; setting RC_PARAMS (e.g. --config=deep, or a
// "reproduce=..." string from a failure) replaces these defaults entirely. The configuration in
// force is printed first, so every log names its seed.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace {
constexpr int kDefaultRuns = 100;
constexpr unsigned long long kDefaultSeed = 20230427;
}  // namespace

int main(int argc, char** argv) {
  const char* params = std::getenv("RC_PARAMS");
  if (params == nullptr || *params == '\0') {
    std::string defaults =
        "max_success=" + std::to_string(kDefaultRuns) + " seed=" + std::to_string(kDefaultSeed);
    setenv("RC_PARAMS", defaults.c_str(), 1);
  }
  std::fprintf(
      stderr,
      "properties: RC_PARAMS=\"%s\" (a failure prints RC_PARAMS=\"reproduce=...\"; rerun with "
      "bazel test <target> --test_env=RC_PARAMS=\"reproduce=...\")\n",
      std::getenv("RC_PARAMS"));
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
