// `schedcheck check FILE|DIR...`: runs conformance cases (docs/FORMATS.md#conformance-case-files).
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
// `engine`: plain rules (the default of `check`) or the accelerator.
int RunCheck(const std::vector<std::string>& paths, bool json, reference::Engine engine,
             std::ostream& out, std::ostream& err);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_CHECK_COMMAND_H_
