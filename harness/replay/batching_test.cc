// v1.37's OpportunisticBatching in replay (reference/scheduler/opportunistic_batch.h), under the
// default profile without PodTopologySpread, whose pods are signed. Two nodes: n1 (8 cpu) and n2
// (6 cpu), 16Gi each. Replica r1 (1 cpu, 1Gi) scores best on n1; the batch keeps n2 with the
// scores r1 saw. Then "hog" (3 cpu) is bound to n2. Scored afresh, replica r2 goes to n1 too; but
// when the batch serves r2, n2's old score beats n1's fresh one, n2 still fits, and r2 takes it.
//
// Each trace below was also replayed through kube-scheduler v1.37.2 (schedcheck replay --config
// ... --candidate kube:1.37, with and without --feature-gates OpportunisticBatching=false): the
// same placements, equivalent by schedcheck diff.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "harness/replay/test_records.h"

namespace schedcheck::replay {
namespace {

constexpr int64_t kMillis = 1000 * 1000;

trace::Record Replica(int64_t t_ns, const std::string& name,
                      const std::string& labels = R"({"app": "web"})",
                      const std::string& ns = "default") {
  return AddedFromJson(
      t_ns, "pod",
      R"({"metadata": {"name": ")" + name + R"(", "namespace": ")" + ns + R"(", "labels": )" +
          labels +
          R"(}, "spec": {"containers": [{"name": "c", "image": "web:1", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}})");
}

// The hog bound to n2: at `t_ns`, or (during = true) while r1's attempt is in flight.
trace::Record Hog(int64_t t_ns, bool during) {
  trace::Record r = AddedFromJson(
      t_ns, "pod",
      R"({"metadata": {"name": "hog"}, "spec": {"nodeName": "n2", "containers": [{"name": "c", "image": "db:1", "resources": {"requests": {"cpu": "3", "memory": "1Gi"}}}]}, "status": {"phase": "Running"}})");
  r.mutable_api()->set_during_attempt(during);
  return r;
}

std::vector<trace::Record> Nodes(const std::string& n1_cpu = "8") {
  return {
      AddedFromJson(0, "node",
                    R"({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": ")" + n1_cpu +
                        R"(", "memory": "16Gi", "pods": "110"}}})"),
      AddedFromJson(
          0, "node",
          R"({"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "6", "memory": "16Gi", "pods": "110"}}})"),
  };
}

// Where each pod was scheduled, "pod=node" in attempt order.
std::vector<std::string> Placements(std::vector<trace::Record> records,
                                    const reference::FeatureGates& gates = {},
                                    reference::Engine engine = reference::Engine::kPlain) {
  ReplayOptions options;
  options.compat = "1.37";
  options.engine = engine;
  options.feature_gates = gates;
  options.config = reference::DefaultConfiguration("1.37");
  std::erase_if(options.config.profiles[0].at(reference::ExtensionPoint::kMultiPoint).enabled,
                [](const reference::PluginEntry& e) { return e.name == "PodTopologySpread"; });
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  if (!replayer.ok()) return {};
  Outcome ok = (*replayer)->Run(records);
  EXPECT_TRUE(ok.ok()) << ok.message();
  std::vector<std::string> out;
  for (const trace::Record& r : (*replayer)->log().records()) {
    if (r.has_attempt()) out.push_back(r.attempt().pod() + "=" + r.attempt().node());
  }
  return out;
}

std::vector<trace::Record> With(std::vector<trace::Record> records,
                                const std::vector<trace::Record>& more) {
  records.insert(records.end(), more.begin(), more.end());
  return records;
}

TEST(OpportunisticBatchingTest, TheNextReplicaTakesTheHintedNode) {
  const std::vector<trace::Record> records =
      With(Nodes(), {Replica(0, "r1"), Replica(0, "r2"), Replica(0, "r3"), Hog(0, true)});
  // r3: n2 (just taken by r2) is scored afresh against n1's score from r2's cycle, and loses.
  const std::vector<std::string> batched = {"default/r1=n1", "default/r2=n2", "default/r3=n1"};
  EXPECT_EQ(Placements(records), batched);
  EXPECT_EQ(Placements(records, {}, reference::Engine::kFast), batched);
  const std::vector<std::string> scored = {"default/r1=n1", "default/r2=n1", "default/r3=n1"};
  EXPECT_EQ(Placements(records, {{"OpportunisticBatching", false}}), scored);
  EXPECT_EQ(Placements(records, {{"OpportunisticBatching", false}}, reference::Engine::kFast),
            scored);
}

TEST(OpportunisticBatchingTest, TheLastHostIsRescoredAndCanWinAgain) {
  // n1 has 64 cpu: after r1 it still beats n2's score, so the batch hints n1 again (the hint
  // would be n2 if the last host were not rescored and put back).
  EXPECT_EQ(Placements(With(Nodes("64"), {Replica(0, "r1"), Replica(0, "r2"), Replica(0, "r3")})),
            (std::vector<std::string>{"default/r1=n1", "default/r2=n1", "default/r3=n1"}));
}

TEST(OpportunisticBatchingTest, TheBatchServesForHalfASecond) {
  // r2 is the next pod popped either way; the hog arrives between the two.
  EXPECT_EQ(Placements(With(Nodes(), {Replica(0, "r1"), Hog(200 * kMillis, false),
                                      Replica(500 * kMillis, "r2")})),
            (std::vector<std::string>{"default/r1=n1", "default/r2=n2"}));
  EXPECT_EQ(Placements(With(Nodes(), {Replica(0, "r1"), Hog(200 * kMillis, false),
                                      Replica(500 * kMillis + 1, "r2")})),
            (std::vector<std::string>{"default/r1=n1", "default/r2=n1"}));
}

TEST(OpportunisticBatchingTest, TheSignatureHasLabelsButNotTheNamespace) {
  // Another label: another signature, so r2 is scored afresh.
  EXPECT_EQ(
      Placements(With(Nodes(), {Replica(0, "r1"), Replica(0, "r2", R"({"app": "web", "v": "2"})"),
                                Hog(0, true)})),
      (std::vector<std::string>{"default/r1=n1", "default/r2=n1"}));
  // Upstream's signature leaves the namespace out: a replica in another namespace is batched.
  EXPECT_EQ(
      Placements(With(Nodes(), {Replica(0, "r1"), Replica(0, "r2", R"({"app": "web"})", "other"),
                                Hog(0, true)})),
      (std::vector<std::string>{"default/r1=n1", "other/r2=n2"}));
}

}  // namespace
}  // namespace schedcheck::replay
