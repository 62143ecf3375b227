// `schedcheck gate [--candidate SPEC] [--corpus DIR] [--junit FILE] [--markdown FILE]
// [--soft-fails] [--time-tolerance SECONDS]`: replays every corpus trace with the reference and
// with an in-process candidate build, diffs them and writes the reports. Exit 0 when every trace
// is equivalent (soft divergences only count with --soft-fails), 1 on a divergence, 2 bad input.
#ifndef SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_

#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct GateCommandOptions {
  std::string candidate = "reference";
  std::string corpus = "traces/corpus";
  std::string junit, markdown;
  bool soft_fails = false;
  double time_tolerance_seconds = 0;
};

int RunGateCommand(const GateCommandOptions& options, std::ostream& out, std::ostream& err);
void AddGateCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_
