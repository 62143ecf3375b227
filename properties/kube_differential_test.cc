// The differential gate against the real kube-scheduler: traces from the property suite's
// generators, replayed by the reference (in process) and by the adapter of the level the target
// is built for (//harness/kube:kube-adapter-1.27 for v1.27.8 at compat 1.27; with
// -DSCHEDCHECK_KUBE_1_37, //harness/kube:kube-adapter-1.37 for v1.37.2 at compat 1.37; a child
// process over the protocol), must be equivalent — no hard, requeue or soft divergence
// (harness/diff). A divergence fails with the first difference, the saved trace and the commands
// that reproduce it outside the test.
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/campaign/config_source.h"
#include "harness/diff/diff.h"
#include "harness/generators/gang_generators.h"
#include "harness/generators/sample.h"
#include "harness/generators/spread_generators.h"
#include "harness/generators/storage_generators.h"
#include "harness/generators/wide_generators.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/base/feature_gates.h"
#include "reference/runtime/profile.h"

namespace schedcheck::properties {
namespace {

struct Level {
  const char* compat;     // the reference's compatibility level
  const char* adapter;    // the adapter's runfile under harness/kube
  const char* version;    // kube-scheduler's release, for messages
  const char* candidate;  // the `schedcheck replay --candidate` spec that reproduces a failure
};
#ifdef SCHEDCHECK_KUBE_1_37
constexpr Level kLevel = {"1.37", "kube-adapter-1.37", "v1.37.2", "kube:1.37"};
// The wide traces carry the fields v1.37 reads (sidecars, pod-level requests, resize status,
// declared features and what requires them).
constexpr bool kNewerFields = true;
#else
constexpr Level kLevel = {"1.27", "kube-adapter-1.27", "v1.27.8", "kube:1.27"};
constexpr bool kNewerFields = false;
#endif

std::string AdapterPath() {
  const char* dir = std::getenv("TEST_SRCDIR");
  return std::string(dir == nullptr ? "." : dir) + "/schedcheck/harness/kube/" + kLevel.adapter;
}

// What a run is given besides the trace: a configuration (empty: the default profile) and
// feature gates, the same for both sides.
struct RunSetup {
  std::string config_yaml;
  reference::FeatureGates feature_gates;
  bool volume_controllers = false;  // the replay's volume controllers model (both sides)
  int64_t volume_latency_ns = 0;    // and its latency
};

// The default profile with VolumeBinding's arguments set to `args` (a JSON object).
std::string VolumeBindingArgsConfig(const std::string& args) {
  return R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
      "kind": "KubeSchedulerConfiguration",
      "profiles": [{"schedulerName": "default-scheduler",
                    "pluginConfig": [{"name": "VolumeBinding", "args": )" +
         args + "}]}]}";
}

replay::ReplayOptions OptionsFor(uint64_t seed, const RunSetup& setup) {
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration(kLevel.compat);
  if (!setup.config_yaml.empty()) {
    auto parsed =
        reference::ParseSchedulerConfigurationYaml(setup.config_yaml, "the setup", kLevel.compat);
    if (!parsed.ok()) RC_FAIL("configuration: " + parsed.message());
    options.config = *parsed;
  }
  options.compat = kLevel.compat;
  options.feature_gates = setup.feature_gates;
  options.volume_controllers = setup.volume_controllers;
  options.volume_latency_ns = setup.volume_latency_ns;
  options.seed = seed;
  return options;
}

std::vector<trace::Record> ReplayReference(const std::vector<trace::Record>& records, uint64_t seed,
                                           const RunSetup& setup) {
  replay::ReplayOptions options = OptionsFor(seed, setup);
  auto replayer = replay::Replayer::Create(options);
  if (!replayer.ok()) RC_FAIL("replayer: " + replayer.message());
  if (Outcome ok = (*replayer)->Run(records); !ok)
    RC_FAIL("reference replay failed: " + ok.message());
  return (*replayer)->log().records();
}

// One adapter process serves every trace of the test process (a new Hello after each Finish).
protocol::ReplaySession& Adapter() {
  static protocol::ReplaySession* session = new protocol::ReplaySession(AdapterPath());
  return *session;
}

std::vector<trace::Record> ReplayKube(const std::vector<trace::Record>& records, uint64_t seed,
                                      const std::string& property, const RunSetup& setup) {
  const replay::ReplayOptions options = OptionsFor(seed, setup);
  protocol::ExternalReplay run = Adapter().Replay(
      records,
      protocol::HelloFor(options, setup.config_yaml, setup.config_yaml.empty() ? "" : "the setup"));
  PROP_REQUIRE(run.status.ok(), property, records,
               "the kube adapter failed: " + run.status.message());
  return run.decisions;
}

// What the reference's log holds, as RapidCheck tags (the distribution is printed after each
// property): which outcomes the generated traces reach.
void TagOutcomes(const std::vector<trace::Record>& log) {
  bool scheduled = false, unschedulable = false, error = false, preempted = false;
  for (const trace::Record& r : log) {
    if (!r.has_attempt()) continue;
    scheduled = scheduled || r.attempt().result() == trace::SCHEDULED;
    unschedulable = unschedulable || r.attempt().result() == trace::UNSCHEDULABLE;
    error = error || r.attempt().result() == trace::ERROR;
    preempted = preempted || !r.attempt().victims().empty();
  }
  RC_TAG(scheduled ? "scheduled" : "-", unschedulable ? "unschedulable" : "-",
         error ? "error" : "-", preempted ? "preemption" : "-");
}

// Requires the two logs of `records` to be equivalent.
void RequireEquivalent(const std::vector<trace::Record>& records, uint64_t seed,
                       const std::string& property, bool tag = false, const RunSetup& setup = {}) {
  const std::vector<trace::Record> reference = ReplayReference(records, seed, setup);
  if (tag) TagOutcomes(reference);
  const std::vector<trace::Record> kube = ReplayKube(records, seed, property, setup);
  diff::DiffResult result = diff::Diff(reference, kube);
  if (result.divergences.empty()) return;
  const std::string s = std::to_string(seed);
  const std::string gates =
      (setup.feature_gates.empty()
           ? ""
           : " --feature-gates " + reference::FeatureGatesText(setup.feature_gates)) +
      (setup.config_yaml.empty() ? "" : " --config CONFIG") +
      (setup.volume_controllers ? " --volume-controllers" : "") +
      (setup.volume_latency_ns > 0
           ? " --volume-latency " + std::to_string(setup.volume_latency_ns / 1e9)
           : "");
  PROP_REQUIRE(false, property, records,
               std::to_string(result.divergences.size()) +
                   " divergences (reference vs kube-scheduler " + kLevel.version + ", seed " + s +
                   "); first: " + diff::Describe(result.divergences.front()) +
                   "\nreproduce: schedcheck replay TRACE --compat " + kLevel.compat + gates +
                   " --seed " + s + " --jsonl ref.jsonl && schedcheck replay TRACE --seed " + s +
                   gates + " --candidate " + kLevel.candidate +
                   " --jsonl kube.jsonl && schedcheck diff ref.jsonl kube.jsonl");
}

// Timed event sequences: node and pod adds, updates of every kind the generator makes, deletes.
// v1.27 takes these traces as written, even a write that unsets a bound pod's spec.nodeName (which
// the API server would refuse); v1.37's cache treats that as corruption and exits, so at 1.37 the
// traces are first made consistent with what the API server would hold (RealizeTrace).
std::vector<trace::Record> AsLevelTakesThem(std::vector<trace::Record> records, uint64_t seed) {
  if (std::string(kLevel.compat) == "1.27") return records;
  return RealizeTrace(std::move(records), seed, kLevel.compat);
}

RC_GTEST_PROP(KubeDifferential, ScenariosAreEquivalent, ()) {
  const Scenario s = *ScenarioGen();
  RequireEquivalent(AsLevelTakesThem(s.records, 1), 1, "KubeDifferential_Scenarios");
}

// The same with other seeds: the tie-breaks of both sides draw from the same seeded generator.
RC_GTEST_PROP(KubeDifferential, ScenariosWithOtherSeedsAreEquivalent, ()) {
  const Scenario s = *ScenarioGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(2, 1'000'000);
  RequireEquivalent(AsLevelTakesThem(s.records, seed), seed, "KubeDifferential_ScenariosSeeded");
}

// One scheduling decision over a generated cluster (bound pods may overcommit; priorities make
// preemption common).
RC_GTEST_PROP(KubeDifferential, ClusterCasesAreEquivalent, ()) {
  const ClusterCase c = *ClusterCaseGen();
  RequireEquivalent(CaseAsTrace(c), 1, "KubeDifferential_ClusterCases");
}

// Wide traces (wide_generators.h): namespaces with labels, PriorityClasses, PDBs, odd but accepted
// quantities and selector values, and every kind of update and delete, made consistent with what
// the API server would hold (RealizeTrace).
RC_GTEST_PROP(KubeDifferential, WideScenariosAreEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  RequireEquivalent(RealizeTrace(s.records, 1, kLevel.compat), 1, "KubeDifferential_Wide", true);
}

RC_GTEST_PROP(KubeDifferential, WideScenariosWithOtherSeedsAreEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(2, 1'000'000);
  RequireEquivalent(RealizeTrace(s.records, seed, kLevel.compat), seed,
                    "KubeDifferential_WideSeeded");
}

// Wide traces under the configurations `schedcheck campaign --generators ...,configs` draws
// (harness/campaign/config_source.h): plugins disabled and reweighted, plugin args, and explicit
// lists overriding MultiPoint plugins, which v1.27.8 expands with a plugin repeated and another
// moved (docs/SEMANTICS.md, "Default profile").
RC_GTEST_PROP(KubeDifferential, GeneratedConfigurationsAreEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  auto config = campaign::DrawConfiguration(*rc::gen::arbitrary<uint64_t>(), kLevel.compat);
  RC_ASSERT(config.ok());
  const RunSetup setup{*config, {}};
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_Configurations", true, setup);
}

// Storage (storage_generators.h): StorageClasses, CSIDrivers, CSINodes, CSIStorageCapacities, PVs
// and claims, pods with claim, ephemeral and inline volumes, and the PV controller's writes in the
// trace (replay has none), made consistent with what the API server would hold (RealizeTrace).
RC_GTEST_PROP(KubeDifferential, StorageScenariosAreEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields);
  RequireEquivalent(RealizeTrace(s.records, 1, kLevel.compat), 1, "KubeDifferential_Storage", true);
}

RC_GTEST_PROP(KubeDifferential, StorageScenariosWithOtherSeedsAreEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(2, 1'000'000);
  RequireEquivalent(RealizeTrace(s.records, seed, kLevel.compat), seed,
                    "KubeDifferential_StorageSeeded");
}

// The same with the volume controllers model on both sides (docs/FORMATS.md, "Volume
// controllers"): PreBind's writes succeed, the PV controller binds and the provisioner provisions
// at once, and the pods bind in their first binding cycle. The traces leave WaitForFirstConsumer
// claims to the model (the trace still binds Immediate ones).
RC_GTEST_PROP(KubeDifferential, StorageScenariosWithVolumeControllersAreEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields, /*controllers_model=*/true);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.volume_controllers = true;
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_StorageControllers", true, setup);
}

// The same with controllers that answer later: PreBind polls every second in virtual time while
// other pods are scheduled and events arrive, and the binding completes at the first look after
// the answers. A third of the traces set a bind timeout of 2 s, which latencies of 2 s and more
// run into (the poll's timeout error and a requeue).
RC_GTEST_PROP(KubeDifferential, StorageScenariosWithSlowVolumeControllersAreEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields, /*controllers_model=*/true);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.volume_controllers = true;
  setup.volume_latency_ns =
      *rc::gen::element<int64_t>(300'000'000, 1'000'000'000, 2'500'000'000, 40'000'000'000);
  if (*rc::gen::inRange(0, 3) == 0)
    setup.config_yaml = VolumeBindingArgsConfig(R"({"bindTimeoutSeconds": 2})");
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_StorageSlowControllers", true, setup);
}

// VolumeBinding's arguments through the configuration both builds read: at 1.37 a shape that
// prefers the fullest storage (the default's opposite, with a kink), so capacity scores decide
// placements the other way; at 1.27, which refuses a shape while VolumeCapacityPriority is off,
// a bind timeout only. With the storage properties above, 300 storage traces per level.
RC_GTEST_PROP(KubeDifferential, StorageScenariosWithVolumeBindingArgsAreEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const std::string args = std::string_view(kLevel.compat) == "1.37"
                               ? R"({"bindTimeoutSeconds": 30, "shape": [
                                      {"utilization": 0, "score": 0},
                                      {"utilization": 40, "score": 7},
                                      {"utilization": 100, "score": 10}]})"
                               : R"({"bindTimeoutSeconds": 30})";
  const RunSetup setup{VolumeBindingArgsConfig(args), {}};
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_StorageArgs", true, setup);
}

