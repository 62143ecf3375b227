// `--seed N` (and import's `--shuffle-seed N`): a seed is an unsigned 64-bit integer written in
// decimal. CLI11 converts with strtoull, which reads "-1" as 2^64-1 and saturates anything beyond
// 2^64-1, so distinct seeds silently collapsed into one; this option refuses them instead (a usage
// error, exit 2, naming the option).
#ifndef SCHEDCHECK_HARNESS_CLI_SEED_OPTION_H_
#define SCHEDCHECK_HARNESS_CLI_SEED_OPTION_H_

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

// Adds the option `name` ("--seed") to `cmd`, storing into *seed (its value on entry is the
// default). Returns the option, e.g. to ask its count().
CLI::Option* AddSeedOption(CLI::App* cmd, const std::string& name, uint64_t* seed,
                           const std::string& help);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_SEED_OPTION_H_
