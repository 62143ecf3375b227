// Follow-the-cluster replays (follow_cluster.h): the replay's own decision is classified against
// each binding the capture observed, and later decisions start from the cluster's placements.
#include "harness/replay/follow_cluster.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "harness/replay/test_records.h"

namespace schedcheck::replay {
namespace {

constexpr int64_t kS = kNanosPerSecond;

trace::Record NodeRecord(const std::string& name) {
  return AddedFromJson(
      0, "node",
      R"({"metadata":{"name":")" + name +
          R"("},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}})");
}

trace::Record PodRecord(int64_t t_ns, const std::string& name, const std::string& cpu) {
  return AddedFromJson(t_ns, "pod",
                       R"({"metadata":{"name":")" + name + R"(","namespace":"default","uid":"u-)" +
                           name +
                           R"("},"spec":{"containers":[{"name":"c","resources":{"requests":)"
                           R"({"cpu":")" +
                           cpu + R"(","memory":"1Gi"}}}]}})");
}

trace::Record Observed(int64_t t_ns, const std::string& pod, const std::string& node) {
  trace::Record r;
  r.set_time_ns(t_ns);
  r.mutable_binding()->set_pod(pod);
  r.mutable_binding()->set_node(node);
  r.mutable_binding()->set_observed(true);
  return r;
}

struct Replayed {
  std::vector<trace::Record> log;
  FollowReport report;
};

Replayed Replay(const std::vector<trace::Record>& records, bool follow) {
  ReplayOptions options;
  options.compat = "1.37";
  options.config = reference::DefaultConfiguration("1.37");
  options.follow_cluster = follow;
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  Outcome ok = (*replayer)->Run(records);
  EXPECT_TRUE(ok.ok()) << ok.message();
  return {(*replayer)->log().records(), (*replayer)->follow_report()};
}

std::string BoundNode(const std::vector<trace::Record>& log, const std::string& pod) {
  std::string node;
  for (const trace::Record& r : log)
    if (r.has_binding() && r.binding().pod() == pod) node = r.binding().node();
  return node;
}

int Attempts(const std::vector<trace::Record>& log, const std::string& pod) {
  int n = 0;
  for (const trace::Record& r : log) n += r.has_attempt() && r.attempt().pod() == pod;
  return n;
}

// Two equal nodes: the replay's tie-break for `small` is one of them; the cluster put it on the
// other. A pod that needs a whole empty node then fits only where the cluster left room.
TEST(FollowClusterTest, LaterDecisionsStartFromTheClustersPlacement) {
  std::vector<trace::Record> base = {NodeRecord("n1"), NodeRecord("n2"),
                                     PodRecord(1 * kS, "small", "1")};
  const std::string replay_choice = BoundNode(Replay(base, false).log, "default/small");
  ASSERT_FALSE(replay_choice.empty());
  const std::string other = replay_choice == "n1" ? "n2" : "n1";

  std::vector<trace::Record> capture = base;
  capture.push_back(Observed(1 * kS + 5'000'000, "default/small", other));
  capture.push_back(PodRecord(3 * kS, "whole", "3500m"));

  Replayed open = Replay(capture, false);
  EXPECT_EQ(BoundNode(open.log, "default/whole"), other) << "open loop: small took the other node";
  EXPECT_EQ(open.report.total(), 0) << "observed bindings are ignored unless following";

  Replayed followed = Replay(capture, true);
  EXPECT_EQ(BoundNode(followed.log, "default/small"), replay_choice)
      << "the replay's own decision stays in its log";
  EXPECT_EQ(BoundNode(followed.log, "default/whole"), replay_choice)
      << "small now sits on " << other << " as in the cluster, so only " << replay_choice
      << " has room";
  EXPECT_EQ(followed.report.count(FollowClass::kInTieSet), 1);
  EXPECT_EQ(followed.report.total(), 1);
  EXPECT_TRUE(followed.report.listed.empty()) << "pods in the tie set are counted, not listed";
}

