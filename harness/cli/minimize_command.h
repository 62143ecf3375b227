// `schedcheck minimize TRACE --candidate SPEC [--baseline SPEC] [-o SMALL.trace] [--config FILE]
// [--baseline-config FILE] [--candidate-config FILE] [--seed N] [--horizon S] [--cycle-latency S]
// [--bind-latency S] [--time-tolerance S] [--allow-soft] [--max-replays N] [--no-fields]
// [--scheduler-timeout S] [--limit NAME=VALUE]...`: delta-debugs a trace on which the candidate
// diverges from the baseline (the reference by default) down to a small one on which it still
// diverges the same way (harness/minimize/minimize.h), and writes it (atomically) with its diff
// beside it (SMALL.trace.diff.txt). Exit 0 when a minimal trace was written, 1 when the input
// shows no divergence (nothing is written), 3 when a build is not deterministic (an exec:/kube:
// side replays the input twice, in two processes, with different logs; or the minimal trace's
// divergence does not come back), 2 on bad input: an unreadable trace or configuration, a bad
// spec or option, a trace or child that fails on the input, an output that cannot be written.
#ifndef SCHEDCHECK_HARNESS_CLI_MINIMIZE_COMMAND_H_
#define SCHEDCHECK_HARNESS_CLI_MINIMIZE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedcheck::cli {

struct MinimizeCommandOptions {
  std::string trace;
  std::string candidate;
  std::string output;                  // default: TRACE without its extension + ".min.trace"
  std::string baseline = "reference";  // the build the candidate is compared with
  std::string config;                  // both sides' configuration (default profile when empty)
  std::string baseline_config;         // the baseline's own (default: config)
  std::string candidate_config;        // the candidate's base configuration (default: config)
  uint64_t seed = 1;
  double horizon_seconds = 600;
  double cycle_latency_seconds = 0;
  double bind_latency_seconds = 0;
  bool volume_controllers = false;  // both sides (docs/FORMATS.md, "Volume controllers")
  double volume_latency_seconds = 0;
  double time_tolerance_seconds = 0;
  bool allow_soft = false;  // soft divergences do not count: minimize the first hard/requeue one
  std::string compat;       // `--compat`: both sides' level; empty: the trace header's
  int64_t max_replays = 2000;
  bool no_fields = false;
  double scheduler_timeout_seconds = 30;
  // `--limit NAME=VALUE` specs (traces/input_limits.h): the trace, the configurations and the
  // decisions a child sends per replay are read under them.
  std::vector<std::string> limits;
};

int RunMinimizeCommand(const MinimizeCommandOptions& options, std::ostream& out, std::ostream& err);
void AddMinimizeCommand(CLI::App& app, int* exit_code);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_MINIMIZE_COMMAND_H_
