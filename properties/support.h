// Shared machinery of the property tests: loading a generated case into the reference, replaying
// a generated scenario and walking its timeline with the cluster state at every decision, and
// turning a failure into a bug report (the counterexample written as a replayable trace, with
// the exact `schedcheck replay` command, in the RapidCheck failure message). testonly.
#ifndef SCHEDCHECK_PROPERTIES_SUPPORT_H_
#define SCHEDCHECK_PROPERTIES_SUPPORT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/check/cluster.h"
#include "harness/generators/generators.h"
#include "properties/oracle.h"
#include "reference/engine/engine.h"
#include "reference/runtime/profile.h"
#include "reference/scheduler/schedule_one.h"
#include "traces/trace.pb.h"

namespace schedcheck::properties {

// The trace generators moved down to harness/generators so that `schedcheck campaign` samples
// them too; the properties keep naming them unqualified.
using namespace ::schedcheck::generators;  // NOLINT(build/namespaces)

// --- single scheduling decisions ---
struct LoadedCase {
  std::unique_ptr<check::Cluster> cluster;
  reference::PodPtr pod;
};
// A Scheduler with `profile` (null: the default profile of `compat`) and the engine's plugins,
// the case's nodes and bound pods delivered to its informers. RC_FAILs on a load error.
LoadedCase Load(const ClusterCase& c, reference::Engine engine = reference::Engine::kPlain,
                const std::string& compat = "1.27", const reference::Profile* profile = nullptr);
// One SchedulePod of the case's pod by the loaded Scheduler, with a fresh engine seeded `seed`.
reference::ScheduleResult ScheduleOnce(const LoadedCase& loaded, uint64_t seed,
                                       reference::Engine engine = reference::Engine::kPlain);
ClusterState StateOf(const ClusterCase& c);
// The case as a trace: nodes, then bound pods, then the pod, all ADDED at t = 0.
std::vector<trace::Record> CaseAsTrace(const ClusterCase& c);

// --- scenarios ---
// Replays with the default configuration of `compat`; RC_FAILs on a replay error. The decision log.
// `config`: the level's default configuration when null.
std::vector<trace::Record> ReplayScenario(
    const Scenario& s, uint64_t seed = 1, reference::Engine engine = reference::Engine::kFast,
    const std::string& compat = "1.27", const reference::SchedulerConfiguration* config = nullptr);

// What the API server holds at a point of the timeline: nodes by name, pods by "ns/name" (bound
// ones with spec.nodeName set by a completed binding or their first event naming a node, which
// later events do not change).
struct ApiState {
  std::map<std::string, k8s::Node> nodes;
  std::map<std::string, k8s::Pod> pods;
  ClusterState Cluster(const std::string& exclude_pod = "") const;
};
// Walks the scenario's events and the decision log in replay order (at one instant: the API
// events first, then the decisions), calling `visit(state, decision)` for every decision with the
// state just before it; afterwards applies the decision (bindings set nodeName, preemption
// victims are deleted).
void WalkTimeline(const Scenario& s, const std::vector<trace::Record>& log,
                  const std::function<void(const ApiState&, const trace::Record&)>& visit);

// --- failure reports ---
// Writes `records` to /tmp/schedcheck-properties/<property>.trace (and a copy into
// $TEST_UNDECLARED_OUTPUTS_DIR when set) and returns the report lines: the file and the exact
// command that replays it.
std::string SaveCounterexample(const std::string& property,
                               const std::vector<trace::Record>& records);

}  // namespace schedcheck::properties

// Fails the current RapidCheck property with `what`, the saved counterexample and the replay
// command. `records` is the trace to save (a scenario's records or CaseAsTrace).
#define PROP_REQUIRE(cond, property, records, what)                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      RC_FAIL(std::string(what) + "\n" +                                        \
              ::schedcheck::properties::SaveCounterexample(property, records)); \
    }                                                                           \
  } while (false)

#endif  // SCHEDCHECK_PROPERTIES_SUPPORT_H_
