// Minimization end to end: a fake oracle pins the passes (events, objects, fields, validity,
// budget); planted divergences — NodeResourcesFit scoring MostAllocated instead of LeastAllocated
// (a soft divergence: a moved placement) and a plugin that forgets its cluster events (a requeue
// divergence) — in generated workloads of 200+ events are reduced to at most 10 events that still
// diverge the same way, in process and through `schedcheck serve` as an exec: child.
#include "harness/minimize/minimize.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "harness/candidates/candidate.h"
#include "harness/gate/pair_replay.h"
#include "harness/workloads/workloads.h"

namespace schedcheck::minimize {
namespace {

trace::Record Event(int64_t t, trace::EventType type, const std::string& node_or_pod, bool pod) {
  trace::Record r;
  r.set_time_ns(t);
  r.mutable_api()->set_type(type);
  if (pod) {
    r.mutable_api()->mutable_pod()->mutable_metadata()->set_name(node_or_pod);
    (*r.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels())["bug"] = "yes";
    (*r.mutable_api()->mutable_pod()->mutable_metadata()->mutable_labels())["noise"] = "x";
  } else {
    r.mutable_api()->mutable_node()->mutable_metadata()->set_name(node_or_pod);
  }
  return r;
}

diff::DiffResult Diverging(const std::string& pod) {
  diff::DiffResult r;
  diff::Divergence d;
  d.cls = diff::DivergenceClass::kHard;
  d.pod = pod;
  r.divergences.push_back(d);
  return r;
}

// The fake "candidate" diverges on default/p25 when it arrives with label bug after node n3 was
// marked ready (a MODIFIED in the middle of the trace, so that halves without n3's ADDED are
// invalid).
TEST(Minimize, FakeOracleKeepsExactlyWhatTheDivergenceNeeds) {
  std::vector<trace::Record> input;
  for (int i = 0; i < 10; ++i)
    input.push_back(Event(0, trace::ADDED, "n" + std::to_string(i), false));
  for (int i = 0; i < 20; ++i)
    input.push_back(Event(1 + i, trace::ADDED, "p" + std::to_string(i), true));
  input.push_back(Event(30, trace::MODIFIED, "n3", false));
  (*input.back().mutable_api()->mutable_node()->mutable_metadata()->mutable_labels())["ready"] =
      "true";
  for (int i = 20; i < 40; ++i)
    input.push_back(Event(31 + i, trace::ADDED, "p" + std::to_string(i), true));
  int invalid_seen = 0;
  DiffOracle oracle = [&](const std::vector<trace::Record>& records) -> Result<Verdict> {
    bool n3 = false, ready = false;
    for (const trace::Record& r : records) {
      if (r.api().has_node() && r.api().node().metadata().name() == "n3") {
        if (r.api().type() == trace::MODIFIED && !n3) ++invalid_seen;
        n3 = true;
        ready = r.api().node().metadata().labels().count("ready") > 0;
      }
      if (r.api().has_pod() && r.api().pod().metadata().name() == "p25" && ready &&
          r.api().pod().metadata().labels().count("bug")) {
        return Verdict{Diverging("default/p25"), {}};
      }
    }
    return Verdict{};
  };
  auto m = Minimize(input, oracle);
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(m->diverges);
  EXPECT_EQ(m->target.pod, "default/p25");
  ASSERT_EQ(m->records.size(), 3u);
  EXPECT_EQ(m->records[0].api().node().metadata().name(), "n3");
  EXPECT_EQ(m->records[1].api().type(), trace::MODIFIED);
  EXPECT_EQ(m->records[2].api().pod().metadata().name(), "p25");
  EXPECT_EQ(m->records[2].api().pod().metadata().labels().count("noise"), 0u);
  EXPECT_EQ(m->records[2].api().pod().metadata().labels().count("bug"), 1u);
  EXPECT_EQ(m->stats.events_before, 51u);
  EXPECT_EQ(m->stats.events_after, 3u);
  EXPECT_EQ(m->stats.objects_before, 50u);
  EXPECT_EQ(m->stats.objects_after, 2u);
  EXPECT_EQ(m->stats.fields_after, 2u);  // n3's ready, p25's bug
  EXPECT_EQ(invalid_seen, 0) << "a MODIFIED without its ADDED was replayed";
  EXPECT_GT(m->stats.invalid_skipped, 0);
  EXPECT_FALSE(m->stats.budget_exhausted);
}

TEST(Minimize, AnEquivalentInputIsNotMinimizedAndTheBudgetHolds) {
  std::vector<trace::Record> input = {
      Event(0, trace::ADDED, "n1", false), Event(0, trace::ADDED, "n2", false),
      Event(1, trace::ADDED, "p7", true), Event(2, trace::ADDED, "p8", true)};
  auto none = Minimize(input, [](const auto&) -> Result<Verdict> { return Verdict{}; });
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->diverges);
  int64_t calls = 0;
  auto budgeted = Minimize(input,
                           [&](const auto&) -> Result<Verdict> {
                             return ++calls, Verdict{Diverging("default/p7"), {}};
                           },
                           {.max_replays = 1});
  ASSERT_TRUE(budgeted.ok());
  EXPECT_EQ(calls, 2);  // the input and one reduction
  EXPECT_EQ(budgeted->stats.replays, 2);
  EXPECT_TRUE(budgeted->stats.budget_exhausted);
  auto bad = Minimize(input, [](const auto&) -> Result<Verdict> { return Error{"record 3: bad"}; });
  EXPECT_FALSE(bad.ok());
}

std::string TmpFile(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string MostAllocatedConfig() {
  return TmpFile("most-allocated.yaml", R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
)");
}

workloads::Workload Generate(const std::string& shape, workloads::WorkloadParams params) {
  auto w = workloads::Generate(shape, params);
  EXPECT_TRUE(w.ok()) << w.message();
  return std::move(*w);
}

gate::PairReplayOptions Options(const std::string& spec) {
  gate::PairReplayOptions o;
  o.replay.compat = "1.27";
  o.replay.epoch_unix_ns = 1'704'067'200'000'000'000;  // workloads' start_time, 2024-01-01
  o.baseline = gate::ReferenceSide(reference::DefaultConfiguration("1.27"));
  auto c = candidates::MakeCandidate(spec, reference::DefaultConfiguration("1.27"));
  EXPECT_TRUE(c.ok()) << c.message();
  o.candidate = {"candidate", std::move(*c), "", ""};
  return o;
}

// Minimizes with `pair`, then checks the promise: at most 10 events, and a fresh replay of the
// result diverges the same way (class and first pod) as the input.
void ExpectReduced(gate::PairReplay& pair, const std::vector<trace::Record>& input,
                   diff::DivergenceClass want) {
  auto m = Minimize(input, [&](const auto& records) -> Result<Verdict> {
    auto logs = pair.Run(records);
    if (!logs.ok()) return logs.error();
    return VerdictOf(logs->baseline, std::move(logs->diff));
  });
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(m->diverges);
  EXPECT_EQ(m->target.cls, want) << diff::Describe(m->target);
  EXPECT_LE(m->records.size(), 10u);
  EXPECT_FALSE(m->stats.budget_exhausted);
  auto again = pair.Run(m->records);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_TRUE(SameDivergence(again->diff, m->target))
      << (again->diff.divergences.empty() ? "none"
                                          : diff::Describe(again->diff.divergences.front()));
  std::printf("%s: events %zu -> %zu, objects %zu -> %zu, fields %zu -> %zu, replays %lld\n",
              diff::Describe(m->target).c_str(), m->stats.events_before, m->stats.events_after,
              m->stats.objects_before, m->stats.objects_after, m->stats.fields_before,
              m->stats.fields_after, static_cast<long long>(m->stats.replays));
}

TEST(Minimize, PlantedMostAllocatedInProcess) {
  workloads::Workload w = Generate(
      "SchedulingBasic", {.nodes = 30, .initial_pods = 40, .measured_pods = 200, .seed = 7});
  ASSERT_GE(w.trace.records.size(), 200u);
  gate::PairReplay pair(Options("config:" + MostAllocatedConfig()));
  ExpectReduced(pair, w.trace.records, diff::DivergenceClass::kSoft);
}

TEST(Minimize, PlantedForgottenEventsInProcess) {
  // NodeAffinity registers no cluster events: the ssd pods it rejected wait for the periodic flush
  // instead of moving when the ssd nodes are added.
  workloads::Workload w = Generate(
      "RequeueNodeAdd", {.nodes = 20, .initial_pods = 100, .measured_pods = 100, .seed = 3});
  ASSERT_GE(w.trace.records.size(), 200u);
  gate::PairReplay pair(Options("forget-events:NodeAffinity"));
  ExpectReduced(pair, w.trace.records, diff::DivergenceClass::kRequeue);
}

TEST(Minimize, PlantedMostAllocatedThroughAnExecChild) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const std::string schedcheck =
      std::string(srcdir == nullptr ? "." : srcdir) + "/schedcheck/harness/cli/schedcheck";
  workloads::Workload w = Generate(
      "SchedulingBasic", {.nodes = 20, .initial_pods = 30, .measured_pods = 160, .seed = 11});
  ASSERT_GE(w.trace.records.size(), 200u);
  // serve --config wins over the configuration the harness sends.
  gate::PairReplay pair(
      Options("exec:\"" + schedcheck + " serve --config " + MostAllocatedConfig() + "\""));
  ExpectReduced(pair, w.trace.records, diff::DivergenceClass::kSoft);
  EXPECT_EQ(pair.children_started(), 1) << "every replay should reuse the one child";
  EXPECT_TRUE(pair.Close().ok());
}

}  // namespace
}  // namespace schedcheck::minimize
