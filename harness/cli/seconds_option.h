// Durations given on the command line in seconds (--horizon, --bind-latency, --volume-latency,
// ...), and the --volume-latency option the replaying commands share.
#ifndef SCHEDCHECK_HARNESS_CLI_SECONDS_OPTION_H_
#define SCHEDCHECK_HARNESS_CLI_SECONDS_OPTION_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string_view>

#include "reference/base/result.h"

namespace schedcheck::cli {

// `seconds` as nanoseconds, or an error naming `flag` when it is not in [0, 1e9] seconds.
Result<int64_t> SecondsToNs(double seconds, std::string_view flag);

// Adds --volume-latency S (docs/FORMATS.md, "Volume controllers") to `cmd`, into `*seconds`.
void AddVolumeLatencyOption(CLI::App* cmd, double* seconds);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_SECONDS_OPTION_H_