// Preemption: small full nodes, bound pods of mixed priorities and start times, PDBs, preemptors
// (some with preemptionPolicy Never).
RC_GTEST_PROP(KubeDifferential, PreemptionScenariosAreEquivalent, ()) {
  const WideScenario s = *PreemptionScenarioGen();
  RequireEquivalent(RealizeTrace(s.records, 1, kLevel.compat), 1, "KubeDifferential_Preemption",
                    true);
}

// PodTopologySpread's default constraints: Services, ReplicaSets, StatefulSets and
// ReplicationControllers (added, changed, deleted) selecting pods that own or lack controllers,
// on nodes of unequal size, with and without zones (spread_generators.h).
RC_GTEST_PROP(KubeDifferential, DefaultSpreadingScenariosAreEquivalent, ()) {
  const std::vector<trace::Record> records = *DefaultSpreadTraceGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RequireEquivalent(records, seed, "KubeDifferential_DefaultSpreading", true);
}

// Rolling updates spreading with matchLabelKeys [version] (MatchLabelKeysInPodTopologySpread is
// beta and on at both levels): each version spreads on its own (spread_generators.h).
RC_GTEST_PROP(KubeDifferential, MatchLabelKeysScenariosAreEquivalent, ()) {
  const std::vector<trace::Record> records = *MatchLabelKeysTraceGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RequireEquivalent(records, seed, "KubeDifferential_MatchLabelKeys", true);
}

