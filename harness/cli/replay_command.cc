#include "harness/cli/replay_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "harness/candidates/candidate.h"
#include "harness/cli/engine_option.h"
#include "harness/cli/feature_gates_option.h"
#include "harness/cli/keep_until_exit.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/progress_line.h"
#include "harness/cli/seconds_option.h"
#include "harness/cli/seed_option.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "reference/base/features.h"
#include "traces/atomic_file.h"
#include "traces/output_path.h"
#include "traces/trace_file.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

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

// The header of -o's decision trace.
trace::Header OutputHeader(const ReplayCommandOptions& o, const std::string& compat,
                           const std::string& config_hash,
                           const std::map<std::string, std::string>& labels,
                           const std::string& engine) {
  trace::Header header;
  header.set_producer("schedcheck replay");
  header.set_compat(compat);
  header.set_seed(o.seed);
  header.set_config_hash(config_hash);
  if (!engine.empty()) header.set_engine(engine);
  (*header.mutable_labels())["source"] = o.trace;
  for (const auto& [key, value] : labels) (*header.mutable_labels())[key] = value;
  return header;
}

// -o written as the replay goes, for a run that needs nothing else of the log (--quiet, no
// --jsonl): the decision log of a large day (every attempt names its whole top-score tie set) is
// then never held, only its compressed frames, until the header (known at the end) is written
// before them. The file is byte-identical to the one written from the whole log.
class StreamedOutput {
 public:
  static bool Wanted(const ReplayCommandOptions& o) {
    return !o.output.empty() && o.quiet && o.jsonl.empty();
  }
  Outcome Open(const std::string& path) {
    trace::WriterOptions options;
    options.header_last = true;
    auto writer = trace::TraceWriter::Open(path, trace::Header(), options);
    if (!writer.ok()) return writer.error();
    writer_ = std::move(*writer);
    return {};
  }
  void Append(const trace::Record& r) {
    if (!status_) return;  // the first failure is reported by Finish
    status_ = writer_->Append(r);
  }
  Outcome Finish(trace::Header header) {
    if (!status_) return status_;
    return writer_->FinishWithHeader(std::move(header));
  }

 private:
  std::unique_ptr<trace::TraceWriter> writer_;
  Outcome status_;
};

// Writes -o (unless `streamed` wrote it already) and --jsonl and prints the summary. `labels` go
// into the -o header.
int WriteDecisions(const ReplayCommandOptions& o, const replay::DecisionLog& log, bool streamed,
                   const replay::ClusterEventLog& events, const std::string& compat,
                   const std::string& config_hash, const std::map<std::string, std::string>& labels,
                   const std::string& engine, std::ostream& out, std::ostream& err,
                   const std::string& jsonl_trailer = "",
                   const std::vector<std::set<std::string>>* registrants = nullptr,
                   bool queueing_hints = true) {
  if (!o.output.empty() && !streamed) {
    const trace::Header header = OutputHeader(o, compat, config_hash, labels, engine);
    if (Outcome ok = log.WriteTrace(o.output, header); !ok)
      return err << "schedcheck replay: " << ok.message() << "\n", 2;
  }
  if (!o.jsonl.empty()) {
    // A child's failure ends the log with its "incomplete" line (protocol::IncompleteJsonLine).
    Outcome ok = jsonl_trailer.empty()
                     ? log.WriteJsonLines(o.jsonl)
                     : trace::WriteFileAtomically(o.jsonl, log.ToJsonLines() + jsonl_trailer);
    if (!ok) return err << "schedcheck replay: " << ok.message() << "\n", 2;
  }
  replay::SummaryOptions summary;
  summary.registrants = registrants;
  summary.queueing_hints = queueing_hints;
  if (!o.quiet) out << replay::Summarize(log.records(), events, summary);
  return 0;
}

