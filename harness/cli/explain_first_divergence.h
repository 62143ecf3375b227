// The explanation of a diff's first divergence, shared by `schedcheck diff --cluster-trace` and
// `schedcheck report --trace`: on A's snapshot, the side of A's build (the reference unless a
// baseline spec is given) and the candidate's, each with its configuration, when in process (an
// exec:/kube: side gets a note instead).
#ifndef SCHEDCHECK_HARNESS_CLI_EXPLAIN_FIRST_DIVERGENCE_H_
#define SCHEDCHECK_HARNESS_CLI_EXPLAIN_FIRST_DIVERGENCE_H_

#include <ostream>
#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"
#include "reference/k8s/yaml_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::cli {

struct ExplainRequest {
  std::string trace;      // the trace both logs were replayed from
  std::string config;     // the reference's KubeSchedulerConfiguration ("": the default profile)
  std::string candidate;  // the candidate's spec ("": the reference's side only)
  std::string reference_log;  // the logs' names, for the sides' titles
  std::string candidate_log;
  k8s::YamlLimits yaml;                   // for reading `config` (the command's `--limit yaml-...`)
  reference::FeatureGates feature_gates;  // the replays' `--feature-gates` (compat 1.37)
  // The level the explanation runs at ("": the trace header's, else 1.27): ExplanationLevel's.
  std::string compat;
  // A's build when it is not the reference ("": the reference), and each side's own
  // configuration file ("": `config`). When any is set, the sides are labelled with their build
  // and configuration; an exec:/kube: side gets a note instead of plugin statuses.
  std::string baseline;
  std::string baseline_config;
  std::string candidate_config;
};

// The level the two logs were replayed at, for explaining them: `flag` (the command's --compat)
// when given, else the level both logs' headers state (A's when they differ), else "" (the
// trace's). Warns on `err`, prefixed by `command`, when the logs disagree or the flag differs
// from what they state, and notes when neither the flag nor the logs give a level.
std::string ExplanationLevel(const std::string& flag, const std::string& a_level,
                             const std::string& b_level, const std::string& command,
                             std::ostream& err);

// Errors reading the trace, the configuration or the spec are bad input; a pod missing from the
// trace is said in the text. With B's log (`candidate`) and a candidate spec, when neither side is
// the reference, a last line says which side the reference agrees with (gate::ReferenceCheck).
Result<std::string> ExplainFirstDivergence(const ExplainRequest& request,
                                           const std::vector<trace::Record>& reference,
                                           const diff::Divergence& first,
                                           const std::vector<trace::Record>* candidate = nullptr);

}  // namespace schedcheck::cli

#endif  // SCHEDCHECK_HARNESS_CLI_EXPLAIN_FIRST_DIVERGENCE_H_
