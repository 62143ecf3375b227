// `schedcheck replay TRACE [--config FILE] [--seed N] [--horizon SECONDS] [-o DECISIONS]
// [--jsonl FILE]`: replays a trace against the reference in virtual time (CONTRACTS.md §2-3).
#ifndef SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct ReplayCommandOptions {
  std::string trace;
  std::string config;
  uint64_t seed = 1;
  double horizon_seconds = 600;
  double cycle_latency_seconds = 0;
  double bind_latency_seconds = 0;
  std::string output;  // binary decision trace
  std::string jsonl;   // CONTRACTS §2 JSON Lines
  bool quiet = false;
};

// Exit status: 0 on success, 2 on bad input (trace, config, output path).
int RunReplay(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err);

void AddReplayCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_
