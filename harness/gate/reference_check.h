// The "reference check" of an explanation when neither side of a pair is the reference (say
// kube:1.27 against kube:1.27 with another configuration): the reference replays the pod's
// attempt on the baseline's snapshot, with the baseline's configuration file when it has one
// (else its default profile), and the text says which side it agrees with there.
#ifndef SCHEDCHECK_HARNESS_GATE_REFERENCE_CHECK_H_
#define SCHEDCHECK_HARNESS_GATE_REFERENCE_CHECK_H_

#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "harness/diff/explain_at.h"
#include "reference/k8s/yaml_limits.h"
#include "traces/trace_format.h"

namespace schedcheck::gate {

struct ReferenceCheckInput {
  std::string baseline_spec;    // the build that wrote `baseline_log`
  std::string candidate_spec;   // the build that wrote `candidate_log`
  std::string baseline_config;  // the baseline's configuration file ("": its default profile)
  k8s::YamlLimits yaml;         // for reading `baseline_config`
};

// True when neither spec is the reference itself (variants such as weight:... are not).
bool NeitherIsReference(const std::string& baseline_spec, const std::string& candidate_spec);

// "" when either side is the reference; else one line starting "reference check: ": the
// reference's outcome and whom it agrees with (diff::AgreementText), or why it could not be
// computed (the reference cannot load the baseline's configuration, the pod is missing, ...). For
// a requeue divergence the line says that only the attempt's outcome was compared.
// `options` are the explanation's (level, gates).
std::string ReferenceCheck(const trace::Trace& trace,
                           const std::vector<trace::Record>& baseline_log,
                           const std::vector<trace::Record>& candidate_log,
                           const diff::Divergence& d, const ReferenceCheckInput& in,
                           const diff::ExplainOptions& options);

}  // namespace schedcheck::gate

#endif  // SCHEDCHECK_HARNESS_GATE_REFERENCE_CHECK_H_
