// `schedcheck check FILE|DIR... [--json] [--engine E] [--limit NAME=VALUE]...`: runs conformance
// cases (docs/FORMATS.md#conformance-case-files).
#ifndef SCHEDCHECK_HARNESS_CLI_CHECK_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_CHECK_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reference/engine/engine.h"

namespace schedcheck::cli {

void AddCheckCommand(CLI::App& app, int* exit_code);

// Exit status: 0 when nothing failed, 1 when a case failed, 2 when input could not be read.
// `engine`: plain rules (the default of `check`) or the accelerator. `limits`: `--limit` specs
// (traces/input_limits.h) for reading the case files; a bad one or input beyond one exits 2 before
// any case runs.
int RunCheck(const std::vector<std::string>& paths, bool json, reference::Engine engine,
             const std::vector<std::string>& limits, std::ostream& out, std::ostream& err);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_CHECK_COMMAND_H_
