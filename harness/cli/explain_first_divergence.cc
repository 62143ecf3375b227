#include "harness/cli/explain_first_divergence.h"

#include "harness/candidates/candidate.h"
#include "harness/diff/explain_at.h"
#include "reference/runtime/profile.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {

Result<std::string> ExplainFirstDivergence(const ExplainRequest& r,
                                           const std::vector<trace::Record>& reference,
                                           const diff::Divergence& first) {
  auto trace = trace::LoadTrace(r.trace);
  if (!trace.ok()) return trace.error();
  // The level of the replays being explained: the trace header's.
  const std::string compat = trace->header.compat().empty() ? "1.27" : trace->header.compat();
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
  auto text = diff::ExplainAt(*trace, reference, first, sides, options);
  return (text.ok() ? *text : "(no explanation: " + text.message() + ")\n") + note;
}

}  // namespace schedcheck::cli
