// `schedcheck minimize` (harness/minimize) on large random traces with a planted divergence: a
// workload of 200-350 events from a random shape, size, workload seed and tie-break seed, and a
// candidate with a bug planted where the shape exercises it — NodeResourcesFit scoring
// MostAllocated (soft: moved placements) on the scheduler_perf shapes; NodeAffinity,
// TaintToleration or NodeResourcesFit registering no cluster events (requeue: pods wait for the
// periodic flush) on the requeue shapes. Where the input diverges, the minimal trace must have
// at most 10 events and diverge the same way (class and first pod) when replayed afresh. A failure
// saves the input trace and prints the `schedcheck minimize` command that reproduces it.
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/candidates/candidate.h"
#include "harness/gate/pair_replay.h"
#include "harness/minimize/minimize.h"
#include "harness/workloads/workloads.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/runtime/profile.h"

namespace schedcheck::properties {
namespace {

const char kDir[] = "/tmp/schedcheck-properties";

// Each case minimizes a 200-350 event trace (one to ten seconds on 2 cores), so this target
// runs fewer cases than the suite's default 100: set here, before main() reads RC_PARAMS, and only
// when RC_PARAMS is unset (a reproduce string or --config=deep still wins). The seed is the
// suite's.
const bool kFewerCases = [] {
  ::setenv("RC_PARAMS", "max_success=8 seed=20230427", /*overwrite=*/0);
  return true;
}();

// A configuration file for `config:` (kept beside the saved counterexamples, for the repro line).
std::string MostAllocatedConfig() {
  ::mkdir(kDir, 0755);
  const std::string path = std::string(kDir) + "/most-allocated.yaml";
  std::ofstream(path)
      << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
         "- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n"
         "    args:\n      scoringStrategy:\n        type: MostAllocated\n";
  return path;
}

struct Planted {
  std::string shape;
  std::string candidate;  // candidates/candidate.h spec with the bug
};

rc::Gen<Planted> PlantedGen() {
  return rc::gen::element(Planted{"SchedulingBasic", "config:" + MostAllocatedConfig()},
                          Planted{"SchedulingNodeAffinity", "config:" + MostAllocatedConfig()},
                          Planted{"TopologySpreading", "config:" + MostAllocatedConfig()},
                          Planted{"Unschedulable", "config:" + MostAllocatedConfig()},
                          Planted{"MixedChurn", "config:" + MostAllocatedConfig()},
                          Planted{"RequeueNodeAdd", "forget-events:NodeAffinity"},
                          Planted{"RequeueTaintRemoval", "forget-events:TaintToleration"},
                          Planted{"RequeuePodDelete", "forget-events:NodeResourcesFit"});
}

RC_GTEST_PROP(MinimizeProperties, APlantedDivergenceIsReducedToAtMostTenEvents, ()) {
  const Planted planted = *PlantedGen();
  workloads::WorkloadParams params;
  params.nodes = *rc::gen::inRange<int64_t>(2, 30);
  params.initial_pods = *rc::gen::inRange<int64_t>(1, 60);
  params.measured_pods = *rc::gen::inRange<int64_t>(200, 300);
  params.seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RC_TAG(planted.shape);
  auto workload = workloads::Generate(planted.shape, params);
  RC_ASSERT(workload.ok());
  const std::vector<trace::Record>& input = workload->trace.records;
  RC_ASSERT(input.size() >= 200u);

  gate::PairReplayOptions options;
  options.replay.compat = "1.27";
  options.replay.seed = seed;
  options.baseline = gate::ReferenceSide(reference::DefaultConfiguration("1.27"));
  auto candidate =
      candidates::MakeCandidate(planted.candidate, reference::DefaultConfiguration("1.27"));
  RC_ASSERT(candidate.ok());
  options.candidate = {"candidate", std::move(*candidate), "", ""};
  gate::PairReplay pair(options);
  auto m = minimize::Minimize(
      input, [&](const std::vector<trace::Record>& records) -> Result<minimize::Verdict> {
        auto logs = pair.Run(records);
        if (!logs.ok()) return logs.error();
        return minimize::VerdictOf(logs->baseline, std::move(logs->diff));
      });
  // Every saved input is replayed with the workload's epoch 0; the start_time label only matters
  // to plugins that read the clock, and none of these candidates does.
  const std::string repro = "\nreproduce: bazel-bin/harness/cli/schedcheck minimize " +
                            std::string(kDir) + "/MinimizeProperties.trace --candidate " +
                            planted.candidate + " --seed " + std::to_string(seed);
  PROP_REQUIRE(m.ok(), "MinimizeProperties", input, "minimize failed: " + m.message() + repro);
  // A bug the workload happens not to reach (a cluster too small to have a choice) is no case.
  RC_PRE(m->diverges);
  PROP_REQUIRE(m->records.size() <= 10, "MinimizeProperties", input,
               "reduced to " + std::to_string(m->records.size()) + " events only (" +
                   std::to_string(m->stats.replays) + " replays)" + repro);
  auto again = pair.Run(m->records);
  PROP_REQUIRE(again.ok() && minimize::SameDivergence(again->diff, m->target), "MinimizeProperties",
               input,
               "the minimal trace does not diverge as the input did (" + diff::Describe(m->target) +
                   ")" + repro);
}

}  // namespace
}  // namespace schedcheck::properties