#ifdef SCHEDCHECK_KUBE_1_37
// --feature-gates OpportunisticBatching=false: v1.37 then never reuses a previous pod's scores,
// and replay takes profiles under which it could (refused with the gate on). Here the default
// profile without PodTopologySpread, whose default constraints otherwise keep every pod
// unsignable, so batching would apply to most pods if the gate were on.
RC_GTEST_PROP(KubeDifferential, SignableProfileWithBatchingOffIsEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const RunSetup setup{R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
      "kind": "KubeSchedulerConfiguration",
      "profiles": [{"schedulerName": "default-scheduler",
                    "plugins": {"multiPoint": {"disabled": [{"name": "PodTopologySpread"}]}}}]})",
                       {{std::string(reference::kOpportunisticBatching), false}}};
  // Realized by this profile's own decisions: pods it binds are not unbound by later writes.
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_BatchingOff", true, setup);
}

// OpportunisticBatching (on by default at 1.37) under profiles that sign pods: without
// PodTopologySpread, with it but without default constraints, or with InterPodAffinity's
// ignorePreferredTermsOfExistingPods (which leaves the labels out of the signature). The traces
// hold bursts of replicas around the 500 ms batch age (BatchScenarioGen), so that later replicas
// take the previous one's leftover nodes as hints.
RC_GTEST_PROP(KubeDifferential, OpportunisticBatchingIsEquivalent, ()) {
  const WideScenario s = *BatchScenarioGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const std::string profile = *rc::gen::element<std::string>(
      R"("plugins": {"multiPoint": {"disabled": [{"name": "PodTopologySpread"}]}})",
      R"("pluginConfig": [{"name": "PodTopologySpread", "args": {"defaultingType": "List"}}])",
      R"("plugins": {"multiPoint": {"disabled": [{"name": "PodTopologySpread"}]}},
         "pluginConfig": [{"name": "InterPodAffinity",
                           "args": {"ignorePreferredTermsOfExistingPods": true}}])");
  RC_TAG(profile.substr(0, 40));
  const RunSetup setup{R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
      "kind": "KubeSchedulerConfiguration",
      "profiles": [{"schedulerName": "default-scheduler", )" +
                           profile + "}]}",
                       {}};
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_Batching", true, setup);
}

// --feature-gates GenericWorkload=true (beta, off by default): GangScheduling in the default
// profile and every new pending pod an UnscheduledPodAdd event for the queue, on wide traces;
// half of them under a profile that signs pods, with bursts of replicas (BatchScenarioGen), where
// the batch is built with the gate. Against kube-scheduler v1.37.2 with the same gate.
RC_GTEST_PROP(KubeDifferential, GenericWorkloadOnIsEquivalent, ()) {
  const bool batching = *rc::gen::arbitrary<bool>();
  const WideScenario s = batching ? *BatchScenarioGen() : *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.feature_gates[std::string(reference::kGenericWorkload)] = true;
  if (batching) {
    setup.config_yaml = R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        "profiles": [{"schedulerName": "default-scheduler",
                      "plugins": {"multiPoint": {"disabled": [{"name": "PodTopologySpread"}]}}}]})";
  }
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_GenericWorkloadOn", true, setup);
}