TEST(FollowClusterTest, ClassifiesEveryObservedBinding) {
  std::vector<trace::Record> capture = {
      NodeRecord("n1"), NodeRecord("n2"), PodRecord(1 * kS, "a", "1"),
      PodRecord(2 * kS, "huge", "100"),  // no node fits it in the replay
  };
  const std::string a_node = BoundNode(Replay(capture, false).log, "default/a");
  ASSERT_FALSE(a_node.empty());
  capture.insert(capture.begin() + 3, Observed(1 * kS + 1000, "default/a", a_node));
  capture.push_back(Observed(3 * kS, "default/huge", "n1"));
  capture.push_back(Observed(4 * kS, "default/ghost", "n2"));
  // Bound by the cluster in the instant it was created: the replay never gets to try.
  capture.push_back(PodRecord(5 * kS, "late", "1"));
  capture.push_back(Observed(5 * kS, "default/late", "n2"));

  Replayed run = Replay(capture, true);
  const FollowReport& r = run.report;
  EXPECT_EQ(r.count(FollowClass::kSameNode), 1);
  EXPECT_EQ(r.count(FollowClass::kUnschedulable), 1);
  EXPECT_EQ(r.count(FollowClass::kNotComparable), 1);
  EXPECT_EQ(r.count(FollowClass::kNotAttempted), 1);
  EXPECT_EQ(r.total(), 4);
  ASSERT_EQ(r.listed.size(), 2u);
  EXPECT_NE(r.listed[0].find("default/huge at t=3s: the cluster bound it to n1; the replay found "
                             "no node: 0/2 nodes are available"),
            std::string::npos)
      << r.listed[0];
  EXPECT_NE(r.listed[1].find("default/ghost"), std::string::npos) << r.listed[1];
  EXPECT_NE(r.listed[1].find("the replay has no such pod"), std::string::npos) << r.listed[1];
  EXPECT_EQ(Attempts(run.log, "default/late"), 0) << "assigned before its first attempt";
  const int huge_attempts = Attempts(run.log, "default/huge");
  EXPECT_GE(huge_attempts, 1);
  // Once the cluster's binding put it on n1 it leaves the queue: no retry at the 5-minute flush.
  Replayed open = Replay(capture, false);
  EXPECT_GT(Attempts(open.log, "default/huge"), huge_attempts);
}

TEST(FollowClusterTest, MovedPodsAreDeletedAndAddedAgain) {
  ClusterFollower f;
  trace::Record added = PodRecord(0, "p", "1");
  f.NoteInput(added.api());
  trace::Record attempt;
  attempt.mutable_attempt()->set_pod("default/p");
  attempt.mutable_attempt()->set_result(trace::SCHEDULED);
  attempt.mutable_attempt()->set_node("n1");
  attempt.mutable_attempt()->add_ties("n1");
  f.NoteDecision(attempt);
  trace::Record bound;
  bound.mutable_binding()->set_pod("default/p");
  bound.mutable_binding()->set_node("n1");
  f.NoteDecision(bound);

  std::vector<trace::ApiEvent> events;
  trace::Binding observed;
  observed.set_pod("default/p");
  observed.set_node("n3");
  f.Follow(observed, 2 * kS, &events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type(), trace::DELETED);
  EXPECT_EQ(events[0].pod().spec().node_name(), "n1");
  EXPECT_EQ(events[1].type(), trace::ADDED);
  EXPECT_EQ(events[1].pod().spec().node_name(), "n3");
  EXPECT_EQ(events[1].pod().metadata().uid(), "u-p");
  EXPECT_EQ(f.report().count(FollowClass::kOutsideTieSet), 1);
  ASSERT_EQ(f.report().listed.size(), 1u);
  EXPECT_EQ(f.report().listed[0],
            "default/p at t=2s: the cluster bound it to n3; the replay bound it to n1 (tie set: "
            "n1)");

  // Now where the cluster put it: a second observation of the same binding changes nothing.
  events.clear();
  f.Follow(observed, 3 * kS, &events);
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(f.report().count(FollowClass::kSameNode), 1);
}

}  // namespace
}  // namespace schedcheck::replay
