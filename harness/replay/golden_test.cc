// Replays every corpus trace and compares with its golden decision log; replays twice to check
// byte-identical output; and checks the unblock scenario's timing facts directly, so the test
// does not only trust the golden file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "traces/trace_file.h"

namespace schedcheck::replay {
namespace {

namespace fs = std::filesystem;

std::string Root() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<std::string> ReplayToJsonLines(const std::string& name,
                                      reference::Engine engine = reference::Engine::kFast,
                                      const std::string& compat = "1.27") {
  std::string trace_path = Root() + "traces/corpus/" + name + ".jsonl";
  auto trace = trace::LoadTrace(trace_path);
  if (!trace.ok()) return trace.error();
  ReplayOptions options;
  options.engine = engine;
  options.compat = compat;
  std::string config = Root() + "traces/corpus/" + name + ".config.yaml";
  if (fs::exists(config)) {
    auto c = reference::LoadSchedulerConfiguration(config, compat);
    if (!c.ok()) return c.error();
    options.config = *c;
  } else {
    options.config = reference::DefaultConfiguration(compat);
  }
  if (Outcome ok = ApplyHeaderVolumeLabels(trace->header, &options); !ok) return ok.error();
  auto start = trace->header.labels().find("start_time");
  if (start != trace->header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return epoch.error();
    options.epoch_unix_ns = *epoch;
  }
  auto replayer = Replayer::Create(options);
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(trace->records); !ok) return ok.error();
  return (*replayer)->log().ToJsonLines();
}

TEST(GoldenTest, EveryCorpusTraceMatchesItsGoldenLogAndIsDeterministic) {
  int traces = 0;
  for (const auto& entry : fs::directory_iterator(Root() + "traces/corpus")) {
    if (entry.path().extension() != ".jsonl") continue;
    std::string name = entry.path().stem().string();
    ++traces;
    auto first = ReplayToJsonLines(name);
    ASSERT_TRUE(first.ok()) << name << ": " << first.message();
    auto second = ReplayToJsonLines(name);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(*first, *second) << name << ": two replays differ";
    // The plain rules give the same bytes (the fast engine is only an accelerator).
    auto plain = ReplayToJsonLines(name, reference::Engine::kPlain);
    ASSERT_TRUE(plain.ok()) << name << " (plain): " << plain.message();
    EXPECT_EQ(*plain, *first) << name << ": the plain and fast engines differ";
    std::string golden = ReadFile(Root() + "golden/" + name + "/decisions.jsonl");
    EXPECT_EQ(*first, golden)
        << name << ": differs from golden/" << name
        << "/decisions.jsonl (regenerate with ci/update_golden.sh if intended)";
  }
  EXPECT_GE(traces, 1);
}

// The same at compatibility level 1.37 (golden/<trace>/decisions-1.37.jsonl), fast engine (the
// plain one is held equal to it by //properties:engine_equivalence_1_37_test).
TEST(GoldenTest, EveryCorpusTraceMatchesItsGoldenLogAtCompat137) {
  int traces = 0;
  for (const auto& entry : fs::directory_iterator(Root() + "traces/corpus")) {
    if (entry.path().extension() != ".jsonl") continue;
    std::string name = entry.path().stem().string();
    ++traces;
    auto first = ReplayToJsonLines(name, reference::Engine::kFast, "1.37");
    ASSERT_TRUE(first.ok()) << name << ": " << first.message();
    auto second = ReplayToJsonLines(name, reference::Engine::kFast, "1.37");
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(*first, *second) << name << ": two replays at 1.37 differ";
    std::string golden = ReadFile(Root() + "golden/" + name + "/decisions-1.37.jsonl");
    EXPECT_EQ(*first, golden)
        << name << ": differs from golden/" << name
        << "/decisions-1.37.jsonl (regenerate with ci/update_golden.sh if intended)";
  }
  EXPECT_GE(traces, 1);
}

// At 1.37 the same pods are bound at the same times, moved by v1.37's events and queueing hints:
// the taint removal is NodeUpdateNodeTaint (TaintToleration's hint: Queue), the new node NodeAdd,
// the freed capacity AssignedPodDelete, the lifted gate the pod's own update; CreationDelay still
// registers nothing, so only the leftover flush moves its pod.
TEST(GoldenTest, UnblockScenarioAtCompat137) {
  auto log = ReplayToJsonLines("unblock", reference::Engine::kFast, "1.37");
  ASSERT_TRUE(log.ok()) << log.message();
  auto bound_at = [&](const std::string& pod, const std::string& t) {
    return log->find("{\"t\":" + t + ",\"type\":\"bind\",\"pod\":\"default/" + pod + "\"") !=
           std::string::npos;
  };
  EXPECT_TRUE(bound_at("needs-untainted", "10")) << *log;
  EXPECT_TRUE(bound_at("needs-ssd", "20"));
  EXPECT_TRUE(bound_at("needs-n1", "30"));
  EXPECT_TRUE(bound_at("gated", "40"));
  EXPECT_TRUE(bound_at("delayed", "330"));
  EXPECT_NE(log->find("\"cause\":\"NodeUpdateNodeTaint\""), std::string::npos) << *log;
  EXPECT_NE(log->find("\"cause\":\"UnschedulableTimeout\""), std::string::npos);
}

// The times at which each pod is bound follow from v1.27's event registrations alone.
TEST(GoldenTest, UnblockScenarioBindsEachPodRightAfterItsEvent) {
  auto log = ReplayToJsonLines("unblock");
  ASSERT_TRUE(log.ok()) << log.message();
  auto bound_at = [&](const std::string& pod, const std::string& t) {
    return log->find("{\"t\":" + t + ",\"type\":\"bind\",\"pod\":\"default/" + pod + "\"") !=
           std::string::npos;
  };
  EXPECT_TRUE(bound_at("needs-untainted", "10"))
      << "NodeTaintChange moves a TaintToleration rejection";
  EXPECT_TRUE(bound_at("needs-ssd", "20")) << "NodeAdd moves a NodeAffinity rejection";
  EXPECT_TRUE(bound_at("needs-n1", "30")) << "AssignedPodDelete moves a NodeResourcesFit rejection";
  EXPECT_TRUE(bound_at("gated", "40")) << "the update lifting the gate";
  // CreationDelay registers nothing: only the leftover flush at the first 30 s tick more than
  // 300 s after its failure (t = 1 s) moves it.
  EXPECT_TRUE(bound_at("delayed", "330")) << *log;
}

// Preemption under churn: the expectations follow from pickOneNodeForPreemption's criteria.
TEST(GoldenTest, PreemptionChurnPicksVictimsByUpstreamCriteria) {
  auto log = ReplayToJsonLines("preemption-churn");
  ASSERT_TRUE(log.ok()) << log.message();
  // critical-0 (3 cpu) needs both pods of a node; the batch nodes violate a PDB, the web nodes
  // tie on every criterion but the last: n4's top victim started latest.
  EXPECT_NE(
      log->find(
          "\"pod\":\"default/critical-0\",\"attempt\":1,\"result\":\"Unschedulable\","
          "\"unschedulablePlugins\":[\"NodeResourcesFit\"],\"message\":\"0/4 nodes are available: "
          "4 "
          "Insufficient "
          "cpu.\",\"nominatedNode\":\"n4\",\"victims\":[\"default/web-6\",\"default/web-7\"]}"),
      std::string::npos)
      << *log;
  // critical-1 (2 cpu) keeps the more important (earlier started) web-2 and evicts only web-3.
  EXPECT_NE(log->find("\"nominatedNode\":\"n2\",\"victims\":[\"default/web-3\"]"),
            std::string::npos);
  // preemptionPolicy Never: no preemption, and the exact upstream message.
  EXPECT_NE(log->find("preemption: not eligible due to preemptionPolicy=Never..\""),
            std::string::npos);
  EXPECT_NE(log->find("{\"t\":15,\"type\":\"bind\",\"pod\":\"default/polite-0\",\"node\":\"n2\"}"),
            std::string::npos);
}

}  // namespace
}  // namespace schedcheck::replay
