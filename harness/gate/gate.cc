#include "harness/gate/gate.h"

#include <algorithm>
#include <filesystem>

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "harness/gate/pair_replay.h"
#include "harness/gate/reference_check.h"
#include "traces/trace_file.h"

namespace schedcheck::gate {
namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The configuration file of one side on the trace at `stem`: the side's own, else the trace's.
std::string SideConfig(const std::string& side_config, const std::string& stem) {
  if (!side_config.empty()) return side_config;
  return fs::exists(stem + ".config.yaml") ? stem + ".config.yaml" : "";
}

bool IsDefaultBaseline(const GateOptions& o) {
  return o.baseline == "reference" && o.baseline_config.empty() && o.candidate_config.empty();
}

// Replays the out-of-process sides again, each in a new child process (a build seeded per
// process differs there); the first whose log differs from `logs`' makes the message, else "".
Result<std::string> Nondeterminism(const PairReplay& pair, const PairLogs& logs,
                                   const std::vector<trace::Record>& records,
                                   const std::string& name) {
  PairReplay second(pair.options());
  for (Which which : {Which::kBaseline, Which::kCandidate}) {
    if (!pair.side(which).build.out_of_process()) continue;
    auto again = second.Replay(which, records);
    if (!again.ok()) return again.error();
    const std::string first =
        FirstDifference(which == Which::kBaseline ? logs.baseline : logs.candidate, *again);
    if (!first.empty()) {
      (void)second.Close();  // its exit status adds nothing here
      return "build " + pair.side(which).build.spec + " is not deterministic on trace " + name +
             ": first difference at " + first;
    }
  }
  if (Outcome ok = second.Close(); !ok) return ok.error();
  return std::string();
}

// The explanation of the first divergence, on the baseline's snapshot, with each in-process
// side's configuration; an out-of-process side gets a note. When neither side is the reference,
// the reference check ends it.
std::string Explain(const trace::Trace& trace, const PairLogs& logs, const PairReplay& pair,
                    const GateOptions& o) {
  const bool plain = IsDefaultBaseline(o);
  std::vector<diff::ExplainSide> sides;
  std::string notes;
  for (Which which : {Which::kBaseline, Which::kCandidate}) {
    const PairSide& side = pair.side(which);
    // The default gate keeps its labels: "reference", "candidate SPEC".
    const std::string label =
        plain ? (which == Which::kBaseline ? "reference" : "candidate " + o.candidate)
              : SideLabel(side);
    if (side.build.out_of_process()) {
      notes += candidates::OutOfProcessExplainNote(label, side.build.spec);
    } else {
      sides.push_back({label, side.build.config});
    }
  }
  if (sides.empty()) {
    // Neither build runs here: say so rather than let the reference's default profile pass
    // for either of them.
    sides.push_back(
        {"the reference with its default profile (neither side runs in process; "
         "for comparison only)",
         reference::DefaultConfiguration(o.compat)});
  }
  diff::ExplainOptions explain;
  explain.compat = o.compat;
  explain.feature_gates = o.feature_gates;
  if (!plain) explain.snapshot_side = "baseline";
  const diff::Divergence& first = logs.diff.divergences.front();
  auto text = diff::ExplainAt(trace, logs.baseline, first, sides, explain);
  const PairSide& baseline = pair.side(Which::kBaseline);
  const std::string check =
      ReferenceCheck(trace, logs.baseline, logs.candidate, first,
                     {baseline.build.spec, pair.side(Which::kCandidate).build.spec,
                      baseline.config_source, trace::YamlLimitsOf(o.limits)},
                     explain);
  return (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + notes + check;
}

Result<GateTrace> GateOne(const std::string& path, const GateOptions& o) {
  const std::string name = fs::path(path).filename().string();
  auto trace = trace::LoadTrace(path, o.limits);
  if (!trace.ok()) return trace.error();
  const std::string stem = (fs::path(path).parent_path() / fs::path(path).stem()).string();
  const k8s::YamlLimits yaml = trace::YamlLimitsOf(o.limits);
  PairReplayOptions po;
  auto replay = candidates::ReplayOptionsFor(*trace, {.config_yaml = "",
                                                      .config_source = "",
                                                      .timeout_ms = o.timeout_ms,
                                                      .engine = o.engine,
                                                      .compat = o.compat,
                                                      .feature_gates = o.feature_gates,
                                                      .volume_controllers = o.volume_controllers,
                                                      .volume_latency_ns = o.volume_latency_ns});
  if (!replay.ok()) return Error{path + ": " + replay.message()};
  po.replay = std::move(*replay);
  if (GateComparesScores(o)) po.replay.record_scores = kGateScoreTop;
  po.timeout_ms = o.timeout_ms;
  po.max_decisions = o.limits.records;
  po.diff = o.diff;
  const bool plain = IsDefaultBaseline(o);
  auto baseline = LoadSide(plain ? "reference" : "baseline", o.baseline,
                           SideConfig(o.baseline_config, stem), o.compat, yaml);
  if (!baseline.ok()) return baseline.error();
  auto candidate =
      LoadSide("candidate", o.candidate, SideConfig(o.candidate_config, stem), o.compat, yaml);
  if (!candidate.ok()) return candidate.error();
  po.baseline = std::move(*baseline);
  po.candidate = std::move(*candidate);
  PairReplay pair(std::move(po));
  PairLogs logs;
  for (Which which : {Which::kBaseline, Which::kCandidate}) {
    const PairSide& side = pair.side(which);
    auto log = pair.Replay(which, trace->records);
    if (!log.ok()) {
      // A child that fails is reported on this trace and the gate goes on.
      if (side.build.out_of_process())
        return GateTrace{{name, {}, "", side.name + " " + side.build.spec + ": " + log.message()},
                         ""};
      return Error{path + ": " + side.name + " replay: " + log.message()};
    }
    (which == Which::kBaseline ? logs.baseline : logs.candidate) = std::move(*log);
  }
  logs.diff = diff::Diff(logs.baseline, logs.candidate, o.diff);
  if (o.check_determinism || !logs.diff.divergences.empty()) {
    auto nondeterministic = Nondeterminism(pair, logs, trace->records, name);
    if (!nondeterministic.ok())
      return GateTrace{{name, {}, "", "replaying again: " + nondeterministic.message()}, ""};
    if (!nondeterministic->empty())
      return GateTrace{{name, {}, "", *nondeterministic}, *nondeterministic};
  }
  GateTrace out{{name, {}, "", ""}, ""};
  if (!logs.diff.divergences.empty()) out.explanation = Explain(*trace, logs, pair, o);
  out.result = std::move(logs.diff);
  if (GateComparesScores(o)) out.scores = diff::CompareScores(logs.baseline, logs.candidate);
  if (Outcome ok = pair.Close(); !ok && out.error.empty()) out.error = ok.message();
  return out;
}

}  // namespace

bool GateComparesScores(const GateOptions& o) {
  if (o.scores == diff::ScoresMode::kAuto) return GateScoreDriftFails(o);
  return o.scores != diff::ScoresMode::kOff;
}

bool GateScoreDriftFails(const GateOptions& o) {
  if (o.scores == diff::ScoresMode::kAuto)
    return o.baseline != "reference" && o.candidate != "reference";
  return o.scores == diff::ScoresMode::kFail;
}

Result<std::vector<std::string>> CorpusTraces(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir + ": not a directory"};
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string p = entry.path().string();
    if (entry.is_regular_file() && (EndsWith(p, ".jsonl") || EndsWith(p, ".trace")))
      out.push_back(p);
  }
  if (ec) return Error{dir + ": " + ec.message()};
  std::sort(out.begin(), out.end());
  if (out.empty()) return Error{dir + ": no traces (*.jsonl, *.trace)"};
  return out;
}

Result<std::vector<GateTrace>> RunGate(const GateOptions& options) {
  auto traces = CorpusTraces(options.corpus);
  if (!traces.ok()) return traces.error();
  std::vector<GateTrace> out;
  for (const std::string& path : *traces) {
    auto one = GateOne(path, options);
    if (!one.ok()) return one.error();
    out.push_back(std::move(*one));
  }
  return out;
}

std::string GateTitle(const GateOptions& o) {
  if (IsDefaultBaseline(o)) return "candidate " + o.candidate + " vs reference";
  auto config = [](const std::string& file) {
    return file.empty() ? std::string(" (the traces' configurations)") : " with " + file;
  };
  return "candidate " + o.candidate + config(o.candidate_config) + " vs baseline " + o.baseline +
         config(o.baseline_config);
}

}  // namespace schedcheck::gate
