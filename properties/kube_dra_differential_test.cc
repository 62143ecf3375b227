// Dynamic Resource Allocation against the real kube-scheduler v1.37.2 (//harness/kube:
// kube-adapter-1.37, a child process over the protocol), on the DRA generator's traces
// (harness/generators/dra_generators.h):
//
// - KubeDra.AdapterRepeatsItselfOnDraTraces: every trace replayed twice through the adapter gives
//   byte-identical decision logs, over every feature switch; the traces are not vacuous (pods get
//   devices and pods are unschedulable for DynamicResources' reasons), and the distribution of
//   outcomes is printed.
// - KubeDraDifferential.DraScenariosAreEquivalent: the reference at compat 1.37 and kube-scheduler
//   v1.37.2 decide alike, on traces that use only the DRA features the reference models
//   (kReferenceModelsDra, or $SCHEDCHECK_DRA_REFERENCE_MODELS). While that is "none" the property
//   is skipped and says so.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/diff/diff.h"
#include "harness/generators/dra_generators.h"
#include "harness/generators/sample.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "reference/k8s/k8s_json.h"
#include "reference/runtime/profile.h"

namespace schedcheck::properties {
namespace {

// The DRA features the reference models, as DRA generator switches (ParseDraFeatures: "base",
// "partitions", ..., "all"), or "none". The ref-vs-kube property draws traces with exactly these;
// "none" skips it. $SCHEDCHECK_DRA_REFERENCE_MODELS (--test_env) overrides it for one run.
constexpr char kReferenceModelsDra[] =
    "base,partitions,consumable-capacity,prioritized-lists,device-taints";

// How many traces the determinism property replays (each twice); $SCHEDCHECK_DRA_TRACES
// overrides it.
constexpr int kDeterminismTraces = 300;

constexpr char kCompat[] = "1.37";

std::string AdapterPath() {
  const char* dir = std::getenv("TEST_SRCDIR");
  return std::string(dir == nullptr ? "." : dir) + "/schedcheck/harness/kube/kube-adapter-1.37";
}

protocol::ReplaySession& Adapter() {
  static protocol::ReplaySession* session = new protocol::ReplaySession(AdapterPath());
  return *session;
}

replay::ReplayOptions OptionsFor(uint64_t seed) {
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration(kCompat);
  options.compat = kCompat;
  options.seed = seed;
  return options;
}

// The adapter's decision log, or an error naming what failed.
Result<std::vector<trace::Record>> ReplayKube(const std::vector<trace::Record>& records,
                                              uint64_t seed) {
  protocol::ExternalReplay run =
      Adapter().Replay(records, protocol::HelloFor(OptionsFor(seed), "", ""));
  if (!run.status.ok()) return Error{"the kube adapter failed: " + run.status.message()};
  return run.decisions;
}

std::string LogText(const std::vector<trace::Record>& log) {
  std::string text;
  for (const trace::Record& r : log) text += k8s::ToJson(r) + "\n";
  return text;
}

// The feature switches of the i-th trace: base, every switch alone, and all of them, in turn.
generators::DraFeatures FeaturesFor(uint64_t i) {
  const char* const sets[] = {"base",
                              "partitions",
                              "consumable-capacity",
                              "device-taints",
                              "prioritized-lists",
                              "extended-resources",
                              "all",
                              "all"};
  return *generators::ParseDraFeatures(sets[i % (sizeof sets / sizeof sets[0])]);
}

int TraceCount() {
  const char* env = std::getenv("SCHEDCHECK_DRA_TRACES");
  return env != nullptr ? std::atoi(env) : kDeterminismTraces;
}

// What a decision log holds, counted over traces for the printed distribution.
struct Tally {
  std::map<std::string, int> traces;  // outcome class -> traces showing it
  int attempts = 0, scheduled = 0, dra_unschedulable = 0, other_unschedulable = 0, errors = 0;

  void Add(const std::vector<trace::Record>& log) {
    bool bound = false, dra = false, error = false;
    for (const trace::Record& r : log) {
      if (!r.has_attempt()) continue;
      const trace::Attempt& a = r.attempt();
      ++attempts;
      if (a.result() == trace::SCHEDULED) {
        ++scheduled;
        bound = true;
      } else if (a.result() == trace::ERROR) {
        ++errors;
        error = true;
      } else {
        bool by_dra = false;
        for (const std::string& p : a.unschedulable_plugins()) by_dra |= p == "DynamicResources";
        ++(by_dra ? dra_unschedulable : other_unschedulable);
        dra |= by_dra;
      }
    }
    ++traces[std::string(bound ? "bound" : "-") + " " + (dra ? "dra-unschedulable" : "-") + " " +
             (error ? "error" : "-")];
  }

