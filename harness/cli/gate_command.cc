#include "harness/cli/gate_command.h"

#include <cmath>
#include <memory>

#include "harness/candidates/candidate.h"
#include "harness/cli/engine_option.h"
#include "harness/cli/feature_gates_option.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/seconds_option.h"
#include "harness/gate/gate.h"
#include "traces/atomic_file.h"
#include "traces/input_limits.h"
#include "traces/output_path.h"

namespace schedcheck::cli {

int RunGateCommand(const GateCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck gate: " << message << "\n";
    return 2;
  };
  if (Outcome ok =
          trace::CheckOutputsDistinct({}, {{"--junit", o.junit}, {"--markdown", o.markdown}});
      !ok)
    return fail(ok.message());
  const double tol = o.time_tolerance_seconds;
  if (!std::isfinite(tol) || tol < 0 || tol > 1e9)
    return fail("--time-tolerance: must be between 0 and 1e9 seconds");
  const double timeout = o.scheduler_timeout_seconds;
  if (!std::isfinite(timeout) || timeout < 0.001 || timeout > 1e9) {
    return fail("--scheduler-timeout: must be between 0.001 and 1e9 seconds");
  }
  gate::GateOptions options;
  options.corpus = o.corpus;
  options.candidate = o.candidate;
  options.baseline = o.baseline;
  options.baseline_config = o.baseline_config;
  options.candidate_config = o.candidate_config;
  options.check_determinism = o.check_determinism;
  options.diff.time_tolerance_ns = static_cast<int64_t>(std::llround(tol * 1e9));
  options.timeout_ms = static_cast<int64_t>(std::llround(timeout * 1e3));
  if (Outcome ok = trace::ParseInputLimits(o.limits, &options.limits); !ok)
    return fail(ok.message());
  options.engine = o.engine;
  if (o.compat != "1.27" && o.compat != "1.37")
    return fail("--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)");
  options.compat = o.compat;
  for (const std::string& side : {o.baseline, o.candidate}) {
    if (Outcome ok = candidates::CheckCompatFor(side, o.compat); !ok) return fail(ok.message());
  }
  if (std::string note = candidates::ReferenceLevelNote(o.baseline, o.candidate); !note.empty())
    err << "schedcheck gate: " << note << "\n";
  if (std::string why = reference::CheckFeatureGates(o.feature_gates, o.compat); !why.empty())
    return fail("--feature-gates: " + why);
  options.feature_gates = o.feature_gates;
  options.volume_controllers = o.volume_controllers;
  auto latency = SecondsToNs(o.volume_latency_seconds, "--volume-latency");
  if (!latency.ok()) return fail(latency.message());
  options.volume_latency_ns = *latency;
  auto scores = diff::ParseScoresMode(o.scores);
  if (!scores.ok()) return fail(scores.message());
  options.scores = *scores;
  auto traces = gate::RunGate(options);
  if (!traces.ok()) return fail(traces.message());
  const std::vector<diff::NamedDiff> diffs(traces->begin(), traces->end());
  if (o.soft_fails && o.allow_soft)
    return fail("--soft-fails and --allow-soft contradict each other");
  if (o.soft_fails)
    err << "schedcheck gate: note: soft divergences fail by default now; --soft-fails is ignored\n";
  const bool plain =
      o.baseline == "reference" && o.baseline_config.empty() && o.candidate_config.empty();
  diff::ReportOptions ro;
  ro.allow_soft = o.allow_soft;
  ro.score_drift_fails = gate::GateScoreDriftFails(options);
  // The default gate says "reference" and keeps its suite name; a baseline gate names both builds.
  if (!plain) ro.sides.a = "baseline";
  const std::string title = "schedcheck gate: " + gate::GateTitle(options) + " on " + o.corpus;
  const std::string suite =
      plain ? "schedcheck gate" : "schedcheck gate: " + gate::GateTitle(options);
  if (!o.junit.empty()) {
    if (Outcome ok = trace::WriteFileAtomically(o.junit, diff::JUnitReport(diffs, suite, ro));
        !ok) {
      return fail(ok.message());
    }
  }
  if (!o.markdown.empty()) {
    if (Outcome ok = trace::WriteFileAtomically(o.markdown, diff::MarkdownReport(diffs, title, ro));
        !ok) {
      return fail(ok.message());
    }
  }
  size_t failed = 0, incomplete = 0, nondeterministic = 0;
  for (const gate::GateTrace& d : *traces) {
    const bool f = diff::Failed(d, ro);
    failed += f ? 1 : 0;
    if (!d.nondeterministic.empty()) {
      ++nondeterministic;
      out << "NONDETERMINISTIC " << d.name << ": " << d.nondeterministic << "\n";
    } else if (!d.error.empty()) {
      ++incomplete;
      out << "ERROR " << d.name << ": " << d.error << "\n";
    } else if (d.result.divergences.empty() && d.scores.drifts.empty()) {
      out << "PASS " << d.name << "\n";
    } else if (d.result.divergences.empty() && !f) {
      out << "PASS (score drift reported: --scores=report) " << d.name << "\n"
          << diff::TextReport(d, ro) << "\n";
    } else {
      out << (f ? "FAIL " : "PASS (soft divergences allowed) ") << d.name << "\n"
          << diff::TextReport(d, ro) << "\n";
    }
  }
  out << diffs.size() - failed << " of " << diffs.size() << " traces passed (candidate "
      << o.candidate << (o.baseline == "reference" ? "" : ", baseline " + o.baseline) << ")\n";
  // A trace the candidate could not replay is neither a pass nor a divergence: the run is
  // incomplete, as `replay --scheduler-cmd` exits 2 when its child fails.
  if (incomplete > 0) {
    err << "schedcheck gate: candidate " << o.candidate
        << (o.baseline == "reference" ? "" : " or baseline " + o.baseline) << " could not complete "
        << incomplete << " of " << diffs.size() << " trace(s); see the ERROR lines\n";
    return 2;
  }
  // A build that answers the same trace two ways makes its divergences meaningless: its own exit
  // code, so CI can tell "fix determinism first" from "a regression".
  if (nondeterministic > 0) {
    err << "schedcheck gate: " << nondeterministic << " of " << diffs.size()
        << " trace(s) were not replayed deterministically; see the NONDETERMINISTIC lines\n";
    return 3;
  }
  return failed > 0 ? 1 : 0;
}

void AddGateCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "gate", "Replay a corpus with the reference and a candidate build; fail on divergence");
  auto o = std::make_shared<GateCommandOptions>();
  cmd->add_option("--candidate", o->candidate,
                  "candidate build (" + candidates::CandidateHelp() +
                      "); default reference. exec:/kube: run as one "
                      "child process per trace (harness/protocol/PROTOCOL.md)");
  cmd->add_option(
      "--baseline", o->baseline,
      "the build the candidate is compared with, same specs; default reference. For a "
      "plugin: its previous version, or the same build with another configuration. When "
      "neither side is the reference, explanations end with the reference check: "
      "which side the reference agrees with");
  cmd->add_option("--baseline-config", o->baseline_config,
                  "the baseline's KubeSchedulerConfiguration for every trace (default: each "
                  "trace's <name>.config.yaml, else the default profile)");
  cmd->add_option("--candidate-config", o->candidate_config,
                  "the candidate's, likewise; an exec:/kube: side is sent the file unparsed, so it "
                  "may name plugins the reference does not have");
  cmd->add_flag("--check-determinism", o->check_determinism,
                "replay each exec:/kube: side twice on every trace (by default only on traces "
                "that diverge); a build whose two logs differ is NONDETERMINISTIC, exit 3");
  cmd->add_option("--corpus", o->corpus,
                  "folder of traces with optional <name>.config.yaml (default traces/corpus)");
  cmd->add_option("--junit", o->junit, "write a JUnit XML report");
  cmd->add_option("--markdown", o->markdown, "write a Markdown report");
  cmd->add_flag(
      "--allow-soft", o->allow_soft,
      "soft divergences (a feasible node outside the reference's top-score ties) do not fail: for "
      "builds that knowingly sample or randomise");
  cmd->add_option("--scores", o->scores,
                  "score drift (diff --scores): report or fail record the top 3 nodes' scores on "
                  "both sides and compare them on attempts placed alike; auto (default): fail "
                  "when neither side is the reference (--baseline and --candidate both builds), "
                  "else off; off records nothing")
      ->type_name("MODE");
  cmd->add_flag("--soft-fails", o->soft_fails,
                "(deprecated: the default now) soft divergences fail");
  cmd->add_option("--time-tolerance", o->time_tolerance_seconds,
                  "attempt and queue times within this many seconds are equal");
  cmd->add_option(
      "--scheduler-timeout", o->scheduler_timeout_seconds,
      "real-time seconds to wait for each answer of an exec:/kube: candidate's child (default 30)");
  AddLimitOption(cmd, &o->limits);
  AddEngineOption(cmd, &o->engine);
  cmd->add_option("--compat", o->compat,
                  "compatibility level both sides replay at: 1.27 (default) or 1.37, e.g. with "
                  "--candidate kube:1.37 or a build of your own on v1.37");
  AddFeatureGatesOption(cmd, &o->feature_gates);
  AddVolumeLatencyOption(cmd, &o->volume_latency_seconds);
  cmd->add_flag("--volume-controllers", o->volume_controllers,
                "both sides replay with the volume controllers model (docs/FORMATS.md, \"Volume "
                "controllers\"): VolumeBinding's PreBind writes succeed and are answered at once");
  cmd->callback([=] { *exit_code = RunGateCommand(*o, std::cout, std::cerr); });
}

}  // namespace schedcheck::cli
