// In-process candidate builds: named variants of the reference that the gate replays beside it
// (issue 6 item 2(a)). A candidate is a KubeSchedulerConfiguration plus a plugin registry, so any
// scheduler assembled from the framework — another configuration, a changed weight, a user's
// modified plugin registered under an upstream name — runs in the same replay engine.
//
// Specs:
//   reference                the reference itself
//   weight:PLUGIN=N          the trace's configuration with PLUGIN's score weight set to N
//   config:FILE              any KubeSchedulerConfiguration file (replaces the trace's)
//   forget-events:PLUGIN     PLUGIN registers no cluster events (see forget_events.h)
// Several specs joined with '+' apply in order ("config:x.yaml+forget-events:NodeAffinity").
#ifndef SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_
#define SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_

#include <memory>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/runtime/profile.h"
#include "traces/trace_format.h"

namespace schedcheck::candidates {

struct Candidate {
  std::string spec;
  reference::SchedulerConfiguration config;
  std::shared_ptr<const reference::Registry> registry;  // null: reference::PluginRegistry()
};

// Applies `spec` to `base` (the configuration the reference replays the trace with). Errors name
// the spec and what is wrong ("weight:Foo=2: Foo is not an enabled Score plugin").
Result<Candidate> MakeCandidate(const std::string& spec, const reference::SchedulerConfiguration& base);

// One line per spec kind, for --help.
std::string CandidateHelp();

// Replays `trace` (t = 0 at its first event, epoch from the header's start_time label, seed 1,
// default horizon) with the candidate; returns the decision records.
Result<std::vector<trace::Record>> ReplayCandidate(const Candidate& candidate, const trace::Trace& trace);

}  // namespace schedcheck::candidates

#endif  // SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_
