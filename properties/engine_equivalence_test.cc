// The fast engine (reference/accel) against the plain rules (reference/plugins,
// reference/scheduler), as a database is tested against its model: every generated cluster, pod
// and timed trace must give identical decisions in both — the chosen node, the tie set, every
// per-node status (code, reasons, plugin), every plugin's raw and normalized score, the messages,
// the rotating start index and, in replays, every queue transition and binding. Built twice:
// engine_equivalence_test at compat 1.27, engine_equivalence_1_37_test at compat 1.37
// (-DSCHEDCHECK_COMPAT_1_37), where the generated traces also carry the fields v1.37 reads.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "harness/campaign/config_source.h"
#include "harness/generators/spread_generators.h"
#include "harness/generators/storage_generators.h"
#include "harness/generators/wide_generators.h"
#include "harness/replay/decision_log.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"

namespace schedcheck::properties {
namespace {

using reference::Engine;
using reference::ScheduleResult;

#ifdef SCHEDCHECK_COMPAT_1_37
constexpr char kCompat[] = "1.37";
constexpr bool kNewerFields = true;
#else
constexpr char kCompat[] = "1.27";
constexpr bool kNewerFields = false;
#endif
constexpr reference::CompatLevel kLevel = std::string_view(kCompat) == "1.37"
                                              ? reference::CompatLevel::kV1_37
                                              : reference::CompatLevel::kV1_27;

// A generated trace as the level takes it: v1.37's cache exits on writes the API server would
// refuse (a bound pod unbound), so at 1.37 traces are first made consistent (RealizeTrace).
std::vector<trace::Record> AsLevelTakesThem(std::vector<trace::Record> records) {
  if (kLevel == reference::CompatLevel::kV1_27) return records;
  return RealizeTrace(std::move(records), 1, kCompat);
}

// Everything a result says, one line per fact, so that two results compare as text and a
// difference is shown as the first differing line.
std::string Describe(const ScheduleResult& r) {
  std::string out =
      "kind " + std::to_string(static_cast<int>(r.kind)) + "\nnode " + r.node + "\nties";
  for (const std::string& n : r.ties.Names()) out += " " + n;
  out += "\nfeasible";
  for (const std::string& n : r.feasible) out += " " + n;
  out += "\nfeasible_count " + std::to_string(r.feasible_count) + "\nevaluated " +
         std::to_string(r.evaluated_nodes) + "\nall " + std::to_string(r.num_all_nodes) + "\n";
  for (const reference::NodePluginScores& n : r.scores) {
    out += "score " + n.name + " " + std::to_string(n.total) + " =";
    for (const reference::PluginScore& p : n.scores) {
      out += " " + p.plugin + ":" + std::to_string(p.raw) + "/" + std::to_string(p.normalized) +
             "/" + std::to_string(p.weighted);
    }
    out += "\n";
  }
  if (r.kind == ScheduleResult::Kind::kFitError) {
    for (const auto& [node, status] : r.diagnosis.node_to_status) {
      out += "status " + node + " " + status.DebugString() + " plugin " + status.plugin() + "\n";
    }
    out += "message " + reference::FitErrorMessage(r.num_all_nodes, r.diagnosis) + "\n";
    out += "unschedulable_plugins";
    for (const std::string& p : r.diagnosis.unschedulable_plugins) out += " " + p;
    out += "\n";
  }
  if (r.kind == ScheduleResult::Kind::kError) out += "error " + r.error_status.DebugString() + "\n";
  return out;
}

std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t line_start = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) break;
    if (a[i] == '\n') line_start = i + 1;
  }
  auto line = [&](const std::string& s) {
    return s.substr(line_start, s.find('\n', line_start) - line_start);
  };
  return "plain: " + line(a) + "\nfast:  " + line(b);
}

