#include "harness/cli/minimize_command.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "harness/candidates/candidate.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/seconds_option.h"
#include "harness/cli/seed_option.h"
#include "harness/diff/explain_at.h"
#include "harness/gate/pair_replay.h"
#include "harness/gate/reference_check.h"
#include "harness/minimize/minimize.h"
#include "reference/api/rfc3339.h"
#include "traces/atomic_file.h"
#include "traces/input_limits.h"
#include "traces/output_path.h"
#include "traces/trace_file.h"
#include "traces/trace_writer.h"

namespace schedcheck::cli {
namespace {

// Nanoseconds as a decimal number of seconds, without trailing zeros ("2.5", "40").
std::string SecondsText(int64_t ns) {
  std::string text = std::to_string(ns / kNanosPerSecond);
  if (int64_t fraction = ns % kNanosPerSecond; fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 9 - digits.size(), '0');
    digits.erase(digits.find_last_not_of('0') + 1);
    text += "." + digits;
  }
  return text;
}

// Whether the baseline is the default one: the reference with --config. Outputs then say
// "reference", as before --baseline existed.
bool Plain(const MinimizeCommandOptions& o) {
  return o.baseline == "reference" && o.baseline_config.empty();
}

// How divergences name the sides: "reference" and "candidate", or "baseline" when not Plain.
diff::SideNames Names(const MinimizeCommandOptions& o) {
  return Plain(o) ? diff::SideNames{} : diff::SideNames{"baseline", "candidate"};
}

// "reference" or "baseline SPEC [with FILE]", for the divergence file.
std::string BaselineLabel(const MinimizeCommandOptions& o, const gate::PairSide& side) {
  return Plain(o) ? "reference" : gate::SideLabel(side);
}

// Both sides' replay options, as `replay` and `diff --candidate` would run them.
Result<gate::PairReplayOptions> PairOptions(const MinimizeCommandOptions& o,
                                            const trace::Trace& trace,
                                            const trace::InputLimits& limits) {
  gate::PairReplayOptions p;
  p.max_decisions = limits.records;
  replay::ReplayOptions& r = p.replay;
  r.compat = trace.header.compat().empty() ? "1.27" : trace.header.compat();
  if (!o.compat.empty()) r.compat = o.compat;
  if (r.compat != "1.27" && r.compat != "1.37")
    return Error{(o.compat.empty() ? o.trace + ": header.compat " : std::string("--compat ")) +
                 r.compat + " is not implemented (implemented: 1.27, 1.37)"};
  r.seed = o.seed;
  r.volume_controllers = o.volume_controllers;
  for (auto [value, flag, target] :
       {std::tuple{o.horizon_seconds, "--horizon", &r.horizon_ns},
        std::tuple{o.cycle_latency_seconds, "--cycle-latency", &r.cycle_latency_ns},
        std::tuple{o.bind_latency_seconds, "--bind-latency", &r.bind_latency_ns},
        std::tuple{o.volume_latency_seconds, "--volume-latency", &r.volume_latency_ns},
        std::tuple{o.time_tolerance_seconds, "--time-tolerance", &p.diff.time_tolerance_ns}}) {
    auto ns = SecondsToNs(value, flag);
    if (!ns.ok()) return ns.error();
    *target = *ns;
  }
  if (Outcome ok = replay::ApplyHeaderVolumeLabels(trace.header, &r); !ok)
    return Error{o.trace + ": " + ok.message()};
  auto timeout = SecondsToNs(o.scheduler_timeout_seconds, "--scheduler-timeout");
  if (!timeout.ok() || *timeout < 1'000'000)
    return Error{"--scheduler-timeout: must be between 0.001 and 1e9 seconds"};
  p.timeout_ms = *timeout / 1'000'000;
  if (auto start = trace.header.labels().find("start_time"); start != trace.header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return Error{o.trace + ": header label start_time: " + epoch.message()};
    r.epoch_unix_ns = *epoch;
  }
  // Each side's configuration: its own flag, else --config, else the default profile.
  const std::string& baseline_path = o.baseline_config.empty() ? o.config : o.baseline_config;
  auto baseline = gate::LoadSide(Plain(o) ? "reference" : "baseline", o.baseline, baseline_path,
                                 r.compat, trace::YamlLimitsOf(limits));
  if (!baseline.ok()) return baseline.error();
  p.baseline = std::move(*baseline);
  const std::string& candidate_path = o.candidate_config.empty() ? o.config : o.candidate_config;
  auto candidate = gate::LoadSide("candidate", o.candidate, candidate_path, r.compat,
                                  trace::YamlLimitsOf(limits));
  if (!candidate.ok()) return candidate.error();
  p.candidate = std::move(*candidate);
  return p;
}

// --allow-soft: soft divergences are not divergences at all.
void DropSoft(diff::DiffResult* d) {
  std::erase_if(d->divergences,
                [](const diff::Divergence& x) { return x.cls == diff::DivergenceClass::kSoft; });
}

std::string Seconds(int64_t ns) {
  std::ostringstream s;
  s << ns / 1'000'000'000;
  if (int64_t frac = ns % 1'000'000'000; frac != 0) {
    std::string digits = std::to_string(1'000'000'000 + frac).substr(1);
    digits.erase(digits.find_last_not_of('0') + 1);
    s << "." << digits;
  }
  return s.str() + "s";
}

const char* TypeName(trace::EventType t) {
  return t == trace::ADDED      ? "ADDED"
         : t == trace::MODIFIED ? "MODIFIED"
         : t == trace::DELETED  ? "DELETED"
                                : "?";
}

// The divergence file: what was minimized, the minimal trace's events, the removed fields, every
// divergence of the minimal trace and the first one explained.
std::string DiffText(const MinimizeCommandOptions& o, const gate::PairReplayOptions& po,
                     const minimize::MinimizeResult& m, const std::string& summary,
                     const std::string& explanation) {
  std::ostringstream s;
  s << "schedcheck minimize " << o.trace << " --candidate " << o.candidate
    << (o.baseline == "reference" ? "" : " --baseline " + o.baseline) << "\n"
    << "target (the input's first divergence): " << diff::Describe(m.target, Names(o)) << "\n"
    << summary << "\n\nminimal trace (times since its first event):\n";
  const int64_t t0 = m.records.empty() ? 0 : m.records.front().time_ns();
  for (const trace::Record& r : m.records) {
    s << "  t=" << Seconds(r.time_ns() - t0) << " " << TypeName(r.api().type()) << " "
      << minimize::ObjectKey(r.api()) << (r.api().during_attempt() ? " (during attempt)" : "")
      << "\n";
  }
  if (!m.removed_fields.empty()) {
    s << "\nfields removed from the input's remaining objects:\n";
    for (const minimize::FieldUnit& f : m.removed_fields)
      s << "  " << minimize::Describe(f) << "\n";
  }
  s << "\ndivergences (" << BaselineLabel(o, po.baseline) << " vs candidate " << o.candidate
    << "):\n";
  for (const diff::Divergence& d : m.diff.divergences)
    s << "  " << diff::Describe(d, Names(o)) << "\n";
  s << "\n" << explanation;
  return s.str();
}

std::string DefaultOutput(const std::string& input) {
  std::filesystem::path p(input);
  return (p.parent_path() / p.stem()).string() + ".min.trace";
}

// Replays the minimal trace once more (the logs for the explanation, and a check that the
// candidate repeats itself) and explains its first divergence.
Result<std::string> Explain(const MinimizeCommandOptions& o, gate::PairReplay& pair,
                            const gate::PairReplayOptions& po, const trace::Trace& minimal,
                            const minimize::MinimizeResult& m, const k8s::YamlLimits& yaml) {
  auto logs = pair.Run(minimal.records);
  if (!logs.ok()) return Error{"replaying the minimal trace again: " + logs.message()};
  if (o.allow_soft) DropSoft(&logs->diff);
  if (!minimize::SameDivergence(logs->diff, m.target)) {
    return Error{"the minimal trace did not diverge the same way when replayed again: " +
                 std::string(Plain(o) ? "" : "baseline " + o.baseline + " or ") + "candidate " +
                 o.candidate + " is not deterministic"};
  }
  std::vector<diff::ExplainSide> sides;
  std::string note;
  const std::string baseline_label = BaselineLabel(o, po.baseline);
  if (po.baseline.build.out_of_process()) {
    note += candidates::OutOfProcessExplainNote(baseline_label, o.baseline);
  } else {
    sides.push_back({baseline_label, po.baseline.build.config});
  }
  const std::string label = Plain(o) ? "candidate " + o.candidate : gate::SideLabel(po.candidate);
  if (po.candidate.build.out_of_process()) {
    note += candidates::OutOfProcessExplainNote(label, o.candidate);
  } else {
    sides.push_back({label, po.candidate.build.config});
  }
  if (sides.empty()) {
    sides.push_back(
        {"the reference with its default profile (neither side runs in process; "
         "for comparison only)",
         reference::DefaultConfiguration(po.replay.compat)});
  }
  diff::ExplainOptions explain;
  explain.compat = po.replay.compat;
  if (!Plain(o)) explain.snapshot_side = "baseline";
  const diff::Divergence& first = logs->diff.divergences.front();
  auto text = diff::ExplainAt(minimal, logs->baseline, first, sides, explain);
  const std::string check =
      gate::ReferenceCheck(minimal, logs->baseline, logs->candidate, first,
                           {o.baseline, o.candidate, po.baseline.config_source, yaml}, explain);
  return "explanation of the first divergence:\n" +
         (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + note + check;
}

// Replays the input once more on each out-of-process side, in a new child, and compares with the
// first replay: "" when each side repeats itself, else "build SPEC is not deterministic on trace
// T: first difference at record N: ...". In-process sides are the reference's engine.
Result<std::string> Nondeterminism(gate::PairReplay& pair, const trace::Trace& input,
                                   const std::string& name) {
  gate::PairReplay second(pair.options());
  for (gate::Which which : {gate::Which::kBaseline, gate::Which::kCandidate}) {
    const gate::PairSide& side = pair.side(which);
    if (!side.build.out_of_process()) continue;
    auto first = pair.Replay(which, input.records);
    if (!first.ok()) return Error{side.name + " replay: " + first.message()};
    auto again = second.Replay(which, input.records);
    if (!again.ok()) return Error{side.name + " replay: " + again.message()};
    if (std::string at = gate::FirstDifference(*first, *again); !at.empty()) {
      return "build " + side.build.spec + " is not deterministic on trace " + name +
             ": first difference at " + at;
    }
  }
  if (Outcome ok = second.Close(); !ok) return ok.error();
  return std::string();
}

}  // namespace

int RunMinimizeCommand(const MinimizeCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck minimize: " << message << "\n";
    return 2;
  };
  if (o.max_replays < 0) return fail("--max-replays: must be at least 0");
  {
    const std::string output = o.output.empty() ? DefaultOutput(o.trace) : o.output;
    if (Outcome ok = trace::CheckOutputsDistinct(
            {{"TRACE", o.trace},
             {"--config", o.config},
             {"--baseline-config", o.baseline_config},
             {"--candidate-config", o.candidate_config}},
            {{"-o", output}, {"-o (+ .diff.txt)", output + ".diff.txt"}});
        !ok)
      return fail(ok.message());
  }
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &limits); !ok) return fail(ok.message());
  auto input = trace::LoadTrace(o.trace, limits);
  if (!input.ok()) return fail(input.message());
  auto po = PairOptions(o, *input, limits);
  if (!po.ok()) return fail(po.message());
  gate::PairReplay pair(*po);
  if (auto why = Nondeterminism(pair, *input, o.trace); !why.ok()) {
    return fail(o.trace + ": " + why.message());
  } else if (!why->empty()) {
    err << "schedcheck minimize: " << *why << "\n";
    return 3;
  }
  minimize::DiffOracle oracle =
      [&](const std::vector<trace::Record>& records) -> Result<minimize::Verdict> {
    auto logs = pair.Run(records);
    if (!logs.ok()) return logs.error();
    if (o.allow_soft) DropSoft(&logs->diff);
    return minimize::VerdictOf(logs->baseline, std::move(logs->diff));
  };
  auto m = minimize::Minimize(input->records, oracle,
                              {.max_replays = o.max_replays, .reduce_fields = !o.no_fields});
  if (!m.ok()) return fail(o.trace + ": " + m.message());
  if (!m->diverges) {
    out << "no divergence: candidate " << o.candidate << " is equivalent to the "
        << BaselineLabel(o, po->baseline) << " on " << o.trace
        << (o.allow_soft ? " (soft divergences allowed)" : "") << "; nothing to minimize\n";
    return 1;
  }
  trace::Trace minimal{input->header, m->records};
  minimal.header.set_producer("schedcheck minimize");
  (*minimal.header.mutable_labels())["minimized_from"] = o.trace;
  (*minimal.header.mutable_labels())["minimized_against"] = o.candidate;
  if (o.baseline != "reference")
    (*minimal.header.mutable_labels())["minimized_baseline"] = o.baseline;
  // The volume controllers model as the labels say it, so the small trace replays alike with no
  // flag (replay, gate, the golden test).
  if (po->replay.volume_controllers) {
    (*minimal.header.mutable_labels())["volume_controllers"] = "on";
  }
  if (po->replay.volume_latency_ns > 0) {
    (*minimal.header.mutable_labels())["volume_latency"] =
        SecondsText(po->replay.volume_latency_ns);
  }
  auto explanation = Explain(o, pair, *po, minimal, *m, trace::YamlLimitsOf(limits));
  if (!explanation.ok()) {
    // The divergence did not come back: not bad input, the build is not deterministic.
    err << "schedcheck minimize: " << explanation.message() << "\n";
    return explanation.message().find("is not deterministic") != std::string::npos ? 3 : 2;
  }
  const minimize::MinimizeStats& s = m->stats;
  std::ostringstream summary;
  summary << "events " << s.events_before << " → " << s.events_after << ", objects "
          << s.objects_before << " → " << s.objects_after << ", fields " << s.fields_before << " → "
          << s.fields_after << ", replays " << s.replays + 1;
  if (s.budget_exhausted)
    summary << " (--max-replays " << o.max_replays << " reached: may not be 1-minimal)";
  const std::string output = o.output.empty() ? DefaultOutput(o.trace) : o.output;
  if (Outcome ok = trace::WriteTrace(output, minimal); !ok) return fail(ok.message());
  if (Outcome ok = trace::WriteFileAtomically(output + ".diff.txt",
                                              DiffText(o, *po, *m, summary.str(), *explanation));
      !ok) {
    return fail(ok.message());
  }
  if (Outcome ok = pair.Close(); !ok)
    err << "schedcheck minimize: note: " << (Plain(o) ? "the candidate's child: " : "a child: ")
        << ok.message() << "\n";
  out << "target: " << diff::Describe(m->target, Names(o)) << "\n"
      << summary.str() << "\n"
      << "minimal: " << diff::Describe(m->diff.divergences.front(), Names(o)) << "\n"
      << "wrote " << output << " and " << output << ".diff.txt\n";
  return 0;
}

void AddMinimizeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "minimize",
      "Delta-debug a trace to a small one on which a candidate still diverges from the "
      "reference the same way (same class, same first divergent pod)");
  auto o = std::make_shared<MinimizeCommandOptions>();
  cmd->add_option("trace", o->trace, "trace on which the candidate diverges (binary or JSON Lines)")
      ->required();
  cmd->add_option("--candidate", o->candidate,
                  "candidate build (" + candidates::CandidateHelp() + ")")
      ->required();
  cmd->add_option("-o,--output", o->output,
                  "the minimal trace (default: TRACE's name with .min.trace); its diff "
                  "goes to the same name + .diff.txt");
  cmd->add_option("--config", o->config,
                  "both sides' KubeSchedulerConfiguration unless --baseline-config / "
                  "--candidate-config name a side's own (default profile if absent)");
  cmd->add_option("--baseline", o->baseline,
                  "the build the candidate is compared with, same specs (default reference); when "
                  "neither side is the reference, the explanation says which one it agrees with");
  cmd->add_option("--baseline-config", o->baseline_config,
                  "the baseline's KubeSchedulerConfiguration (default: --config); an exec:/kube: "
                  "side is sent it unparsed");
  cmd->add_option("--candidate-config", o->candidate_config,
                  "the candidate's base configuration: in-process specs apply to it, exec:/kube: "
                  "children are sent "
                  "it (default: --config)");
  cmd->add_option("--compat", o->compat,
                  "compatibility level of both replays: 1.27 or 1.37 (default: the trace "
                  "header's, else 1.27)");
  AddSeedOption(cmd, "--seed", &o->seed,
                "seed of every random choice (tie-breaks), both sides; default 1");
  cmd->add_option("--horizon", o->horizon_seconds,
                  "seconds of virtual time after the last event (default 600)");
  cmd->add_option("--cycle-latency", o->cycle_latency_seconds,
                  "duration of a scheduling cycle in seconds (default 0)");
  cmd->add_option("--bind-latency", o->bind_latency_seconds,
                  "seconds from assume to binding (default 0)");
  AddVolumeLatencyOption(cmd, &o->volume_latency_seconds);
  cmd->add_flag("--volume-controllers", o->volume_controllers,
                "both sides replay with the volume controllers model (docs/FORMATS.md, \"Volume "
                "controllers\")");
  cmd->add_option("--time-tolerance", o->time_tolerance_seconds,
                  "attempt and queue times within this many seconds are equal");
  cmd->add_flag("--allow-soft", o->allow_soft,
                "soft divergences do not count: minimize the first hard or requeue one");
  cmd->add_option("--max-replays", o->max_replays,
                  "at most this many replays of reduced traces (default 2000)");
  cmd->add_flag("--no-fields", o->no_fields,
                "reduce events and objects only, not labels, taints, requests, ...");
  cmd->add_option(
      "--scheduler-timeout", o->scheduler_timeout_seconds,
      "real-time seconds to wait for each answer of an exec:/kube: candidate's child (default 30)");
  AddLimitOption(cmd, &o->limits);
  cmd->callback([=] { *exit_code = RunMinimizeCommand(*o, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