// --feature-gates SchedulerAsyncAPICalls=true (beta, off by default): the scheduler's status
// patches, bindings and nomination clearing go through the API dispatcher, whose calls the adapter
// runs as they are queued (harness/kube/v1.37/README.md, "Feature gates"). On wide traces,
// preemption traces (nominations written and cleared) and storage traces with the volume
// controllers (NominatedNodeNameForExpectation's write before PreBind), against kube-scheduler
// v1.37.2 with the same gate.
RC_GTEST_PROP(KubeDifferential, AsyncAPICallsOnIsEquivalent, ()) {
  const int kind = *rc::gen::inRange(0, 3);  // 0: wide, 1: preemption, 2: storage
  RunSetup setup;
  setup.feature_gates[std::string(reference::kSchedulerAsyncAPICalls)] = true;
  setup.volume_controllers = kind == 2;
  const WideScenario s = kind == 0 ? *WideScenarioGen(kNewerFields)
                         : kind == 1
                             ? *PreemptionScenarioGen()
                             : *StorageScenarioGen(kNewerFields, /*controllers_model=*/true);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_AsyncAPICallsOn", true, setup);
}

// --feature-gates MatchLabelKeysInPodTopologySpread=false (with the API server's
// MatchLabelKeysInPodTopologySpreadSelectorMerge, which depends on it): PodTopologySpread ignores
// matchLabelKeys, on rolling-update traces (MatchLabelKeysTraceGen: two versions spreading with
// matchLabelKeys [version]) and wide traces, against kube-scheduler v1.37.2 with the same gates.
RC_GTEST_PROP(KubeDifferential, MatchLabelKeysOffIsEquivalent, ()) {
  const std::vector<trace::Record> records = *rc::gen::arbitrary<bool>()
                                                 ? *MatchLabelKeysTraceGen()
                                                 : (*WideScenarioGen(kNewerFields)).records;
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.feature_gates[std::string(reference::kMatchLabelKeysInPodTopologySpread)] = false;
  setup.feature_gates["MatchLabelKeysInPodTopologySpreadSelectorMerge"] = false;
  RequireEquivalent(RealizeTraceAs(records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_MatchLabelKeysOff", true, setup);
}

// The DRA beta gates flipped (a random non-empty subset, dependencies kept): they change only how
// DynamicResources allocates devices for pods with claims, so on wide traces (no claims) the
// decisions stay those of the defaults, in the reference and in kube-scheduler v1.37.2 alike.
RC_GTEST_PROP(KubeDifferential, DraGatesFlippedAreEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  const int mask = *rc::gen::inRange(1, 1 << 5);
  const char* const off[] = {"DRAConsumableCapacity", "DRADeviceBindingConditions",
                             "DRAPartitionableDevices", "DRASchedulerFilterTimeout",
                             "DRAFractionalCapacityRange"};
  for (int i = 0; i < 5; ++i) {
    if (mask & (1 << i)) setup.feature_gates[off[i]] = false;
  }
  // DRAFractionalCapacityRange depends on DRAConsumableCapacity.
  if (mask & 1) setup.feature_gates["DRAFractionalCapacityRange"] = false;
  if (*rc::gen::arbitrary<bool>()) {
    setup.feature_gates["DRAWorkloadResourceClaims"] = true;
    setup.feature_gates[std::string(reference::kGenericWorkload)] = true;
  }
  RC_TAG(reference::FeatureGatesText(setup.feature_gates).substr(0, 60));
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_DraGatesFlipped", true, setup);
}

// --feature-gates SchedulerPreQueueingHints=true (alpha): move requests first ask the
// PreQueueingHints which pods to evaluate; only DynamicResources has one, for ResourceClaim
// events, so on wide and timed traces nothing is narrowed, in the reference and in kube-scheduler
// v1.37.2 alike.
RC_GTEST_PROP(KubeDifferential, PreQueueingHintsOnIsEquivalent, ()) {
  const bool wide = *rc::gen::arbitrary<bool>();
  const std::vector<trace::Record> records =
      wide ? (*WideScenarioGen(kNewerFields)).records : (*ScenarioGen()).records;
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const RunSetup setup{"", {{"SchedulerPreQueueingHints", true}}};
  RequireEquivalent(RealizeTraceAs(records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_PreQueueingHintsOn", true, setup);
}

// --feature-gates SchedulerPopFromBackoffQ=false: the queue without pops from backoffQ, without
// 1 s expiry windows and with PreEnqueue on the move to activeQ (timed traces with requeues, and
// wide traces), against kube-scheduler v1.37.2 with the same gate.
RC_GTEST_PROP(KubeDifferential, PopFromBackoffQOffIsEquivalent, ()) {
  const bool wide = *rc::gen::arbitrary<bool>();
  const std::vector<trace::Record> records =
      wide ? (*WideScenarioGen(kNewerFields)).records : (*ScenarioGen()).records;
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const RunSetup setup{"", {{std::string(reference::kSchedulerPopFromBackoffQ), false}}};
  RequireEquivalent(RealizeTraceAs(records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_PopFromBackoffQOff", true, setup);
}

// --feature-gates SchedulerAsyncPreemption=false: DefaultPreemption's synchronous form (no
// PreEnqueue hold, no registered events, deletions before the nominations are cleared), on
// preemption traces, against kube-scheduler v1.37.2 with the same gate. Under the replay
// conventions the two forms rarely differ on these traces; the case where they do (every victim
// already terminating) is FeatureGatesTest.AsyncPreemptionOffClearsNominationsWhenEveryVictimIs
// Terminating in //harness/replay:events_test, checked against kube:1.37 both ways.
RC_GTEST_PROP(KubeDifferential, AsyncPreemptionOffIsEquivalent, ()) {
  const WideScenario s = *PreemptionScenarioGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const RunSetup setup{"", {{std::string(reference::kSchedulerAsyncPreemption), false}}};
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_AsyncPreemptionOff", true, setup);
}

// --feature-gates StorageCapacityScoring=false (VolumeBinding does not score) and
// VolumeLimitScaling=false (NodeVolumeLimits admits nodes without the pod's CSI driver), one or
// both, on storage traces (half of them with the volume controllers model), against
// kube-scheduler v1.37.2 with the same gates.
RC_GTEST_PROP(KubeDifferential, StorageGatesOffAreEquivalent, ()) {
  const bool controllers = *rc::gen::arbitrary<bool>();
  const WideScenario s = *StorageScenarioGen(kNewerFields, controllers);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.volume_controllers = controllers;
  const int off = *rc::gen::inRange(0, 3);  // 0: scoring, 1: limit scaling, 2: both
  if (off != 1) setup.feature_gates[std::string(reference::kStorageCapacityScoring)] = false;
  if (off != 0) setup.feature_gates[std::string(reference::kVolumeLimitScaling)] = false;
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_StorageGatesOff", true, setup);
}

// --feature-gates InPlacePodLevelResourcesVerticalScaling=false (pods' requests without the
// pod-level status resources of in-place resizes) or, half the time, PodLevelResources=false
// too (without spec.resources at all; upstream needs the gates depending on it off as well), in
// the cache, Fit, BalancedAllocation, update events and hints, on wide traces (pods with
// pod-level resources, sidecars and resizes), against kube-scheduler v1.37.2.
RC_GTEST_PROP(KubeDifferential, PodResourceGatesOffAreEquivalent, ()) {
  const WideScenario s = *WideScenarioGen(kNewerFields);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.feature_gates[std::string(reference::kInPlacePodLevelResourcesVerticalScaling)] = false;
  if (*rc::gen::arbitrary<bool>()) {
    for (const char* gate : {"PodLevelResources", "PodLevelResourcesFixDefaulting",
                             "PodLevelResourcesFixKubeletQOSClass"}) {
      setup.feature_gates[gate] = false;
    }
  }
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_PodResourceGatesOff", true, setup);
}

// --feature-gates NominatedNodeNameForExpectation=false: no PreBindPreFlight and no
// nominatedNodeName written before PreBind, on storage traces whose volume controllers answer
// later, against kube-scheduler v1.37.2. The nomination shows where a binding fails without
// waiting, so three traces in four set a bind timeout of 0, under which v1.37's poll fails at
// once (a context past its deadline): with the gate on, the requeued pod then carries the
// nomination, its next cycle tries that node first and lower-priority pods see it reserved.
// The others time out after 2 s, when the failure handler clears the nomination.
RC_GTEST_PROP(KubeDifferential, NominatedNodeNameForExpectationOffIsEquivalent, ()) {
  const WideScenario s = *StorageScenarioGen(kNewerFields, /*controllers_model=*/true);
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RunSetup setup;
  setup.volume_controllers = true;
  setup.volume_latency_ns = *rc::gen::element<int64_t>(1'000'000'000, 2'500'000'000);
  setup.feature_gates[std::string(reference::kNominatedNodeNameForExpectation)] = false;
  const int timeout = *rc::gen::inRange(0, 4) == 0 ? 2 : 0;
  setup.config_yaml =
      VolumeBindingArgsConfig(R"({"bindTimeoutSeconds": )" + std::to_string(timeout) + "}");
  RequireEquivalent(RealizeTraceAs(s.records, OptionsFor(seed, setup)), seed,
                    "KubeDifferential_NominationForExpectationOff", true, setup);
}

// Pod groups (GangTraceGen) with --feature-gates GenericWorkload=true. Until the reference models
// gang scheduling (it refuses pods that name a pod group with the gate on), the traces run through
// kube-scheduler v1.37.2 alone: twice, with identical decisions (Permit's waits and timeouts are
// on the virtual clock, the pod-group cycle's binding cycles run in order). Building with
// -DSCHEDCHECK_GANG_REFERENCE (properties/BUILD.bazel, kube_differential_1_37_test's copts) adds
// the property that the reference and v1.37.2 agree on them. Cost on 2 shared cores: the
// determinism property about 12 s for RapidCheck's default 100 cases (two kube replays each),
// the non-vacuity sample about 5 s.
RunSetup GangSetup() {
  RunSetup setup;
  setup.feature_gates[std::string(reference::kGenericWorkload)] = true;
  return setup;
}

// What a gang trace's kube log reached: gang pods bound, gang pods never attempted (held at
// PreEnqueue) and Permit timeouts.
struct GangOutcomes {
  int bound = 0;
  int never_attempted = 0;
  int timed_out = 0;
  int preemptions = 0;  // attempts that preempted
};

GangOutcomes GangOutcomesOf(const std::vector<trace::Record>& records,
                            const std::vector<trace::Record>& log) {
  std::set<std::string> members, attempted;
  for (const trace::Record& r : records) {
    if (r.has_api() && r.api().has_pod() && r.api().pod().spec().has_scheduling_group())
      members.insert(r.api().pod().metadata().namespace_() + "/" + r.api().pod().metadata().name());
  }
  GangOutcomes o;
  for (const trace::Record& r : log) {
    if (r.has_binding() && members.count(r.binding().pod()) > 0) ++o.bound;
    if (!r.has_attempt()) continue;
    attempted.insert(r.attempt().pod());
    if (!r.attempt().victims().empty()) ++o.preemptions;
    if (r.attempt().message().find("rejected due to timeout") != std::string::npos) ++o.timed_out;
  }
  for (const std::string& m : members) o.never_attempted += attempted.count(m) == 0 ? 1 : 0;
  return o;
}

// Requires two kube replays of `records` to give the same decisions; returns them.
std::vector<trace::Record> ReplayKubeTwice(const std::vector<trace::Record>& records,
                                           const std::string& property) {
  const std::vector<trace::Record> first = ReplayKube(records, 1, property, GangSetup());
  const std::vector<trace::Record> second = ReplayKube(records, 1, property, GangSetup());
  PROP_REQUIRE(first.size() == second.size(), property, records,
               "two kube replays differ in length: " + std::to_string(first.size()) + " and " +
                   std::to_string(second.size()) + " decisions");
  for (size_t i = 0; i < first.size(); ++i) {
    PROP_REQUIRE(first[i].SerializeAsString() == second[i].SerializeAsString(), property, records,
                 "two kube replays differ at decision " + std::to_string(i) + ":\n  " +
                     first[i].ShortDebugString() + "\n  " + second[i].ShortDebugString());
  }
  return first;
}

RC_GTEST_PROP(KubeDifferentialGangs, GangTracesReplayIdenticallyThroughKube, ()) {
  const std::vector<trace::Record> records = *generators::GangTraceGen();
  const std::vector<trace::Record> log = ReplayKubeTwice(records, "KubeDifferential_GangTwice");
  const GangOutcomes o = GangOutcomesOf(records, log);
  RC_TAG(o.bound > 0 ? "gang pods bound" : "-", o.never_attempted > 0 ? "held" : "-",
         o.timed_out > 0 ? "permit timeout" : "-", o.preemptions > 0 ? "preemption" : "-");
}

// Non-vacuity: over a fixed sample of gang traces, kube:1.37 binds gang pods, holds some at
// PreEnqueue, times some out at Permit and preempts for some (so the generators reach each).
TEST(KubeDifferentialGangs, GangTracesReachEveryOutcome) {
  GangOutcomes total;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    auto records = generators::Sample<std::vector<trace::Record>>(
        seed, [] { return *generators::GangTraceGen(); });
    ASSERT_TRUE(records.ok()) << records.message();
    protocol::ExternalReplay run =
        Adapter().Replay(*records, protocol::HelloFor(OptionsFor(1, GangSetup()), "", ""));
    ASSERT_TRUE(run.status.ok()) << "seed " << seed << ": " << run.status.message();
    const GangOutcomes o = GangOutcomesOf(*records, run.decisions);
    total.bound += o.bound;
    total.never_attempted += o.never_attempted;
    total.timed_out += o.timed_out;
    total.preemptions += o.preemptions;
  }
  EXPECT_GT(total.bound, 0);
  EXPECT_GT(total.never_attempted, 0);
  EXPECT_GT(total.timed_out, 0);
  EXPECT_GT(total.preemptions, 0);
}

#ifdef SCHEDCHECK_GANG_REFERENCE
RC_GTEST_PROP(KubeDifferentialGangs, GangTracesAreEquivalent, ()) {
  const std::vector<trace::Record> records = *generators::GangTraceGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  RequireEquivalent(records, seed, "KubeDifferential_Gangs", true, GangSetup());
}
#endif

// The adapter sets Hello.feature_gates on upstream's feature gate: a gate upstream does not know
// fails the run naming it, and the next run (same process) starts from the defaults again.
TEST(KubeDifferentialGates, AdapterSetsHelloFeatureGates) {
  ClusterCase c;
  c.nodes.emplace_back().mutable_metadata()->set_name("n1");
  (*c.nodes[0].mutable_status()->mutable_allocatable())["pods"] = "10";
  c.pod.mutable_metadata()->set_name("p");
  c.pod.mutable_metadata()->set_namespace_("default");
  c.pod.mutable_spec()->add_containers()->set_name("c");
  const std::vector<trace::Record> records = CaseAsTrace(c);
  replay::ReplayOptions options;
  options.compat = kLevel.compat;
  options.feature_gates = {{"NoSuchGate", true}};
  protocol::ExternalReplay bad = Adapter().Replay(records, protocol::HelloFor(options, "", ""));
  ASSERT_FALSE(bad.status.ok());
  EXPECT_NE(bad.status.message().find("NoSuchGate"), std::string::npos) << bad.status.message();
  options.feature_gates = {{std::string(reference::kOpportunisticBatching), false}};
  protocol::ExternalReplay off = Adapter().Replay(records, protocol::HelloFor(options, "", ""));
  EXPECT_TRUE(off.status.ok()) << off.status.message();
  options.feature_gates.clear();
  protocol::ExternalReplay defaults =
      Adapter().Replay(records, protocol::HelloFor(options, "", ""));
  EXPECT_TRUE(defaults.status.ok()) << defaults.status.message();
}
#endif

}  // namespace
}  // namespace schedcheck::properties
