// `--limit NAME=VALUE` (repeatable) on the commands that read untrusted input (traces, captures,
// decision logs, manifests, case files, configurations): raises (or lowers) one of the input limits
// of traces/input_limits.h (harness/fuzz/README.md).
#ifndef SCHEDCHECK_HARNESS_CLI_LIMIT_OPTION_H_
#define SCHEDCHECK_HARNESS_CLI_LIMIT_OPTION_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

// Adds the option to `cmd`; the NAME=VALUE strings land in *specs, parsed later by
// trace::ParseInputLimits (a bad one is an exit-2 error of the command).
void AddLimitOption(CLI::App* cmd, std::vector<std::string>* specs);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_LIMIT_OPTION_H_
