// A pair replay gives each side its own build and configuration: two builds with the same
// configuration agree, one build with two configurations diverges, and an out-of-process baseline
// (`schedcheck serve` as an exec: child) is sent its own configuration, not the candidate's.
#include "harness/gate/pair_replay.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "traces/trace_file.h"

namespace schedcheck::gate {
namespace {

constexpr char kMostAllocated[] = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
)";

std::string WriteTemp(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string Schedcheck() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir == nullptr ? "." : srcdir) + "/schedcheck/harness/cli/schedcheck";
}

reference::SchedulerConfiguration MostAllocated() {
  auto c = reference::LoadSchedulerConfiguration(WriteTemp("most.yaml", kMostAllocated), "1.27");
  EXPECT_TRUE(c.ok()) << c.message();
  return c.ok() ? *c : reference::DefaultConfiguration("1.27");
}

PairSide Side(const std::string& name, const std::string& spec,
              const reference::SchedulerConfiguration& config, const std::string& yaml = "") {
  auto c = candidates::MakeCandidate(spec, config);
  EXPECT_TRUE(c.ok()) << c.message();
  return PairSide{name, c.ok() ? *c : candidates::Candidate{}, yaml, yaml.empty() ? "" : "x.yaml"};
}

std::vector<trace::Record> Trace(const std::string& name) {
  auto t = trace::LoadTrace("traces/corpus/" + name);
  EXPECT_TRUE(t.ok()) << t.message();
  return t.ok() ? t->records : std::vector<trace::Record>{};
}

PairReplayOptions Options(PairSide baseline, PairSide candidate) {
  PairReplayOptions o;
  o.replay.compat = "1.27";
  o.baseline = std::move(baseline);
  o.candidate = std::move(candidate);
  return o;
}

TEST(PairReplayTest, SameBuildAndConfigurationOnBothSidesAgree) {
  PairReplay pair(Options(Side("baseline", "forget-events:NodeResourcesFit", MostAllocated()),
                          Side("candidate", "forget-events:NodeResourcesFit", MostAllocated())));
  auto logs = pair.Run(Trace("requeue-pod-delete.jsonl"));
  ASSERT_TRUE(logs.ok()) << logs.message();
  EXPECT_FALSE(logs->baseline.empty());
  EXPECT_TRUE(logs->diff.divergences.empty()) << diff::Describe(logs->diff.divergences.front());
  EXPECT_EQ(FirstDifference(logs->baseline, logs->candidate), "");
  EXPECT_EQ(pair.children_started(), 0);
}

TEST(PairReplayTest, EachSideReplaysItsOwnBuild) {
  // The baseline forgets NodeResourcesFit's events: its pods wait for the flush; the candidate,
  // the reference, requeues them at the pod deletion.
  PairReplay pair(Options(
      Side("baseline", "forget-events:NodeResourcesFit", reference::DefaultConfiguration("1.27")),
      ReferenceSide(reference::DefaultConfiguration("1.27"))));
  auto logs = pair.Run(Trace("requeue-pod-delete.jsonl"));
  ASSERT_TRUE(logs.ok()) << logs.message();
  ASSERT_FALSE(logs->diff.divergences.empty());
  EXPECT_EQ(logs->diff.divergences.front().cls, diff::DivergenceClass::kRequeue)
      << diff::Describe(logs->diff.divergences.front());
}

TEST(PairReplayTest, OutOfProcessBaselineIsSentItsOwnConfiguration) {
  // Both sides run MostAllocated: the baseline because its child is sent that text, the candidate
  // in process. Had the child been sent the candidate's (or no) configuration, placements would
  // differ on scheduling-basic.
  PairReplay agree(Options(Side("baseline", "exec:\"" + Schedcheck() + " serve\"",
                                reference::DefaultConfiguration("1.27"), kMostAllocated),
                           Side("candidate", "reference", MostAllocated())));
  auto same = agree.Run(Trace("scheduling-basic.jsonl"));
  ASSERT_TRUE(same.ok()) << same.message();
  EXPECT_TRUE(same->diff.divergences.empty()) << diff::Describe(same->diff.divergences.front());
  auto again = agree.Run(Trace("scheduling-basic.jsonl"));
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(agree.children_started(), 1) << "the second replay should reuse the child";
  EXPECT_TRUE(agree.Close().ok());

  PairReplay differ(Options(Side("baseline", "exec:\"" + Schedcheck() + " serve\"",
                                 reference::DefaultConfiguration("1.27"), kMostAllocated),
                            ReferenceSide(reference::DefaultConfiguration("1.27"))));
  auto other = differ.Run(Trace("scheduling-basic.jsonl"));
  ASSERT_TRUE(other.ok()) << other.message();
  EXPECT_FALSE(other->diff.divergences.empty());
  EXPECT_NE(FirstDifference(other->baseline, other->candidate), "");
  EXPECT_TRUE(differ.Close().ok());
}

TEST(PairReplayTest, ErrorsNameTheSide) {
  PairReplay pair(Options(Side("baseline", "exec:exit 3", reference::DefaultConfiguration("1.27")),
                          ReferenceSide(reference::DefaultConfiguration("1.27"))));
  auto logs = pair.Run(Trace("scheduling-basic.jsonl"));
  ASSERT_FALSE(logs.ok());
  EXPECT_EQ(logs.message().rfind("baseline replay: ", 0), 0u) << logs.message();
}

TEST(FirstDifferenceTest, NamesTheFirstDifferingRecord) {
  std::vector<trace::Record> a = Trace("requeue-pod-delete.jsonl");
  PairReplay pair(Options(ReferenceSide(reference::DefaultConfiguration("1.27")),
                          ReferenceSide(reference::DefaultConfiguration("1.27"))));
  auto logs = pair.Run(a);
  ASSERT_TRUE(logs.ok()) << logs.message();
  std::vector<trace::Record> shorter = logs->baseline;
  ASSERT_GE(shorter.size(), 3u);
  shorter.pop_back();
  const std::string n = std::to_string(logs->baseline.size());
  EXPECT_EQ(FirstDifference(logs->baseline, shorter).rfind("record " + n + ": {", 0), 0u)
      << FirstDifference(logs->baseline, shorter);
  EXPECT_NE(FirstDifference(logs->baseline, shorter).find(" vs (none)"), std::string::npos);
  std::vector<trace::Record> changed = logs->baseline;
  changed[1].set_time_ns(changed[1].time_ns() + 1'000'000'000);
  EXPECT_EQ(FirstDifference(logs->baseline, changed).rfind("record 2: ", 0), 0u);
}

}  // namespace
}  // namespace schedcheck::gate
