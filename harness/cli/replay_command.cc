#include "harness/cli/replay_command.h"

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {
namespace {

// FNV-1a: a stable, dependency-free fingerprint of the configuration file.
std::string Fnv1a(const std::string& bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Result<int64_t> SecondsToNs(double seconds, const char* flag) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e9) {
    return Error{std::string(flag) + ": must be between 0 and 1e9 seconds"};
  }
  return static_cast<int64_t>(std::llround(seconds * 1e9));
}

}  // namespace

int RunReplay(const ReplayCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck replay: " << message << "\n";
    return 2;
  };
  auto trace = trace::LoadTrace(o.trace);
  if (!trace.ok()) return fail(trace.message());
  replay::ReplayOptions options;
  options.seed = o.seed;
  options.compat = trace->header.compat().empty() ? "1.27" : trace->header.compat();
  if (options.compat != "1.27") return fail(o.trace + ": header.compat " + options.compat + " is not implemented (implemented: 1.27)");
  std::string config_hash = "default";
  if (o.config.empty()) {
    options.config = reference::DefaultConfiguration(options.compat);
  } else {
    auto config = reference::LoadSchedulerConfiguration(o.config, options.compat);
    if (!config.ok()) return fail(config.message());
    options.config = std::move(*config);
    std::ifstream in(o.config, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    config_hash = Fnv1a(bytes.str());
  }
  for (auto [value, flag, target] : {std::tuple{o.horizon_seconds, "--horizon", &options.horizon_ns},
                                     std::tuple{o.cycle_latency_seconds, "--cycle-latency", &options.cycle_latency_ns},
                                     std::tuple{o.bind_latency_seconds, "--bind-latency", &options.bind_latency_ns}}) {
    auto ns = SecondsToNs(value, flag);
    if (!ns.ok()) return fail(ns.message());
    *target = *ns;
  }
  auto start = trace->header.labels().find("start_time");
  if (start != trace->header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return fail(o.trace + ": header label start_time: " + epoch.message());
    options.epoch_unix_ns = *epoch;
  }
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return fail(replayer.message());
  if (Outcome ok = (*replayer)->Run(trace->records); !ok) return fail(o.trace + ": " + ok.message());
  const replay::DecisionLog& log = (*replayer)->log();
  if (!o.output.empty()) {
    trace::Header header;
    header.set_producer("schedcheck replay");
    header.set_compat(trace->header.compat().empty() ? "1.27" : trace->header.compat());
    header.set_seed(o.seed);
    header.set_config_hash(config_hash);
    (*header.mutable_labels())["source"] = o.trace;
    if (Outcome ok = log.WriteTrace(o.output, header); !ok) return fail(ok.message());
  }
  if (!o.jsonl.empty()) {
    if (Outcome ok = log.WriteJsonLines(o.jsonl); !ok) return fail(ok.message());
  }
  if (!o.quiet) out << replay::Summarize(log.records(), (*replayer)->cluster_events());
  return 0;
}

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("replay", "Replay a trace against the reference scheduler in virtual time");
  auto o = std::make_shared<ReplayCommandOptions>();
  cmd->add_option("trace", o->trace, "trace file (binary or the JSON Lines of `trace cat`)")->required();
  cmd->add_option("--config", o->config, "KubeSchedulerConfiguration (default: kube-scheduler's default profile)");
  cmd->add_option("--seed", o->seed, "seed of every random choice (tie-breaks); default 1");
  cmd->add_option("--horizon", o->horizon_seconds,
                  "seconds of virtual time to keep running after the last trace event (default 600)");
  cmd->add_option("--cycle-latency", o->cycle_latency_seconds, "duration of a scheduling cycle in seconds (default 0)");
  cmd->add_option("--bind-latency", o->bind_latency_seconds, "seconds from assume to binding (default 0)");
  cmd->add_option("-o,--output", o->output, "write the decisions as a binary trace");
  cmd->add_option("--jsonl", o->jsonl, "write the decisions as JSON Lines (CONTRACTS.md §2)");
  cmd->add_flag("-q,--quiet", o->quiet, "do not print the summary");
  cmd->callback([=] { *exit_code = RunReplay(*o, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
