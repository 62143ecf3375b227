// `schedcheck serve [--config FILE]`: runs the reference scheduler behind the external-scheduler
// protocol (harness/protocol/PROTOCOL.md) on stdin/stdout; stderr carries logs only. Started by
// `schedcheck replay TRACE --scheduler-cmd "schedcheck serve"`, or by any other harness.
#ifndef SCHEDCHECK_HARNESS_CLI_SERVE_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_SERVE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct ServeCommandOptions {
  // Non-empty: serve with this KubeSchedulerConfiguration whatever the harness sends.
  std::string config;
  std::vector<std::string> limits;  // --limit NAME=VALUE (harness/cli/limit_option.h)
};

// Serves one session on the two descriptors. Exit status: 0 when the input ends cleanly between
// frames, 2 on garbage input or a failed write (after logging it to `err`).
int RunServe(const ServeCommandOptions& options, int in_fd, int out_fd, std::ostream& err);

void AddServeCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_SERVE_COMMAND_H_