// Schedules the case's pod, then each of `later` (the case's pod again when there are none; at
// least three cycles), with one scheduler per engine (so the start index rotates and the fast
// engine's cross-cycle state is used), with and without details. Nothing is bound between cycles.
void RequireSameDecisions(const ClusterCase& c, const std::string& property,
                          const std::vector<k8s::Pod>& later = {},
                          const reference::Profile* profile = nullptr) {
  std::vector<trace::Record> report = CaseAsTrace(c);
  std::vector<reference::PodPtr> later_pods;
  for (const k8s::Pod& p : later) {
    auto pod = reference::BuildPod(p, reference::FeaturesFor(kLevel));
    if (!pod.ok()) RC_FAIL("pod does not load: " + pod.message());
    later_pods.push_back(*pod);
    trace::Record r;
    r.mutable_api()->set_type(trace::ADDED);
    *r.mutable_api()->mutable_pod() = p;
    report.push_back(std::move(r));
  }
  const int cycles = std::max<int>(3, 1 + static_cast<int>(later_pods.size()));
  for (bool details : {true, false}) {
    LoadedCase plain = Load(c, Engine::kPlain, kCompat, profile);
    LoadedCase fast = Load(c, Engine::kFast, kCompat, profile);
    // Each Scheduler decides with its engine, seeded alike; the engines stay readable here.
    auto plain_engine = reference::MakePodScheduler(Engine::kPlain, 7, 0);
    auto fast_engine = reference::MakePodScheduler(Engine::kFast, 7, 0);
    plain_engine->set_record_details(details);
    fast_engine->set_record_details(details);
    const reference::PodScheduler* plain_scheduler = plain_engine.get();
    const reference::PodScheduler* fast_scheduler = fast_engine.get();
    plain.cluster->scheduler().SetPodScheduler(std::move(plain_engine));
    fast.cluster->scheduler().SetPodScheduler(std::move(fast_engine));
    for (int cycle = 0; cycle < cycles; ++cycle) {
      const bool first = cycle == 0 || later_pods.empty();
      const reference::Pod& plain_pod = first ? *plain.pod : *later_pods[cycle - 1];
      const reference::Pod& fast_pod = first ? *fast.pod : *later_pods[cycle - 1];
      reference::CycleState plain_state, fast_state;
      const ScheduleResult a = plain.cluster->scheduler().SchedulePod(plain_state, plain_pod);
      const ScheduleResult b = fast.cluster->scheduler().SchedulePod(fast_state, fast_pod);
      // Without details a scheduled pod's statuses are not kept by the fast engine: compare what
      // the decision carries.
      const std::string da = details || a.kind != ScheduleResult::Kind::kScheduled
                                 ? Describe(a)
                                 : a.node + " " + std::to_string(a.evaluated_nodes);
      const std::string db = details || b.kind != ScheduleResult::Kind::kScheduled
                                 ? Describe(b)
                                 : b.node + " " + std::to_string(b.evaluated_nodes);
      PROP_REQUIRE(da == db, property, report,
                   "cycle " + std::to_string(cycle) + (details ? " (details)" : "") +
                       ": the engines differ\n" + FirstDifference(da, db));
      PROP_REQUIRE(
          plain_scheduler->next_start_node_index() == fast_scheduler->next_start_node_index(),
          property, report,
          "start index differs after cycle " + std::to_string(cycle) + ": plain " +
              std::to_string(plain_scheduler->next_start_node_index()) + ", fast " +
              std::to_string(fast_scheduler->next_start_node_index()));
    }
  }
}

RC_GTEST_PROP(EngineEquivalence, ClustersDecideAlike, ()) {
  RequireSameDecisions(*ClusterCaseGen(), "EngineEquivalence_Clusters");
}

// The configurations `schedcheck campaign --generators ...,configs` draws
// (harness/campaign/config_source.h): plugins disabled, reweighted, args, and explicit lists that
// override MultiPoint plugins.
RC_GTEST_PROP(EngineEquivalence, GeneratedConfigurationsDecideAlike, ()) {
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  auto text = campaign::DrawConfiguration(seed, kCompat);
  RC_ASSERT(text.ok());
  auto config =
      reference::ParseSchedulerConfigurationYaml(*text, "the drawn configuration", kCompat);
  RC_ASSERT(config.ok());
  RC_TAG(text->find("\"preFilter\"") != std::string::npos,
         text->find("\"preScore\"") != std::string::npos);
  RequireSameDecisions(*ClusterCaseGen(), "EngineEquivalence_Configurations", {},
                       &config->profiles[0]);
}