// --scheduler-cmd, or an exec:/kube: --candidate: the same replay driven over the
// external-scheduler protocol with `command` as the child. When the child fails, the decisions
// received before are written and marked incomplete; exit 2.
int RunExternal(const ReplayCommandOptions& o, const std::string& command,
                const replay::ReplayOptions& options, const trace::Trace& trace,
                const std::string& config_text, const std::string& config_hash,
                std::map<std::string, std::string> labels, std::ostream& out, std::ostream& err) {
  auto timeout = SecondsToNs(o.scheduler_timeout_seconds, "--scheduler-timeout");
  if (!timeout.ok() || *timeout < 1'000'000) {
    err << "schedcheck replay: --scheduler-timeout: must be between 0.001 and 1e9 seconds\n";
    return 2;
  }
  protocol::ExternalReplayOptions eo;
  eo.command = command;
  eo.timeout_ms = *timeout / 1'000'000;
  trace::InputLimits limits;  // RunReplay checked the specs already
  (void)trace::ParseInputLimits(o.limits, &limits);
  eo.max_decisions = limits.records;
  eo.hello = protocol::HelloFor(options, config_text, o.config);
  eo.follow_cluster = o.follow_cluster;
  protocol::ExternalReplay run = protocol::RunExternalReplay(trace.records, eo);
  if (run.bad_input)
    return err << "schedcheck replay: " << o.trace << ": " << run.status.message() << "\n", 2;
  replay::DecisionLog log;
  for (const trace::Record& r : run.decisions) log.Add(r);
  labels["scheduler_cmd"] = command;
  labels["scheduler"] = run.ack.scheduler_name() + " " + run.ack.scheduler_version();
  if (!run.status.ok()) labels["incomplete"] = run.status.message();
  // The child made the decisions: no reference engine to record.
  // The summary's wording needs the queue's kind (QueueingHints or not) and, when the child gave
  // them, each move's registrants.
  auto level = reference::ParseCompatLevel(options.compat);
  auto features =
      reference::FeaturesFor(level.value_or(reference::CompatLevel::kV1_27), options.feature_gates);
  int rc = WriteDecisions(o, log, false, run.cluster_events, options.compat, config_hash, labels,
                          "", out, err, run.status.ok() ? "" : protocol::IncompleteJsonLine(run),
                          run.registrants_known ? &run.event_registrants : nullptr,
                          features.ok() && features->scheduler_queueing_hints);
  if (rc == 0 && !o.quiet && o.follow_cluster) out << replay::FollowSummary(run.follow);
  if (run.status.ok()) return rc;
  err << "schedcheck replay: " << run.status.message() << "\n";
  if (!o.quiet) {
    out << "INCOMPLETE: the scheduler process failed after " << run.requests_answered
        << " answered requests; the decisions above are those received before the failure\n";
  }
  return 2;
}

uintmax_t FileBytes(const std::string& path) {
  std::error_code ec;
  const uintmax_t n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

// The trace to replay. A binary trace is read record by record as the replay goes, so a day's
// capture is never held whole; the JSON Lines form, and a trace sent to an external scheduler,
// are loaded whole.
struct ReplayInput {
  trace::Header header;
  std::optional<trace::TraceReader> reader;  // a binary trace, read up to its header
  std::optional<trace::Trace> whole;
  bool reader_failed = false;  // the replay stopped on damage the reader found

  static Result<ReplayInput> Open(const std::string& path, const trace::InputLimits& limits) {
    ReplayInput in;
    if (trace::IsBinaryTrace(path)) {
      auto reader = trace::TraceReader::Open(path, limits);
      if (!reader.ok()) return reader.error();
      in.header = reader->header();
      in.reader.emplace(std::move(*reader));
      return in;
    }
    auto loaded = trace::LoadTrace(path, limits);
    if (!loaded.ok()) return loaded.error();
    in.header = loaded->header;
    in.whole.emplace(std::move(*loaded));
    return in;
  }

  // Every record (an external scheduler is sent the whole trace up front).
  Result<const trace::Trace*> Whole(const std::string& path, const trace::InputLimits& limits) {
    if (!whole) {
      auto loaded = trace::LoadTrace(path, limits);
      if (!loaded.ok()) return loaded.error();
      whole.emplace(std::move(*loaded));
    }
    return &*whole;
  }

  Outcome Replay(replay::Replayer& replayer) {
    if (whole) return replayer.Run(whole->records);
    return replayer.Run(
        [this](trace::Record* record) -> Result<bool> {
          switch (reader->Next(record)) {
            case trace::ReadStatus::kRecord:
              return true;
            case trace::ReadStatus::kEnd:
              return false;
            case trace::ReadStatus::kError:
              break;
          }
          reader_failed = true;
          return Error{reader->error()};
        },
        /*events_total=*/0);
  }
};

}  // namespace

