// `schedcheck gate [--candidate SPEC] [--baseline SPEC] [--baseline-config FILE]
// [--candidate-config FILE] [--check-determinism] [--corpus DIR] [--junit FILE] [--markdown FILE]
// [--allow-soft] [--time-tolerance SECONDS] [--scheduler-timeout SECONDS]`: replays every corpus
// trace with a baseline build (the reference by default) and a candidate build (in process, or a
// child process for exec: / kube:), diffs them and writes the reports. Exit 0 when every trace is
// equivalent (soft divergences pass only with --allow-soft), 1 on a divergence, 3 when a build is
// not deterministic on some trace (and nothing is incomplete), 2 on bad input or when a side's
// child process could not complete some trace (that trace is reported as failed with the child's
// error; the other traces are still gated and reported).
#ifndef SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reference/base/feature_gates.h"
#include "reference/engine/engine.h"

namespace schedcheck::cli {

struct GateCommandOptions {
  std::string candidate = "reference";
  std::string baseline = "reference";             // `--baseline`: the other side's build
  std::string baseline_config, candidate_config;  // per side; empty: each trace's configuration
  bool check_determinism = false;                 // `--check-determinism`
  std::string corpus = "traces/corpus";
  std::string junit, markdown;
  bool allow_soft = false;  // soft divergences (moved placements) do not fail
  bool soft_fails = false;  // the flag of schedcheck 0.1, the default now: accepted, noted, ignored
  double time_tolerance_seconds = 0;
  double scheduler_timeout_seconds = 30;  // per answer of an out-of-process candidate
  std::vector<std::string> limits;        // `--limit NAME=VALUE` specs (traces/input_limits.h)
  reference::Engine engine = reference::Engine::kFast;
  std::string compat = "1.27";            // `--compat`: the level of both replays
  reference::FeatureGates feature_gates;  // `--feature-gates`: both replays' (compat 1.37)
  bool volume_controllers = false;        // `--volume-controllers`: both replays'
  double volume_latency_seconds = 0;      // `--volume-latency`: both replays'
  std::string scores = "auto";            // `--scores=off|report|fail|auto` (gate.h)
};

int RunGateCommand(const GateCommandOptions& options, std::ostream& out, std::ostream& err);
void AddGateCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_GATE_COMMAND_H_
