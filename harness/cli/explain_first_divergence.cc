#include "harness/cli/explain_first_divergence.h"

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
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
                                           const diff::Divergence& first) {
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
  reference::SchedulerConfiguration base = reference::DefaultConfiguration(compat);
  if (!r.config.empty()) {
    auto config = reference::LoadSchedulerConfiguration(r.config, compat, r.yaml);
    if (!config.ok()) return config.error();
    base = std::move(*config);
  }
  std::vector<diff::ExplainSide> sides = {{"reference (" + r.reference_log + ")", base}};
  std::string note;  // for an out-of-process candidate, which cannot be evaluated here
  if (!r.candidate.empty()) {
    const std::string label = "candidate " + r.candidate + " (" + r.candidate_log + ")";
    auto out_of_process = candidates::IsOutOfProcess(r.candidate);
    if (!out_of_process.ok()) return out_of_process.error();
    if (*out_of_process) {
      note = candidates::OutOfProcessExplainNote(label, r.candidate);
    } else {
      auto c = candidates::MakeCandidate(r.candidate, base, r.yaml);
      if (!c.ok()) return c.error();
      sides.push_back({label, c->config});
    }
  }
  diff::ExplainOptions options;
  options.feature_gates = r.feature_gates;
  options.compat = compat;
  auto text = diff::ExplainAt(*trace, reference, first, sides, options);
  return (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + note;
}

}  // namespace schedcheck::cli
