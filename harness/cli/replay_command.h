// `schedcheck replay TRACE [--config FILE] [--seed N] [--horizon SECONDS] [-o DECISIONS]
// [--jsonl FILE] [--scheduler-cmd "CMD ARGS" | --candidate SPEC]`: replays a trace against the
// reference in virtual time (docs/FORMATS.md#replay-conventions), against an in-process candidate
// build, or against a scheduler in a child process (harness/protocol/).
#ifndef SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reference/base/feature_gates.h"
#include "reference/engine/engine.h"

namespace schedcheck::cli {

struct ReplayCommandOptions {
  std::string trace;
  std::string config;
  uint64_t seed = 1;
  reference::Engine engine = reference::Engine::kFast;
  // The compatibility level ("1.27", "1.37"); empty: the trace header's (absent there: 1.27).
  std::string compat;
  reference::FeatureGates feature_gates;  // `--feature-gates` (compat 1.37)
  double horizon_seconds = 600;
  double cycle_latency_seconds = 0;
  double bind_latency_seconds = 0;
  bool volume_controllers = false;
  bool follow_cluster = false;  // harness/replay/follow_cluster.h
  double volume_latency_seconds = 0;
  std::string output;  // binary decision trace
  std::string jsonl;   // JSON Lines, docs/FORMATS.md#decision-logs
  bool quiet = false;
  bool no_progress = false;  // no progress line even when stderr is a terminal
  // Non-empty: replay against this command, run as a child process speaking the external-scheduler
  // protocol (harness/protocol/PROTOCOL.md), instead of the in-process reference.
  std::string scheduler_cmd;
  // Non-empty: replay this candidate (harness/candidates/candidate.h) instead of the reference. An
  // exec:/kube: spec runs as a child exactly as scheduler_cmd does. Excludes scheduler_cmd.
  std::string candidate;
  double scheduler_timeout_seconds = 30;  // real-time limit for each answer of the child
  std::vector<std::string> limits;        // --limit NAME=VALUE (traces/input_limits.h)
  // `--scores K`: record the top K nodes' scores on each scheduled attempt (0: none).
  uint32_t scores = 0;
};

// Exit status: 0 on success, 2 on bad input (trace, config, output path, candidate spec, both
// --candidate and --scheduler-cmd) or when the child process fails (the decisions received before
// the failure are still written).
int RunReplay(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err);

void AddReplayCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_REPLAY_COMMAND_H_
