#include "harness/cli/seconds_option.h"

#include <cmath>
#include <string>

namespace schedcheck::cli {

Result<int64_t> SecondsToNs(double seconds, std::string_view flag) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e9) {
    return Error{std::string(flag) + ": must be between 0 and 1e9 seconds"};
  }
  return static_cast<int64_t>(std::llround(seconds * 1e9));
}

void AddVolumeLatencyOption(CLI::App* cmd, double* seconds) {
  cmd->add_option(
      "--volume-latency", *seconds,
      "with --volume-controllers (or a trace asking for them): the controllers answer this many "
      "seconds after PreBind's writes, and PreBind polls every second meanwhile (default 0: "
      "at once)");
}

}  // namespace schedcheck::cli
