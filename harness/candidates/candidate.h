// Candidate builds: the schedulers that `gate`, `replay --candidate` and `diff --candidate` name.
// In-process ones are variants of the reference, so a change can be gated without a build: a
// KubeSchedulerConfiguration plus a plugin registry, so any scheduler assembled from the framework
// — another configuration, a changed weight, a user's modified plugin registered under an upstream
// name — runs in the same replay engine.
//
// Specs:
//   reference                the reference itself
//   weight:PLUGIN=N          the trace's configuration with PLUGIN's score weight set to N
//   config:FILE              any KubeSchedulerConfiguration file (replaces the trace's)
//   forget-events:PLUGIN     PLUGIN registers no cluster events (see forget_events.h)
// Several specs joined with '+' apply in order ("config:x.yaml+forget-events:NodeAffinity").
//
// Out-of-process specs name a build that runs as a child process speaking the external-scheduler
// protocol (harness/protocol/PROTOCOL.md); it is replayed by protocol::RunExternalReplay, so its
// decision log has the in-process shape. Such a spec stands alone (no '+'):
//   exec:CMD ARGS            any protocol speaker, run as `/bin/sh -c "CMD ARGS"` like `replay
//                            --scheduler-cmd`; exec:"CMD ARGS" (one pair of quotes) is the same.
//                            Unquoted, a '+' followed by a spec kind ("+weight:", "+reference")
//                            is refused as a join; any other '+' is part of the command
//   kube:1.27, kube:1.37     the bundled kube-scheduler adapters (//harness/kube, lookup in
//                            kube_adapter.h)
//   kube:X.Y.Z               a patch release of a minor with a bridge (kube:1.37.1), built on
//                            first use into a per-version cache (kube_adapter.h, BuildKubeAdapter)
// The child is sent the trace's configuration text in Hello (CandidateReplayOptions).
#ifndef SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_
#define SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_

#include <memory>
#include <string>
#include <vector>

#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "reference/framework/registry.h"
#include "reference/k8s/yaml_limits.h"
#include "reference/runtime/profile.h"
#include "traces/trace_format.h"

namespace schedcheck::candidates {

struct Candidate {
  std::string spec;
  reference::SchedulerConfiguration config;
  std::shared_ptr<const reference::Registry> registry;  // null: reference::PluginRegistry()
  // Out-of-process builds: the command line of the child (for kube:, the adapter's quoted path).
  // Empty for in-process ones. `config` is then `base` unchanged, `registry` null.
  std::string command = {};

  bool out_of_process() const { return !command.empty(); }
};

// Applies `spec` to `base` (the configuration the reference replays the trace with). Errors name
// the spec and what is wrong ("weight:Foo=2: Foo is not an enabled Score plugin"); for a kube:
// adapter that is not built, where it was looked for and the bazel command that builds it.
// `yaml` bounds a config:FILE in YAML (the command's `--limit yaml-depth=N` /
// `yaml-alias-nodes=N`).
Result<Candidate> MakeCandidate(const std::string& spec,
                                const reference::SchedulerConfiguration& base,
                                const k8s::YamlLimits& yaml = {});

// Whether `spec` names an out-of-process build, checking its form (a known kube version, no
// join) but not looking up the adapter: for callers that only need to know, like `diff`.
Result<bool> IsOutOfProcess(const std::string& spec);

// Whether `spec` can replay at compatibility level `compat`. The reference models 1.27 and 1.37;
// a kube: build of another minor (kube:1.36, kube:1.36.2) replays traces of level 1.27 at its own
// level and is refused any other level, naming the spec, the level and what to do instead.
Outcome CheckCompatFor(const std::string& spec, const std::string& compat);

// A warning for a comparison of the reference with a kube: build of a minor the reference does not
// model (its divergences may be version differences); empty otherwise.
std::string ReferenceLevelNote(const std::string& baseline, const std::string& candidate);

// The spec kinds, for --help.
std::string CandidateHelp();

// Says, in an explanation of a divergence, that `spec`'s side cannot be evaluated per plugin.
std::string OutOfProcessExplainNote(const std::string& label, const std::string& spec);

struct CandidateReplayOptions {
  // The text and file name of the configuration `base` came from (empty: the default one). An
  // out-of-process candidate gets them in Hello.config_yaml / config_source, as `replay --config
  // FILE --scheduler-cmd` sends them.
  std::string config_yaml;
  std::string config_source;
  int64_t timeout_ms = protocol::kDefaultTimeoutMs;  // real-time limit per answer of the child
  // The reference engine of an in-process replay (same decisions either way).
  reference::Engine engine = reference::Engine::kFast;
  // The compatibility level of the replay ("1.27", "1.37"); sent to an out-of-process child in
  // Hello.compat.
  std::string compat = "1.27";
  // Feature gates of the replay (Hello.feature_gates for an out-of-process child).
  reference::FeatureGates feature_gates;
  // The volume controllers model (ReplayOptions::volume_controllers; Hello.volume_controllers).
  bool volume_controllers = false;
  // Its latency (ReplayOptions::volume_latency_ns; Hello.volume_latency_ns).
  int64_t volume_latency_ns = 0;
};

// The replay options `trace` is replayed with (engine, compat, feature gates, volume model and
// header labels, epoch from the header's start_time label); `config` and `registry` are left
// default for the caller (the build's). Errors: a bad header label.
Result<replay::ReplayOptions> ReplayOptionsFor(const trace::Trace& trace,
                                               const CandidateReplayOptions& options);

// Replays `trace` (t = 0 at its first event, epoch from the header's start_time label, seed 1,
// default horizon) with the candidate; returns the decision records. For an out-of-process
// candidate, an error is the child's failure naming the request (decisions received before it
// are dropped).
Result<std::vector<trace::Record>> ReplayCandidate(const Candidate& candidate,
                                                   const trace::Trace& trace,
                                                   const CandidateReplayOptions& options = {});

}  // namespace schedcheck::candidates

#endif  // SCHEDCHECK_HARNESS_CANDIDATES_CANDIDATE_H_