// Explicit Score, Filter, PreFilter and PreScore lists of three plugins each that MultiPoint also
// enables, in a drawn order, with drawn score weights: at 1.27 upstream's expansion lists one
// plugin of each twice and moves another after the MultiPoint plugins
// (reference/runtime/framework_build.cc, ExpandedOrder), so the fast engine must score a plugin
// listed twice as the plain runner does: one list, normalized once per listing, counted twice.
RC_GTEST_PROP(EngineEquivalence, RepeatedPluginsDecideAlike, ()) {
  // Three of `names` in a drawn order.
  auto three = [](std::vector<std::string> names) {
    for (size_t i = 0; i < 3; ++i) std::swap(names[i], names[*rc::gen::inRange(i, names.size())]);
    names.resize(3);
    return names;
  };
  reference::Profile profile = reference::DefaultProfile(kCompat);
  using reference::ExtensionPoint;
  for (const std::string& n :
       three({"TaintToleration", "NodeAffinity", "NodeResourcesFit", "ImageLocality",
              "InterPodAffinity", "PodTopologySpread", "NodeResourcesBalancedAllocation"})) {
    profile.at(ExtensionPoint::kScore).enabled.push_back({n, *rc::gen::inRange<int32_t>(1, 11)});
  }
  for (const std::string& n : three({"NodeUnschedulable", "NodeName", "TaintToleration",
                                     "NodeAffinity", "NodePorts", "NodeResourcesFit"})) {
    profile.at(ExtensionPoint::kFilter).enabled.push_back({n, 0});
  }
  for (const std::string& n : three({"NodeResourcesFit", "NodePorts", "NodeAffinity",
                                     "PodTopologySpread", "InterPodAffinity"})) {
    profile.at(ExtensionPoint::kPreFilter).enabled.push_back({n, 0});
  }
  for (const std::string& n : three({"TaintToleration", "NodeAffinity", "PodTopologySpread",
                                     "InterPodAffinity", "NodeResourcesFit"})) {
    profile.at(ExtensionPoint::kPreScore).enabled.push_back({n, 0});
  }
  // The property covers what it is about: at 1.27 a score plugin is listed twice.
  reference::Handle handle{reference::FeaturesFor(kLevel)};
  auto fw = reference::Framework::Create(profile, reference::PluginRegistry(), &handle);
  RC_ASSERT(fw.ok());
  RC_ASSERT((*fw)->RepeatsAScorePlugin() == (kLevel == reference::CompatLevel::kV1_27));
  RequireSameDecisions(*ClusterCaseGen(), "EngineEquivalence_RepeatedPlugins", {}, &profile);
}

// More nodes than numFeasibleNodesToFind's minimum of 100 (101..180, so the adaptive percentage
// never goes below it), most of them one roomy untainted shape, the rest generated: a cycle
// usually stops after the 100th feasible node, and the next pods' searches start where it stopped
// (upstream v1.27.8 schedule_one.go findNodesThatPassFilters: nextStartNodeIndex = (start +
// processedNodes) % len(nodes)), so which nodes are filtered, scored and tie depends on the
// rotation: several pods scheduled in sequence compare the rotating start index of both engines.
struct LargeClusterCase {
  ClusterCase base;
  std::vector<k8s::Pod> later;
};

rc::Gen<LargeClusterCase> LargeClusterCaseGen() {
  return rc::gen::exec([] {
    LargeClusterCase l;
    k8s::Node roomy = GenNodeObject("roomy");
    roomy.mutable_spec()->clear_taints();
    roomy.mutable_spec()->set_unschedulable(false);
    auto& alloc = *roomy.mutable_status()->mutable_allocatable();
    alloc["cpu"] = "16";
    alloc["memory"] = "32Gi";
    alloc["pods"] = "110";
    *roomy.mutable_status()->mutable_capacity() = alloc;
    std::vector<k8s::Node> shapes = {GenNodeObject("a"), GenNodeObject("b")};
    const int nodes = *rc::gen::inRange(101, 181);
    for (int i = 0; i < nodes; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "n%03d", i);
      const int shape = *rc::gen::inRange(0, 10);
      k8s::Node node = shape < 8 ? roomy : shapes[shape - 8];
      node.mutable_metadata()->set_name(name);
      (*node.mutable_metadata()->mutable_labels())[kHostnameKey] = name;
      l.base.nodes.push_back(std::move(node));
    }
    const int bound = *rc::gen::inRange(0, 9);
    for (int i = 0; i < bound; ++i) {
      k8s::Pod p = GenPodObject("b" + std::to_string(i), false);
      p.mutable_spec()->set_node_name(l.base.nodes[*rc::gen::inRange(0, nodes)].metadata().name());
      l.base.bound.push_back(std::move(p));
    }
    l.base.pod = GenPodObject("p", false);
    const int later = *rc::gen::inRange(2, 5);
    for (int i = 0; i < later; ++i) l.later.push_back(GenPodObject("q" + std::to_string(i), false));
    return l;
  });
}

RC_GTEST_PROP(EngineEquivalence, LargeClustersRotateAlike, ()) {
  const LargeClusterCase l = *LargeClusterCaseGen();
  RequireSameDecisions(l.base, "EngineEquivalence_LargeClusters", l.later);
}

// Replays decide alike: the decision logs (attempts with ties and messages, queue transitions,
// bindings, preemptions) are byte-identical.
void RequireSameReplay(const std::vector<trace::Record>& records, uint64_t seed,
                       const std::string& property,
                       const reference::SchedulerConfiguration* config = nullptr) {
  const Scenario s{AsLevelTakesThem(records)};
  const std::vector<trace::Record> plain = ReplayScenario(s, seed, Engine::kPlain, kCompat, config);
  const std::vector<trace::Record> fast = ReplayScenario(s, seed, Engine::kFast, kCompat, config);
  for (size_t i = 0; i < std::min(plain.size(), fast.size()); ++i) {
    const std::string a =
        plain[i].has_api() ? plain[i].SerializeAsString() : replay::DecisionJsonLine(plain[i]);
    const std::string b =
        fast[i].has_api() ? fast[i].SerializeAsString() : replay::DecisionJsonLine(fast[i]);
    PROP_REQUIRE(a == b, property, s.records,
                 "decision " + std::to_string(i) + " differs (seed " + std::to_string(seed) +
                     ")\nplain: " + a + "\nfast:  " + b);
  }
  PROP_REQUIRE(plain.size() == fast.size(), property, s.records,
               "decision counts differ: plain " + std::to_string(plain.size()) + ", fast " +
                   std::to_string(fast.size()));
}