int RunReplay(const ReplayCommandOptions& o, std::ostream& stdout_stream, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck replay: " << message << "\n";
    return 2;
  };
  // An output of "-" is standard output: the summary then goes to stderr, out of its way.
  std::ostream& out = o.output == "-" || o.jsonl == "-" ? err : stdout_stream;
  if (Outcome ok = trace::CheckOutputsDistinct({{"TRACE", o.trace}, {"--config", o.config}},
                                               {{"-o", o.output}, {"--jsonl", o.jsonl}});
      !ok) {
    return fail(ok.message());
  }
  if (!o.candidate.empty() && !o.scheduler_cmd.empty()) {
    return fail(
        "--candidate and --scheduler-cmd exclude each other (--scheduler-cmd X is --candidate "
        "exec:X)");
  }
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &limits); !ok) return fail(ok.message());
  auto opened = ReplayInput::Open(o.trace, limits);
  if (!opened.ok()) return fail(opened.message());
  ReplayInput& input = KeepUntilExit(std::move(*opened));
  const trace::Header& header = input.header;
  replay::ReplayOptions options;
  options.seed = o.seed;
  options.engine = o.engine;
  options.compat = header.compat().empty() ? "1.27" : header.compat();
  if (!o.compat.empty()) {
    if (o.compat != "1.27" && o.compat != "1.37")
      return fail("--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)");
    if (o.compat != options.compat) {
      err << "schedcheck replay: warning: --compat " << o.compat
          << " differs from the trace's level " << options.compat << " (" << o.trace
          << ": header.compat" << (header.compat().empty() ? " absent, 1.27 assumed" : "")
          << "); replaying at " << o.compat << "\n";
    }
    options.compat = o.compat;
  } else if (options.compat != "1.27" && options.compat != "1.37") {
    return fail(o.trace + ": header.compat " + options.compat +
                " is not implemented (implemented: 1.27, 1.37)");
  }
  if (std::string why = reference::CheckFeatureGates(o.feature_gates, options.compat);
      !why.empty()) {
    return fail("--feature-gates: " + why);
  }
  options.feature_gates = o.feature_gates;
  std::string config_hash = "default";
  std::string config_text;  // sent to a --scheduler-cmd child
  if (o.config.empty()) {
    options.config = reference::DefaultConfiguration(options.compat);
  } else {
    auto config = reference::LoadSchedulerConfiguration(o.config, options.compat,
                                                        trace::YamlLimitsOf(limits));
    if (!config.ok()) return fail(config.message());
    options.config = std::move(*config);
    std::ifstream in(o.config, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    config_text = bytes.str();
    config_hash = Fnv1a(config_text);
  }
  for (auto [value, flag, target] :
       {std::tuple{o.horizon_seconds, "--horizon", &options.horizon_ns},
        std::tuple{o.cycle_latency_seconds, "--cycle-latency", &options.cycle_latency_ns},
        std::tuple{o.bind_latency_seconds, "--bind-latency", &options.bind_latency_ns},
        std::tuple{o.volume_latency_seconds, "--volume-latency", &options.volume_latency_ns}}) {
    auto ns = SecondsToNs(value, flag);
    if (!ns.ok()) return fail(ns.message());
    *target = *ns;
  }
  options.volume_controllers = o.volume_controllers;
  options.follow_cluster = o.follow_cluster;
  options.record_scores = o.scores;
  if (Outcome ok = replay::ApplyHeaderVolumeLabels(header, &options); !ok)
    return fail(o.trace + ": " + ok.message());
  auto start = header.labels().find("start_time");
  if (start != header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return fail(o.trace + ": header label start_time: " + epoch.message());
    options.epoch_unix_ns = *epoch;
  }
  // The candidate's configuration starts from --config (or the default), as the gate's starts from
  // the trace's. Kept alive for the registry the replayer points to.
  std::optional<candidates::Candidate> candidate;
  std::map<std::string, std::string> labels;
  if (!options.feature_gates.empty())
    labels["feature_gates"] = reference::FeatureGatesText(options.feature_gates);
  if (o.follow_cluster) labels["follow_cluster"] = "on";
  if (o.scores > 0) labels["scores"] = std::to_string(o.scores);
  if (!o.candidate.empty()) {
    auto c = candidates::MakeCandidate(o.candidate, options.config, trace::YamlLimitsOf(limits));
    if (!c.ok()) return fail(c.message());
    candidate = std::move(*c);
    // exec:X writes what --scheduler-cmd X writes; other specs say more than the command does.
    if (o.candidate.rfind("exec:", 0) != 0) labels["candidate"] = o.candidate;
    if (!candidate->out_of_process()) {
      options.config = candidate->config;
      options.registry = candidate->registry.get();
    }
  }
  if (!o.scheduler_cmd.empty() || (candidate && candidate->out_of_process())) {
    auto trace = input.Whole(o.trace, limits);
    if (!trace.ok()) return fail(trace.message());
    const std::string& command = o.scheduler_cmd.empty() ? candidate->command : o.scheduler_cmd;
    return RunExternal(o, command, options, **trace, config_text, config_hash, labels, out, err);
  }
  // On a terminal only, erased when done: never part of any output file or of piped stderr.
  std::optional<ProgressLine> progress;
  if (!o.no_progress && StderrIsTerminal()) {
    progress.emplace(err, [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
          .count();
    });
    // A binary trace read as the replay goes: how far into the file, since no total is known.
    const double input_bytes = input.reader ? static_cast<double>(FileBytes(o.trace)) : 0;
    options.progress = [&progress, &input, input_bytes](replay::ReplayProgress p) {
      if (input_bytes > 0 && p.events_total == 0)
        p.input_read = std::min(1.0, static_cast<double>(input.reader->offset()) / input_bytes);
      progress->Update(p);
    };
    options.progress_every_events = 100;  // often enough for slow events; the line throttles itself
  }
  const std::string compat = options.compat;  // `options` moves into the Replayer
  std::optional<StreamedOutput> streamed;
  if (StreamedOutput::Wanted(o)) {
    streamed.emplace();
    if (Outcome ok = streamed->Open(o.output); !ok) return fail(ok.message());
    options.retain_log = false;
    options.on_record = [&streamed](const trace::Record& r) { streamed->Append(r); };
  }
  auto created = replay::Replayer::Create(std::move(options));
  // Building the profiles fails only on configuration (unknown plugin, bad args): name the file.
  if (!created.ok()) {
    const std::string what = candidate          ? "candidate \"" + o.candidate + "\""
                             : o.config.empty() ? std::string("default configuration")
                                                : o.config;
    return fail(what + ": " + created.message());
  }
  std::unique_ptr<replay::Replayer>& replayer = KeepUntilExit(std::move(*created));
  if (Outcome ok = input.Replay(*replayer); !ok) {
    if (progress) progress->Clear();
    // The reader's errors name the file and byte offset already.
    return fail(input.reader_failed ? ok.message() : o.trace + ": " + ok.message());
  }
  const replay::KeptPlacements& kept = replayer->kept_placements();
  if (kept.count > 0) labels["kept_placements"] = std::to_string(kept.count);
  if (streamed) {
    const trace::Header h =
        OutputHeader(o, compat, config_hash, labels, std::string(reference::EngineName(o.engine)));
    if (Outcome ok = streamed->Finish(h); !ok) return fail(ok.message());
  }
  int rc = WriteDecisions(o, replayer->log(), streamed.has_value(), replayer->cluster_events(),
                          compat, config_hash, labels, std::string(reference::EngineName(o.engine)),
                          out, err, "", &replayer->event_registrants(), replayer->queueing_hints());
  if (rc == 0 && !o.quiet && kept.count > 0) {
    out << "input updates that named another node or none for a bound pod (nodeName is "
           "immutable; the pod stayed where it was bound): "
        << kept.count << "\n";
    for (const std::string& line : kept.first) out << "  " << line << "\n";
    if (kept.count > static_cast<int64_t>(kept.first.size()))
      out << "  ... " << kept.count - static_cast<int64_t>(kept.first.size()) << " more\n";
  }
  if (rc == 0 && !o.quiet && o.follow_cluster)
    out << replay::FollowSummary(replayer->follow_report());
  return rc;
}

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("replay",
                                 "Replay a trace against the reference scheduler in virtual time");
  auto o = std::make_shared<ReplayCommandOptions>();
  cmd->add_option("trace", o->trace, "trace file (binary or the JSON Lines of `trace cat`)")
      ->required();
  cmd->add_option("--config", o->config,
                  "KubeSchedulerConfiguration (default: kube-scheduler's default profile)");
  AddSeedOption(cmd, "--seed", &o->seed, "seed of every random choice (tie-breaks); default 1");
  AddEngineOption(cmd, &o->engine);
  cmd->add_option(
      "--compat", o->compat,
      "compatibility level: 1.27 or 1.37 (default: the trace header's, else 1.27; a warning "
      "when it differs from the header's)");
  AddFeatureGatesOption(cmd, &o->feature_gates);
  cmd->add_option(
      "--horizon", o->horizon_seconds,
      "seconds of virtual time to keep running after the last trace event (default 600)");
  cmd->add_option("--cycle-latency", o->cycle_latency_seconds,
                  "duration of a scheduling cycle in seconds (default 0)");
  cmd->add_option("--bind-latency", o->bind_latency_seconds,
                  "seconds from assume to binding (default 0)");
  AddVolumeLatencyOption(cmd, &o->volume_latency_seconds);
  cmd->add_flag("--volume-controllers", o->volume_controllers,
                "VolumeBinding's PreBind writes succeed and a PV controller and provisioner answer "
                "them at once (docs/FORMATS.md, \"Volume controllers\"); off: the writes fail as "
                "NotFound, for traces that hold what the controllers wrote");
  cmd->add_flag("--follow-cluster", o->follow_cluster,
                "for captures: at each binding the capture observed, put the replay's copy of the "
                "pod where the cluster put it (after the replay's own decision), so one different "
                "tie-break does not drift the rest of the replay; the summary classifies each "
                "observed binding (docs/FORMATS.md, \"Following the cluster\")");
  cmd->add_option("--scores", o->scores,
                  "record the scores of the top K nodes (total and per plugin) on each scheduled "
                  "attempt, for `diff --scores` (docs/FORMATS.md#scores); default: none")
      ->type_name("K")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("-o,--output", o->output, "write the decisions as a binary trace");
  cmd->add_option("--jsonl", o->jsonl,
                  "write the decisions as JSON Lines (docs/FORMATS.md#decision-logs)");
  AddLimitOption(cmd, &o->limits);
  cmd->add_flag("-q,--quiet", o->quiet, "do not print the summary");
  cmd->add_flag(
      "--no-progress", o->no_progress,
      "no progress line on stderr (shown only when stderr is a terminal, and erased at the end)");
  cmd->add_option(
         "--scheduler-cmd", o->scheduler_cmd,
         "replay against this command, run via /bin/sh -c as a child speaking the "
         "external-scheduler "
         "protocol on stdin/stdout (harness/protocol/PROTOCOL.md), e.g. \"schedcheck serve\"")
      ->excludes(cmd->add_option(
          "--candidate", o->candidate,
          "replay this candidate build instead of the reference (" + candidates::CandidateHelp() +
              "): in-process specs apply to --config (or the default configuration); exec:/kube: "
              "run as a child like --scheduler-cmd (--scheduler-cmd X is --candidate exec:X)"));
  cmd->add_option("--scheduler-timeout", o->scheduler_timeout_seconds,
                  "real-time seconds to wait for each answer of the --scheduler-cmd / exec: / "
                  "kube: child (default 30)");
  cmd->callback([=] { *exit_code = RunReplay(*o, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
