#include "harness/cli/explain_first_divergence.h"

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "harness/gate/pair_replay.h"
#include "harness/gate/reference_check.h"
#include "reference/runtime/profile.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {

std::string ExplanationLevel(const std::string& flag, const std::string& a_level,
                             const std::string& b_level, const std::string& command,
                             std::ostream& err) {
  if (!a_level.empty() && !b_level.empty() && a_level != b_level && flag.empty()) {
    err << command << ": warning: the logs were replayed at different levels (A " << a_level
        << ", B " << b_level << "); explanations run at A's, " << a_level << "\n";
  }
  const std::string logs = !a_level.empty() ? a_level : b_level;
  if (flag.empty() && logs.empty()) {
    // JSON Lines logs have no header: the trace's level may not be the one they were replayed at.
    err << command << ": note: neither log states the level it was replayed at (JSON Lines logs "
        << "have no header); explanations run at the cluster trace's (give --compat if the logs "
        << "were replayed at another)\n";
  }
  if (flag.empty()) return logs;
  if (!logs.empty() && flag != logs) {
    err << command << ": warning: --compat " << flag << " differs from the logs' level " << logs
        << "; explanations run at " << flag << "\n";
  }
  return flag;
}

Result<std::string> ExplainFirstDivergence(const ExplainRequest& r,
                                           const std::vector<trace::Record>& reference,
                                           const diff::Divergence& first,
                                           const std::vector<trace::Record>* candidate) {
  auto trace = trace::LoadTrace(r.trace);
  if (!trace.ok()) return trace.error();
  // The level of the replays being explained: the logs' (ExplanationLevel), else the trace's.
  const std::string compat = !r.compat.empty()                ? r.compat
                             : trace->header.compat().empty() ? "1.27"
                                                              : trace->header.compat();
  if (compat != "1.27" && compat != "1.37")
    return Error{"compat " + compat + " is not implemented (implemented: 1.27, 1.37)"};
  if (std::string why = reference::CheckFeatureGates(r.feature_gates, compat); !why.empty())
    return Error{"--feature-gates: " + why};
  const bool plain = r.baseline.empty() && r.baseline_config.empty() && r.candidate_config.empty();
  std::vector<diff::ExplainSide> sides;
  std::string note;  // for an out-of-process side, which cannot be evaluated here
  // Each side: its spec applied to its configuration, labelled (when not plain) with both.
  auto add = [&](const std::string& name, const std::string& spec, const std::string& config,
                 const std::string& log) -> Outcome {
    auto out_of_process = candidates::IsOutOfProcess(spec);
    if (!out_of_process.ok()) return out_of_process.error();
    const gate::PairSide named{name, {spec, {}, nullptr}, "", config};
    const std::string label =
        (plain ? name + (spec == "reference" ? "" : " " + spec) : gate::SideLabel(named)) + " (" +
        log + ")";
    // An out-of-process build is not looked up (a kube: adapter need not be built to explain).
    if (*out_of_process) {
      note += candidates::OutOfProcessExplainNote(label, spec);
      return Outcome::Ok();
    }
    auto side = gate::LoadSide(name, spec, config, compat, r.yaml);
    if (!side.ok()) return side.error();
    sides.push_back({label, side->build.config});
    return Outcome::Ok();
  };
  const std::string baseline = r.baseline.empty() ? "reference" : r.baseline;
  const std::string baseline_config = r.baseline_config.empty() ? r.config : r.baseline_config;
  if (Outcome ok =
          add(plain ? "reference" : "baseline", baseline, baseline_config, r.reference_log);
      !ok)
    return ok.error();
  if (!r.candidate.empty()) {
    if (Outcome ok =
            add("candidate", r.candidate,
                r.candidate_config.empty() ? r.config : r.candidate_config, r.candidate_log);
        !ok)
      return ok.error();
  }
  if (sides.empty()) {
    sides.push_back(
        {"the reference with its default profile (neither side runs in process; "
         "for comparison only)",
         reference::DefaultConfiguration(compat)});
  }
  diff::ExplainOptions options;
  options.feature_gates = r.feature_gates;
  options.compat = compat;
  if (!plain) options.snapshot_side = "baseline";
  auto text = diff::ExplainAt(*trace, reference, first, sides, options);
  std::string check;
  if (!r.candidate.empty() && candidate != nullptr) {
    check = gate::ReferenceCheck(*trace, reference, *candidate, first,
                                 {baseline, r.candidate, baseline_config, r.yaml}, options);
  }
  return (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + note + check;
}

}  // namespace schedcheck::cli