RC_GTEST_PROP(EngineEquivalence, ScenariosReplayAlike, ()) {
  const Scenario s = *ScenarioGen();
  RequireSameReplay(s.records, *rc::gen::inRange<uint64_t>(1, 1000), "EngineEquivalence_Scenarios");
}

RC_GTEST_PROP(EngineEquivalence, WideTracesReplayAlike, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  RequireSameReplay(s.records, 1, "EngineEquivalence_Wide");
}

// Replica bursts (BatchScenarioGen) under the default profile without PodTopologySpread: at 1.37
// pods are signed, so both engines must offer and take the same OpportunisticBatching hints.
RC_GTEST_PROP(EngineEquivalence, BatchingTracesReplayAlike, ()) {
  const WideScenario s = *BatchScenarioGen();
  reference::SchedulerConfiguration config = reference::DefaultConfiguration(kCompat);
  std::erase_if(config.profiles[0].at(reference::ExtensionPoint::kMultiPoint).enabled,
                [](const reference::PluginEntry& e) { return e.name == "PodTopologySpread"; });
  RequireSameReplay(s.records, 1, "EngineEquivalence_Batching", &config);
}

RC_GTEST_PROP(EngineEquivalence, PreemptionTracesReplayAlike, ()) {
  const WideScenario s = *PreemptionScenarioGen();
  RequireSameReplay(s.records, 1, "EngineEquivalence_Preemption");
}

RC_GTEST_PROP(EngineEquivalence, SpreadingTracesReplayAlike, ()) {
  RequireSameReplay(*DefaultSpreadTraceGen(), 1, "EngineEquivalence_Spreading");
}

// Storage traces (storage_generators.h): the fast engine's volume plugins — the attach limits
// with their per-node memos (reference/accel/node_volume_limits), VolumeRestrictions' batch
// Filter and VolumeBinding's per-cycle uniform score, which must not change a decision (at 1.37 it
// scores storage capacity, so a wrong "every node scores 0" would) — against the plain rules. The
// traces add, update and delete claims, volumes and CSINodes between cycles, which the memos must
// notice; StorageTracesReachTheAttachLimits below checks that nodes do hit their limits.
RC_GTEST_PROP(EngineEquivalence, StorageTracesReplayAlike, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields);
  RequireSameReplay(s.records, *rc::gen::inRange<uint64_t>(1, 1000), "EngineEquivalence_Storage");
}

// The storage traces reach what the fast volume filters decide: over a fixed set of drawn traces
// (the same every run), NodeVolumeLimits rejects nodes for their attach limit and, at 1.27, so
// does an in-tree limit plugin, so StorageTracesReplayAlike compares those decisions too and not
// only the paths where a pod's volumes fit everywhere or count against no limit.
TEST(EngineEquivalence, StorageTracesReachTheAttachLimits) {
  std::map<std::string, int> rejected;  // plugin -> attempts it rejected for an attach limit
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const WideScenario s = StorageScenarioGen(kNewerFields)(rc::Random(seed), /*size=*/50).value();
    const Scenario level{AsLevelTakesThem(s.records)};
    for (const trace::Record& r : ReplayScenario(level, 1, Engine::kFast, kCompat)) {
      if (r.has_api()) continue;
      const std::string line = replay::DecisionJsonLine(r);
      if (line.find("exceed max volume count") == std::string::npos) continue;
      for (const char* plugin :
           {"NodeVolumeLimits", "EBSLimits", "GCEPDLimits", "AzureDiskLimits"}) {
        if (line.find(std::string("\"") + plugin + "\"") != std::string::npos) ++rejected[plugin];
      }
    }
  }
  for (const auto& [plugin, attempts] : rejected) {
    std::printf("%s rejected nodes for the attach limit in %d attempts\n", plugin.c_str(),
                attempts);
  }
  EXPECT_GT(rejected["NodeVolumeLimits"], 0);
  if (kLevel == reference::CompatLevel::kV1_27) {
    EXPECT_GT(rejected["EBSLimits"] + rejected["GCEPDLimits"] + rejected["AzureDiskLimits"], 0);
  }
}

}  // namespace
}  // namespace schedcheck::properties