  std::string Text() const {
    std::string out = "attempts " + std::to_string(attempts) + ": scheduled " +
                      std::to_string(scheduled) + ", unschedulable by DynamicResources " +
                      std::to_string(dra_unschedulable) + ", unschedulable otherwise " +
                      std::to_string(other_unschedulable) + ", error " + std::to_string(errors) +
                      "\ntraces by outcome:";
    for (const auto& [k, n] : traces) out += "\n  " + std::to_string(n) + "  " + k;
    return out;
  }
};

TEST(KubeDra, AdapterRepeatsItselfOnDraTraces) {
  const int n = TraceCount();
  std::cout << "replaying " << n << " generated DRA traces twice through kube-scheduler v1.37.2"
            << std::endl;
  Tally tally;
  for (int i = 1; i <= n; ++i) {
    const generators::DraFeatures features = FeaturesFor(i);
    auto s = generators::Sample<generators::WideScenario>(
        i, [&] { return *generators::DraScenarioGen(features); });
    ASSERT_TRUE(s.ok()) << "trace " << i << ": " << s.message();
    const std::string what = "trace " + std::to_string(i) + " (switches " + features.Names() +
                             "; Sample seed " + std::to_string(i) + ")";
    auto first = ReplayKube(s->records, i);
    auto second = ReplayKube(s->records, i);
    ASSERT_TRUE(first.ok() && second.ok())
        << what << ": " << (first.ok() ? second.message() : first.message()) << "\n"
        << SaveCounterexample("KubeDra_Determinism", s->records);
    ASSERT_EQ(LogText(*first), LogText(*second))
        << what << ": two replays differ\n"
        << SaveCounterexample("KubeDra_Determinism", s->records);
    tally.Add(*first);
  }
  std::cout << tally.Text() << std::endl;
  // Not vacuous: devices are given, and refused for DRA reasons.
  EXPECT_GT(tally.scheduled, 0) << tally.Text();
  EXPECT_GT(tally.dra_unschedulable, 0) << tally.Text();
}

// Reference vs kube-scheduler v1.37.2 on DRA traces of the modelled features.
TEST(KubeDraDifferential, DraScenariosAreEquivalent) {
  const char* env = std::getenv("SCHEDCHECK_DRA_REFERENCE_MODELS");
  const std::string models = env != nullptr ? env : kReferenceModelsDra;
  if (models == "none") {
    GTEST_SKIP() << "the reference models no DRA feature yet (kReferenceModelsDra in "
                    "properties/kube_dra_differential_test.cc, or "
                    "--test_env=SCHEDCHECK_DRA_REFERENCE_MODELS=base,...)";
  }
  const auto features = generators::ParseDraFeatures(models);
  ASSERT_TRUE(features.ok()) << features.message();
  const bool ok = rc::check("DRA scenarios (" + features->Names() + ") are equivalent", [&] {
    const generators::WideScenario s = *generators::DraScenarioGen(*features);
    const uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
    auto replayer = replay::Replayer::Create(OptionsFor(seed));
    if (!replayer.ok()) RC_FAIL("replayer: " + replayer.message());
    if (Outcome run = (*replayer)->Run(s.records); !run)
      RC_FAIL("reference replay failed: " + run.message());
    const std::vector<trace::Record> reference = (*replayer)->log().records();
    auto kube = ReplayKube(s.records, seed);
    PROP_REQUIRE(kube.ok(), "KubeDra_Differential", s.records, kube.message());
    const diff::DiffResult result = diff::Diff(reference, *kube);
    const std::string sd = std::to_string(seed);
    PROP_REQUIRE(result.divergences.empty(), "KubeDra_Differential", s.records,
                 std::to_string(result.divergences.size()) +
                     " divergences (reference vs kube-scheduler v1.37.2, seed " + sd +
                     "); first: " +
                     (result.divergences.empty() ? "" : diff::Describe(result.divergences[0])) +
                     "\nreproduce: schedcheck replay TRACE --compat 1.37 --seed " + sd +
                     " --jsonl ref.jsonl && schedcheck replay TRACE --seed " + sd +
                     " --candidate kube:1.37 --jsonl kube.jsonl && schedcheck diff ref.jsonl "
                     "kube.jsonl");
  });
  EXPECT_TRUE(ok);
}

}  // namespace
}  // namespace schedcheck::properties
