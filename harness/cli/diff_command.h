// `schedcheck diff A B [--json] [--junit FILE] [--markdown FILE] [--time-tolerance SECONDS]
// [--allow-soft] [--cluster-trace TRACE [--config FILE] [--candidate SPEC]]`: compares two
// decision logs (A is the reference side) with harness/diff and prints the first divergence
// explained, then a summary table. Exit 0 equivalent, 1 divergent, 2 bad input.
#ifndef SCHEDCHECK_HARNESS_CLI_DIFF_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_DIFF_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include "reference/base/feature_gates.h"

namespace schedcheck::cli {

struct DiffCommandOptions {
  std::string a, b;
  bool json = false;
  std::string junit, markdown;
  // Unset: 0 between two replays, diff::kCaptureTimeToleranceNs when A or B is a capture.
  std::optional<double> time_tolerance_seconds;
  bool allow_soft = false;  // soft divergences (moved placements) do not fail
  bool soft_fails = false;  // the flag of schedcheck 0.1, the default now: accepted, noted, ignored
  std::string cluster_trace;  // the trace both logs replayed, for the explanation
  std::string config;         // the reference's KubeSchedulerConfiguration for that trace
  std::string
      candidate;  // candidate spec, to explain B's side too (exec:/kube: get a note instead)
  std::vector<std::string> limits;        // `--limit NAME=VALUE` specs (traces/input_limits.h)
  reference::FeatureGates feature_gates;  // the replays' gates, for the explanation
  // --compat: the level explanations run at ("": the logs' headers', else the trace's).
  std::string compat;
  // `--scores=off|report|fail|auto` (diff/score_drift.h): score drift between recorded scores.
  std::string scores = "auto";
};

int RunDiffCommand(const DiffCommandOptions& options, std::ostream& out, std::ostream& err);
void AddDiffCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_DIFF_COMMAND_H_
