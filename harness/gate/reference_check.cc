#include "harness/gate/reference_check.h"

#include "harness/diff/agreement.h"
#include "reference/runtime/profile.h"

namespace schedcheck::gate {

bool NeitherIsReference(const std::string& baseline_spec, const std::string& candidate_spec) {
  return baseline_spec != "reference" && candidate_spec != "reference";
}

std::string ReferenceCheck(const trace::Trace& trace,
                           const std::vector<trace::Record>& baseline_log,
                           const std::vector<trace::Record>& candidate_log,
                           const diff::Divergence& d, const ReferenceCheckInput& in,
                           const diff::ExplainOptions& options) {
  if (!NeitherIsReference(in.baseline_spec, in.candidate_spec)) return "";
  const std::string prefix = "reference check: ";
  const std::string compat = !options.compat.empty()          ? options.compat
                             : !trace.header.compat().empty() ? trace.header.compat()
                                                              : "1.27";
  reference::SchedulerConfiguration config = reference::DefaultConfiguration(compat);
  std::string who = "the reference (default profile)";
  if (!in.baseline_config.empty()) {
    // The baseline may be a build whose configuration names plugins the reference lacks.
    auto loaded = reference::LoadSchedulerConfiguration(in.baseline_config, compat, in.yaml);
    Outcome runs =
        loaded.ok() ? diff::CheckConfiguration(*loaded, compat, options) : Outcome(loaded.error());
    if (!runs) {
      return prefix + "the reference cannot load the baseline's configuration " +
             in.baseline_config + ", so which side it agrees with is not known: " + runs.message() +
             "\n";
    }
    config = std::move(*loaded);
    who = "the reference with the baseline's configuration " + in.baseline_config;
  }
  auto placed = diff::PlaceAt(trace, baseline_log, d, config, options);
  if (!placed.ok()) return prefix + "not available: " + placed.message() + "\n";
  const diff::SideNames names{"baseline", "candidate"};
  std::string line = diff::AgreementText(
      who, d.pod, *placed, diff::AttemptAtIndex(baseline_log, d.reference_record),
      diff::AttemptAtIndex(candidate_log, d.candidate_record), names);
  if (d.cls == diff::DivergenceClass::kRequeue) {
    // A queue or timing difference: the snapshot replay says nothing about when to retry.
    line.pop_back();
    line += " (the attempt's outcome only; when each side retried the pod is not checked)\n";
  }
  return prefix + line;
}

}  // namespace schedcheck::gate
