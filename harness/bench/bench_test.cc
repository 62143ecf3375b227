// A smoke test of the benchmark code on a 10-node workload (not a timed benchmark).
#include "harness/bench/bench.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace schedcheck::bench {
namespace {

TEST(BenchTest, MeasuresTheMeasuredPodsOfATinyWorkload) {
  const workloads::ShapeInfo* shape = workloads::FindShape("SchedulingBasic");
  ASSERT_NE(shape, nullptr);
  auto r = RunWorkload(*shape, {.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 3}, nullptr);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->events, 2 + 10 + 5 + 20);
  EXPECT_EQ(r->measured_bound, 20);
  EXPECT_GT(r->pods_per_second, 0);
  EXPECT_GT(r->measured_seconds, 0);
  EXPECT_GE(r->total_seconds, r->measured_seconds);
  EXPECT_NEAR(r->ns_per_pod_per_node, r->measured_seconds * 1e9 / 20 / 10, 1e-6);
  EXPECT_GT(r->peak_rss_bytes, 0);
  nlohmann::json doc = ToJson({*r}, {});
  EXPECT_EQ(doc["workloads"][0]["measured_bound"], 20);
  EXPECT_EQ(doc["percentage_of_nodes_to_score"], 100);
  EXPECT_NE(FormatTable({*r}, {}).find("SchedulingBasic"), std::string::npos);
}

TEST(BenchTest, PreemptionWorkloadBindsItsHighPriorityPods) {
  const workloads::ShapeInfo* shape = workloads::FindShape("PreemptionBasic");
  ASSERT_NE(shape, nullptr);
  auto r = RunWorkload(*shape, {.nodes = 10, .initial_pods = 40, .measured_pods = 10, .seed = 1}, nullptr);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->measured_bound, 10);
}

TEST(BenchTest, TraceIoReadsBackEveryEvent) {
  const workloads::ShapeInfo* shape = workloads::FindShape("SchedulingBasic");
  const char* tmp = std::getenv("TEST_TMPDIR");
  auto t = RunTraceIo(*shape, {.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 1}, tmp ? tmp : "/tmp");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->events, 37);
  EXPECT_GT(t->bytes, 0);
  EXPECT_NEAR(t->bytes_per_event, static_cast<double>(t->bytes) / 37, 1e-9);
  EXPECT_GT(t->decode_events_per_second, 0);
}

}  // namespace
}  // namespace schedcheck::bench
