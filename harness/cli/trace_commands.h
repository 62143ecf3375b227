// The `schedcheck trace ...` and `schedcheck version` subcommands, and the functions behind them
// (which tests call directly). Called by harness/cli/main.cc.
//
//   schedcheck trace info FILE      header, counts by record type / object kind / event type,
//                                   time span, frames; damage reported on stderr, exit 2
//   schedcheck trace cat FILE       {"header":{...}} then one JSON line per Record (proto3 JSON =
//                                   Kubernetes field names); on damage prints what is readable,
//                                   then the error, exit 2
//   schedcheck trace convert IN OUT binary -> JSON Lines or JSON Lines -> binary (by IN's magic);
//                                   OUT written atomically
//   schedcheck trace sample OUT     writes the built-in sample trace (traces/sample_trace.h)
//   schedcheck version              "schedcheck <version> (trace format N, compat 1.27)"
// Exit codes: 0 success, 2 bad input or I/O failure (message on stderr naming file and position).
#ifndef SCHEDCHECK_HARNESS_CLI_TRACE_COMMANDS_H_
#define SCHEDCHECK_HARNESS_CLI_TRACE_COMMANDS_H_

#include <ostream>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"
#include "traces/input_limits.h"

namespace schedcheck::cli {

inline constexpr std::string_view kSchedcheckVersion =
    "0.2.0";  // 0.2: soft divergences fail by default
inline constexpr int kExitBadInput = 2;

// "schedcheck 0.1.0 (trace format 1, compat 1.27)".
std::string VersionString();

// Register subcommands on `app`; their callbacks store the command's exit code in *exit_code.
// REQUIRES: exit_code outlives app.Parse / the callbacks.
void AddVersionCommand(CLI::App& app, int* exit_code);
void AddTraceCommands(CLI::App& app, int* exit_code);

// The commands themselves. Normal output goes to `out`, diagnostics to `err`; each returns the
// exit code (0 or kExitBadInput). Records beyond `limits` (`--limit`) are bad input.
int TraceInfo(const std::string& path, std::ostream& out, std::ostream& err,
              const trace::InputLimits& limits = {});
int TraceCat(const std::string& path, std::ostream& out, std::ostream& err,
             const trace::InputLimits& limits = {});
int TraceConvert(const std::string& in_path, const std::string& out_path, std::ostream& err,
                 const trace::InputLimits& limits = {});
int TraceSample(const std::string& out_path, std::ostream& err);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_TRACE_COMMANDS_H_
