#include "harness/cli/report_command.h"

#include <cmath>
#include <memory>

#include "harness/candidates/candidate.h"
#include "harness/cli/explain_first_divergence.h"
#include "harness/cli/feature_gates_option.h"
#include "harness/cli/limit_option.h"
#include "harness/diff/load.h"
#include "harness/diff/report.h"
#include "harness/diff/score_drift.h"
#include "harness/report/html_report.h"
#include "traces/atomic_file.h"
#include "traces/input_limits.h"
#include "traces/output_path.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {
namespace {

// A log's name in the report: "LOG", "LOG (SPEC)", "LOG (SPEC with CONFIG)".
std::string SideName(const std::string& log, const std::string& spec, const std::string& config) {
  if (spec.empty() && config.empty()) return log;
  const std::string build = spec.empty() ? "reference" : spec;
  return log + " (" + build + (config.empty() ? "" : " with " + config) + ")";
}

}  // namespace

int RunReportCommand(const ReportCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck report: " << message << "\n";
    return 2;
  };
  if (Outcome ok = trace::CheckOutputsDistinct({{"A", o.reference},
                                                {"B", o.candidate_log},
                                                {"--trace", o.trace},
                                                {"--config", o.config},
                                                {"--baseline-config", o.baseline_config},
                                                {"--candidate-config", o.candidate_config}},
                                               {{"-o", o.output}});
      !ok)
    return fail(ok.message());
  const double tol = o.time_tolerance_seconds.value_or(0);
  if (!std::isfinite(tol) || tol < 0 || tol > 1e9)
    return fail("--time-tolerance: must be between 0 and 1e9 seconds");
  if (o.trace.empty() && (!o.config.empty() || !o.candidate.empty()))
    return fail("--config and --candidate need --trace");
  if (o.trace.empty() &&
      (!o.baseline.empty() || !o.baseline_config.empty() || !o.candidate_config.empty()))
    return fail("--baseline, --baseline-config and --candidate-config need --trace");
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &limits); !ok) return fail(ok.message());
  if (!o.compat.empty() && o.compat != "1.27" && o.compat != "1.37")
    return fail("--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)");
  auto scores_mode = diff::ParseScoresMode(o.scores);
  if (!scores_mode.ok()) return fail(scores_mode.message());
  std::string a_level, b_level;
  trace::Header a_header, b_header;
  auto a = diff::LoadDecisions(o.reference, limits, &a_level, &a_header);
  if (!a.ok()) return fail(a.message());
  auto b = diff::LoadDecisions(o.candidate_log, limits, &b_level, &b_header);
  if (!b.ok()) return fail(b.message());
  report::ReportInput in;
  in.title = o.reference + " vs " + o.candidate_log;
  in.reference = {SideName(o.reference, o.baseline, o.baseline_config), std::move(*a)};
  in.candidate = {SideName(o.candidate_log, o.candidate, o.candidate_config), std::move(*b)};
  in.allow_soft = o.allow_soft;
  const int64_t tolerance_ns =
      o.time_tolerance_seconds
          ? static_cast<int64_t>(std::llround(tol * 1e9))
          : diff::DefaultTimeToleranceNs(in.reference.decisions, in.candidate.decisions);
  in.result = diff::Diff(in.reference.decisions, in.candidate.decisions,
                         {.time_tolerance_ns = tolerance_ns});
  if (!o.trace.empty() && !in.result.divergences.empty()) {
    const std::string level =
        ExplanationLevel(o.compat, a_level, b_level, "schedcheck report", err);
    auto text = ExplainFirstDivergence(
        {o.trace, o.config, o.candidate, o.reference, o.candidate_log, trace::YamlLimitsOf(limits),
         o.feature_gates, level, o.baseline, o.baseline_config, o.candidate_config},
        in.reference.decisions, in.result.divergences.front(), &in.candidate.decisions);
    if (!text.ok()) return fail(text.message());
    in.explanation = *text;
  }
  size_t drifts = 0;
  if (*scores_mode != diff::ScoresMode::kOff) {
    diff::NamedDiff scored;
    scored.scores = diff::CompareScores(in.reference.decisions, in.candidate.decisions);
    drifts = scored.scores.drifts.size();
    diff::ReportOptions ro;
    ro.score_drift_fails = diff::ScoreDriftFails(*scores_mode, a_header, b_header);
    if (!o.baseline.empty() && o.baseline != "reference") ro.sides.a = "baseline";
    in.score_drift = diff::ScoreDriftText(scored, ro);
  }
  auto html = report::RenderHtmlReport(in);
  if (!html.ok()) return fail(html.message());
  if (Outcome ok = trace::WriteFileAtomically(o.output, *html); !ok) return fail(ok.message());
  const diff::DiffResult& d = in.result;
  out << "wrote " << o.output << ": " << d.pods_compared << " pods compared, "
      << d.divergences.size() << " divergence(s) (" << d.Count(diff::DivergenceClass::kHard)
      << " hard, " << d.Count(diff::DivergenceClass::kRequeue) << " requeue, "
      << d.Count(diff::DivergenceClass::kSoft) << " soft)"
      << (in.score_drift.empty() ? "" : ", score drift on " + std::to_string(drifts) + " pod(s)")
      << "\n";
  return 0;
}

void AddReportCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "report", "Write the diff of two decision logs as one self-contained, offline HTML page");
  auto o = std::make_shared<ReportCommandOptions>();
  cmd->add_option("REFERENCE", o->reference,
                  "reference decisions: JSON Lines log, replay -o trace, or capture")
      ->required();
  cmd->add_option("CANDIDATE", o->candidate_log, "candidate decisions, same forms")->required();
  cmd->add_option("-o,--output", o->output, "the HTML file to write")->required();
  cmd->add_option("--trace", o->trace,
                  "the cluster trace REFERENCE was replayed from: explain the first divergent "
                  "attempt per node and plugin");
  cmd->add_option("--config", o->config,
                  "both sides' KubeSchedulerConfiguration for --trace, unless --baseline-config / "
                  "--candidate-config name a side's own");
  cmd->add_option("--baseline", o->baseline,
                  "REFERENCE's build spec when it is not the reference, to explain its side with "
                  "it (same specs as --candidate; default reference); when neither side is the "
                  "reference, the explanation says which one it agrees with");
  cmd->add_option("--baseline-config", o->baseline_config,
                  "REFERENCE's own configuration for --trace (default: --config)");
  cmd->add_option("--candidate-config", o->candidate_config,
                  "CANDIDATE's own configuration for --trace (default: --config)");
  cmd->add_option("--candidate", o->candidate,
                  "CANDIDATE's spec, to explain its side too (" + candidates::CandidateHelp() +
                      "); for exec:/kube: only the reference's side is explained");
  auto tolerance = std::make_shared<double>(0);
  CLI::Option* tolerance_opt = cmd->add_option("--time-tolerance", *tolerance,
                                               "attempt and queue times within this many seconds "
                                               "are equal (default 0; 2 against a capture)");
  cmd->add_option("--scores", o->scores,
                  "score drift between the logs' recorded scores (replay --scores K), shown in "
                  "its own section: off, report, fail or auto (default); as diff --scores, but "
                  "the page is written either way")
      ->type_name("MODE");
  cmd->add_flag("--allow-soft", o->allow_soft,
                "soft divergences (moved placements) do not count as diverging");
  cmd->add_option("--compat", o->compat,
                  "the level --trace explanations run at, 1.27 or 1.37 (default: the logs' header "
                  "level, else the trace's; a warning when told another)");
  AddLimitOption(cmd, &o->limits);
  AddFeatureGatesOption(cmd, &o->feature_gates);
  cmd->callback([=] {
    if (tolerance_opt->count() > 0) o->time_tolerance_seconds = *tolerance;
    *exit_code = RunReportCommand(*o, std::cout, std::cerr);
  });
}

}  // namespace schedcheck::cli
