#include "harness/cli/seed_option.h"

#include <limits>

namespace schedcheck::cli {
namespace {

// "" when `text` is a decimal integer in [0, 2^64); else why not.
std::string CheckSeed(const std::string& text) {
  const std::string why = "must be an integer in [0, " +
                          std::to_string(std::numeric_limits<uint64_t>::max()) + "], got \"" +
                          text + "\"";
  if (text.empty()) return why;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return why;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return why;
    value = value * 10 + digit;
  }
  return "";
}

}  // namespace

CLI::Option* AddSeedOption(CLI::App* cmd, const std::string& name, uint64_t* seed,
                           const std::string& help) {
  // The validator sees the text before CLI11 converts it, so the conversion only meets valid seeds.
  return cmd->add_option(name, *seed, help)->check(CLI::Validator(CheckSeed, "UINT64"));
}

}  // namespace schedcheck::cli
