// The explanation of a divergence: the cluster as the reference saw it just before the attempt
// concerned (trace events up to that instant, then the reference log's bindings, victims and
// nominations recorded before the attempt), and for each side's configuration every filter
// plugin's status per node, the per-plugin scores and the outcome for the pod on that snapshot.
// Approximation, documented: events flagged duringAttempt at that very instant are included.
#ifndef SCHEDCHECK_HARNESS_DIFF_EXPLAIN_AT_H_
#define SCHEDCHECK_HARNESS_DIFF_EXPLAIN_AT_H_

#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"
#include "reference/runtime/profile.h"
#include "traces/trace_format.h"

namespace schedcheck::diff {

struct ExplainSide {
  std::string label;  // "reference", "candidate weight:NodeResourcesFit=5"
  reference::SchedulerConfiguration config;
};

struct ExplainOptions {
  size_t max_nodes = 20;  // node rows printed per side (every node is evaluated)
  // The compatibility level whose rules evaluate the cluster; empty: the trace header's, else
  // 1.27.
  std::string compat;
  // The run's --feature-gates (compat 1.37): pods' requests and the gated plugin rules.
  reference::FeatureGates feature_gates;
  // Whose snapshot it is, in the heading ("the cluster ... as the reference saw it"): A's name.
  std::string snapshot_side = "reference";
};

// Text, several lines per side. Errors name the trace record or the pod.
Result<std::string> ExplainAt(const trace::Trace& cluster,
                              const std::vector<trace::Record>& reference_log, const Divergence& d,
                              const std::vector<ExplainSide>& sides,
                              const ExplainOptions& options = {});

// What one configuration of the reference does with the pod on the snapshot ExplainAt uses.
struct Placement {
  bool bound = false;
  std::string node;                  // when bound
  std::vector<std::string> ties;     // when bound: the top-score nodes, in name order
  std::vector<std::string> plugins;  // when not: the rejecting plugins, in name order
};

// Whether the reference can run `config` at `compat` with the options' gates: every profile's
// plugins exist and accept their arguments. The error is the first profile's that cannot.
Outcome CheckConfiguration(const reference::SchedulerConfiguration& config,
                           const std::string& compat, const ExplainOptions& options = {});

// The reference with `config` (its profile for the pod's schedulerName) on that snapshot: the
// plain rules, seed 1, the options' level and gates. Errors as ExplainAt's, or the profile's.
Result<Placement> PlaceAt(const trace::Trace& cluster,
                          const std::vector<trace::Record>& reference_log, const Divergence& d,
                          const reference::SchedulerConfiguration& config,
                          const ExplainOptions& options = {});

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_EXPLAIN_AT_H_
