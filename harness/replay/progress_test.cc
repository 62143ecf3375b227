// The replay's progress callback (ReplayOptions::progress): counts that only grow and end at the
// total, every `progress_every_events` events, and no effect on the decisions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::replay {
namespace {

trace::Record Added(int64_t t_s) {
  trace::Record r;
  r.set_time_ns(t_s * kNanosPerSecond);
  r.mutable_api()->set_type(trace::ADDED);
  return r;
}

// One roomy node at t = 0, then `pods` small pods, two per second from t = 1.
std::vector<trace::Record> Trace(int pods) {
  std::vector<trace::Record> records;
  trace::Record node = Added(0);
  auto n = k8s::NodeFromJson(nlohmann::json::parse(R"({"metadata":{"name":"n1"},
      "status":{"allocatable":{"cpu":"100","memory":"100Gi","pods":"500"}}})"),
                             "node");
  EXPECT_TRUE(n.ok()) << n.message();
  *node.mutable_api()->mutable_node() = *n;
  records.push_back(node);
  for (int i = 0; i < pods; ++i) {
    trace::Record r = Added(1 + i / 2);
    auto pod = k8s::PodFromJson(
        nlohmann::json::parse(
            R"({"metadata":{"name":"p)" + std::to_string(i) +
            R"(","namespace":"default"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]}})"),
        "pod");
    EXPECT_TRUE(pod.ok()) << pod.message();
    *r.mutable_api()->mutable_pod() = *pod;
    records.push_back(r);
  }
  return records;
}

std::string Replay(const std::vector<trace::Record>& records, std::vector<ReplayProgress>* calls,
                   size_t every) {
  ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  options.progress_every_events = every;
  if (calls != nullptr)
    options.progress = [calls](const ReplayProgress& p) { calls->push_back(p); };
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok()) << replayer.message();
  EXPECT_TRUE((*replayer)->Run(records).ok());
  return (*replayer)->log().ToJsonLines();
}

TEST(ReplayProgressTest, CountsGrowAndEndAtTheTotal) {
  const std::vector<trace::Record> records = Trace(40);  // 41 events at 21 instants
  std::vector<ReplayProgress> calls;
  Replay(records, &calls, 5);
  // Reported after the instants reaching 5 more events (instants hold 2), the last event's
  // instant, then once finished.
  ASSERT_GE(calls.size(), 8u);
  ASSERT_LE(calls.size(), 14u);
  for (size_t i = 1; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].events_done, calls[i - 1].events_done) << i;
    EXPECT_GE(calls[i].virtual_time_ns, calls[i - 1].virtual_time_ns) << i;
    EXPECT_GE(calls[i].pods_bound, calls[i - 1].pods_bound) << i;
    if (i + 1 < calls.size()) {
      EXPECT_GT(calls[i].events_done, calls[i - 1].events_done) << i;
      EXPECT_GE(calls[i].events_done - calls[i - 1].events_done, 5u) << i;
    }
  }
  for (const ReplayProgress& p : calls) EXPECT_EQ(p.events_total, 41u);
  const ReplayProgress& last_event = calls[calls.size() - 2];
  EXPECT_EQ(last_event.events_done, 41u);
  EXPECT_FALSE(last_event.finished);
  EXPECT_EQ(last_event.virtual_time_ns, 20 * kNanosPerSecond);  // the last pods arrive at t = 20
  const ReplayProgress& done = calls.back();
  EXPECT_TRUE(done.finished);
  EXPECT_EQ(done.events_done, 41u);
  EXPECT_EQ(done.pods_bound, 40u);
  EXPECT_GE(done.virtual_time_ns, last_event.virtual_time_ns);
  EXPECT_LT(calls.front().pods_bound, 40u);
}

TEST(ReplayProgressTest, NeverChangesTheDecisions) {
  const std::vector<trace::Record> records = Trace(12);
  std::vector<ReplayProgress> calls;
  EXPECT_EQ(Replay(records, &calls, 1), Replay(records, nullptr, 1000));
  EXPECT_EQ(calls.size(), 8u);  // every one of the 7 instants, then finished
}

}  // namespace
}  // namespace schedcheck::replay
