#include "harness/cli/diff_command.h"

#include <cmath>
#include <memory>

#include "harness/candidates/candidate.h"
#include "harness/cli/explain_first_divergence.h"
#include "harness/cli/feature_gates_option.h"
#include "harness/cli/keep_until_exit.h"
#include "harness/cli/limit_option.h"
#include "harness/diff/load.h"
#include "harness/diff/report.h"
#include "harness/diff/score_drift.h"
#include "traces/atomic_file.h"
#include "traces/input_limits.h"
#include "traces/output_path.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {

int RunDiffCommand(const DiffCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&](const std::string& message) {
    err << "schedcheck diff: " << message << "\n";
    return 2;
  };
  if (Outcome ok = trace::CheckOutputsDistinct(
          {{"A", o.a}, {"B", o.b}, {"--cluster-trace", o.cluster_trace}, {"--config", o.config}},
          {{"--junit", o.junit}, {"--markdown", o.markdown}});
      !ok)
    return fail(ok.message());
  const double tol = o.time_tolerance_seconds.value_or(0);
  if (!std::isfinite(tol) || tol < 0 || tol > 1e9)
    return fail("--time-tolerance: must be between 0 and 1e9 seconds");
  if (o.cluster_trace.empty() && (!o.config.empty() || !o.candidate.empty())) {
    return fail("--config and --candidate need --cluster-trace");
  }
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &limits); !ok) return fail(ok.message());
  if (!o.compat.empty() && o.compat != "1.27" && o.compat != "1.37")
    return fail("--compat " + o.compat + " is not implemented (implemented: 1.27, 1.37)");
  auto scores_mode = diff::ParseScoresMode(o.scores);
  if (!scores_mode.ok()) return fail(scores_mode.message());
  std::string a_level, b_level;
  trace::Header a_header, b_header;
  auto loaded_a = diff::LoadDecisions(o.a, limits, &a_level, &a_header);
  if (!loaded_a.ok()) return fail(loaded_a.message());
  auto loaded_b = diff::LoadDecisions(o.b, limits, &b_level, &b_header);
  if (!loaded_b.ok()) return fail(loaded_b.message());
  std::vector<trace::Record>* a = &KeepUntilExit(std::move(*loaded_a));
  std::vector<trace::Record>* b = &KeepUntilExit(std::move(*loaded_b));
  diff::NamedDiff d{o.a + " vs " + o.b, {}, "", ""};
  const int64_t tolerance_ns = o.time_tolerance_seconds
                                   ? static_cast<int64_t>(std::llround(tol * 1e9))
                                   : diff::DefaultTimeToleranceNs(*a, *b);
  d.result = diff::Diff(*a, *b, {.time_tolerance_ns = tolerance_ns});
  if (*scores_mode != diff::ScoresMode::kOff) d.scores = diff::CompareScores(*a, *b);
  if (!d.result.divergences.empty() && !o.cluster_trace.empty()) {
    const std::string level = ExplanationLevel(o.compat, a_level, b_level, "schedcheck diff", err);
    auto text = ExplainFirstDivergence({o.cluster_trace, o.config, o.candidate, o.a, o.b,
                                        trace::YamlLimitsOf(limits), o.feature_gates, level},
                                       *a, d.result.divergences.front(), b);
    if (!text.ok()) return fail(text.message());
    d.explanation = *text;
  }
  if (o.soft_fails && o.allow_soft)
    return fail("--soft-fails and --allow-soft contradict each other");
  if (o.soft_fails)
    err << "schedcheck diff: note: soft divergences fail by default now; --soft-fails is ignored\n";
  const diff::ReportOptions ro{
      .allow_soft = o.allow_soft,
      .score_drift_fails = diff::ScoreDriftFails(*scores_mode, a_header, b_header)};
  if (!o.junit.empty()) {
    if (Outcome ok =
            trace::WriteFileAtomically(o.junit, diff::JUnitReport({d}, "schedcheck diff", ro));
        !ok) {
      return fail(ok.message());
    }
  }
  if (!o.markdown.empty()) {
    if (Outcome ok = trace::WriteFileAtomically(o.markdown,
                                                diff::MarkdownReport({d}, "schedcheck diff", ro));
        !ok) {
      return fail(ok.message());
    }
  }
  if (o.json) {
    out << diff::JsonReport({d}, ro)[0].dump(2) << "\n";
  } else {
    out << diff::TextReport(d, ro);
  }
  return diff::Failed(d, ro) ? 1 : 0;
}

void AddDiffCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "diff", "Compare two decision logs (A = reference, B = candidate), tie-aware");
  auto o = std::make_shared<DiffCommandOptions>();
  cmd->add_option("A", o->a,
                  "reference decisions: JSON Lines log (golden file), replay -o trace, or capture")
      ->required();
  cmd->add_option("B", o->b, "candidate decisions, same forms")->required();
  cmd->add_flag("--json", o->json, "print the result as JSON");
  cmd->add_option("--junit", o->junit, "write a JUnit XML report");
  cmd->add_option("--markdown", o->markdown, "write a Markdown report");
  auto tolerance = std::make_shared<double>(0);
  CLI::Option* tolerance_opt = cmd->add_option("--time-tolerance", *tolerance,
                                               "attempt and queue times within this many seconds "
                                               "are equal (default 0; 2 when A or B is a capture)");
  cmd->add_flag(
      "--allow-soft", o->allow_soft,
      "soft divergences (a feasible node outside the reference's top-score ties) do not fail: for "
      "builds that knowingly sample or randomise");
  cmd->add_flag("--soft-fails", o->soft_fails,
                "(deprecated: the default now) soft divergences fail");
  cmd->add_option(
      "--cluster-trace", o->cluster_trace,
      "the trace A was replayed from: explain the first divergence on the reference's snapshot");
  cmd->add_option("--config", o->config,
                  "the reference's KubeSchedulerConfiguration for --cluster-trace");
  cmd->add_option("--candidate", o->candidate,
                  "B's candidate spec, to explain its side too (" + candidates::CandidateHelp() +
                      "); for exec:/kube: only the reference's side is explained");
  cmd->add_option("--compat", o->compat,
                  "the level --cluster-trace explanations run at, 1.27 or 1.37 (default: the "
                  "logs' header level, else the trace's; a warning when told another)");
  AddLimitOption(cmd, &o->limits);
  AddFeatureGatesOption(cmd, &o->feature_gates);
  cmd->add_option("--scores", o->scores,
                  "score drift between the logs' recorded scores (replay --scores K): a node's "
                  "total or the top-K order differs on an attempt placed alike. off: not compared; "
                  "report: listed, does not fail; fail: fails; auto (default): fails when both "
                  "logs' headers name builds (--candidate / --scheduler-cmd) of the same level, "
                  "else report")
      ->type_name("MODE");
  cmd->callback([=] {
    if (tolerance_opt->count() > 0) o->time_tolerance_seconds = *tolerance;
    *exit_code = RunDiffCommand(*o, std::cout, std::cerr);
  });
}

}  // namespace schedcheck::cli
