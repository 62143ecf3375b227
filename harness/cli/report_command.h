// `schedcheck report REFERENCE CANDIDATE -o REPORT.html [--trace TRACE [--config FILE]
// [--candidate SPEC]] [--time-tolerance S] [--allow-soft] [--limit NAME=VALUE]...`: diffs two
// decision logs as `schedcheck diff` does and writes the comparison as one self-contained, offline
// HTML page (harness/report/html_report.h), atomically. With --trace, the first divergent attempt
// is explained per node and plugin on the reference's snapshot, for each side that can be evaluated
// in process. Exit 0 when the report was written (whatever it shows), 2 on bad input.
#ifndef SCHEDCHECK_HARNESS_CLI_REPORT_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_REPORT_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include "reference/base/feature_gates.h"

namespace schedcheck::cli {

struct ReportCommandOptions {
  std::string reference, candidate_log;  // the two decision logs (A, B)
  std::string output;                    // the HTML file
  std::string trace;      // the cluster trace both logs replayed, for the explanation
  std::string config;     // the reference's KubeSchedulerConfiguration for that trace
  std::string candidate;  // B's candidate spec, to explain its side too
  std::string baseline;   // A's build spec when not the reference (`--baseline`)
  std::string baseline_config, candidate_config;  // each side's own configuration for --trace
  // Unset: 0 between two replays, diff::kCaptureTimeToleranceNs when a side is a capture (as diff).
  std::optional<double> time_tolerance_seconds;
  bool allow_soft = false;          // soft divergences do not make the verdict "diverges"
  std::string scores = "auto";      // `--scores=off|report|fail|auto` (diff/score_drift.h)
  std::vector<std::string> limits;  // `--limit NAME=VALUE` specs (traces/input_limits.h), as diff
  reference::FeatureGates feature_gates;  // the replays' gates, for the explanation
  // --compat: the level explanations run at ("": the logs' headers', else the trace's).
  std::string compat;
};

int RunReportCommand(const ReportCommandOptions& options, std::ostream& out, std::ostream& err);
void AddReportCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_REPORT_COMMAND_H_
