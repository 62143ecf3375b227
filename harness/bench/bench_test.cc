// A smoke test of the benchmark code on a 10-node workload (not a timed benchmark).
#include "harness/bench/bench.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness/bench/alibaba.h"

namespace schedcheck::bench {
namespace {

TEST(BenchTest, MeasuresTheMeasuredPodsOfATinyWorkload) {
  const workloads::ShapeInfo* shape = workloads::FindShape("SchedulingBasic");
  ASSERT_NE(shape, nullptr);
  auto r = RunWorkload(*shape, {.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 3},
                       nullptr);
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
  auto r = RunWorkload(*shape, {.nodes = 10, .initial_pods = 40, .measured_pods = 10, .seed = 1},
                       nullptr);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->measured_bound, 10);
}

// The volume shapes: each pod's claim and volume arrive with it, already bound (no PreBind write),
// so every measured pod is bound and counted; the CSINodes are events of their own.
TEST(BenchTest, VolumeWorkloadsBindTheirMeasuredPods) {
  for (const char* name :
       {"SchedulingInTreePVs", "SchedulingMigratedInTreePVs", "SchedulingCSIPVs"}) {
    SCOPED_TRACE(name);
    const workloads::ShapeInfo* shape = workloads::FindShape(name);
    ASSERT_NE(shape, nullptr);
    auto r = RunWorkload(*shape, {.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 1},
                         nullptr);
    ASSERT_TRUE(r.ok()) << r.message();
    const int csi_nodes = std::string(name) == "SchedulingInTreePVs" ? 0 : 10;
    EXPECT_EQ(r->events, 2 + 10 + csi_nodes + 3 * (5 + 20));
    EXPECT_EQ(r->measured_bound, 20);
  }
}

TEST(BenchTest, TraceIoReadsBackEveryEvent) {
  const workloads::ShapeInfo* shape = workloads::FindShape("SchedulingBasic");
  const char* tmp = std::getenv("TEST_TMPDIR");
  auto t = RunTraceIo(*shape, {.nodes = 10, .initial_pods = 5, .measured_pods = 20, .seed = 1},
                      tmp ? tmp : "/tmp");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->events, 37);
  EXPECT_GT(t->bytes, 0);
  EXPECT_NEAR(t->bytes_per_event, static_cast<double>(t->bytes) / 37, 1e-9);
  EXPECT_GT(t->decode_events_per_second, 0);
}

// A hand-made openb folder: one 2-GPU node and one CPU node; three pods of 1000, 500 and 1000 GPU
// milli. In time order: p0 (t 0..100) and p1 (t 10..) fit, p2 (t 20, deleted at 30) does not.
std::string WriteOpenbDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp ? tmp : "/tmp") + "/openb-bench";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/openb_node_list_all_node.csv") << "sn,cpu_milli,memory_mib,gpu,model\n"
                                                          "n0,32000,65536,2,P100\n"
                                                          "n1,32000,65536,0,\n";
  std::ofstream(dir + "/openb_pod_list_default.csv")
      << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
         "deletion_time,"
         "scheduled_time\n"
         "p0,1000,1024,1,1000,,LS,Running,0,100,0\n"
         "p1,1000,1024,1,500,,LS,Running,10,,10\n"
         "p2,1000,1024,1,1000,,LS,Pending,20,30,\n";
  return dir;
}

TEST(BenchTest, AlibabaTimedFollowsBindingsAndDeletions) {
  auto r = RunAlibaba(kAlibabaTimed, WriteOpenbDir(), 1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->nodes, 2);
  EXPECT_EQ(r->pods, 3);
  EXPECT_EQ(r->bound, 2);
  EXPECT_EQ(r->gpu_capacity_milli, 2000);
  EXPECT_EQ(r->gpu_peak_allocated_milli, 1500);
  EXPECT_EQ(r->gpu_allocated_milli, 500);  // p0 deleted at t = 100
  EXPECT_DOUBLE_EQ(r->gpu_allocation_ratio, 0.25);
  EXPECT_DOUBLE_EQ(r->gpu_peak_allocation_ratio, 0.75);
  EXPECT_NE(FormatAlibabaTable({*r}).find("AlibabaTimed         fast"), std::string::npos)
      << FormatAlibabaTable({*r});
  EXPECT_EQ(AlibabaToJson({*r})[0]["bound"], 2);
  EXPECT_EQ(AlibabaToJson({*r})[0]["engine"], "fast");
}

TEST(BenchTest, AlibabaReplaysWithTheEngineAskedFor) {
  auto fast = RunAlibaba(kAlibabaTimed, WriteOpenbDir(), 1);
  auto plain = RunAlibaba(kAlibabaTimed, WriteOpenbDir(), 1, reference::Engine::kPlain);
  ASSERT_TRUE(fast.ok() && plain.ok()) << fast.message() << plain.message();
  EXPECT_EQ(plain->engine, reference::Engine::kPlain);
  EXPECT_EQ(plain->bound, fast->bound);
  EXPECT_EQ(plain->attempts, fast->attempts);
  EXPECT_EQ(AlibabaToJson({*plain})[0]["engine"], "plain");
}

TEST(BenchTest, AlibabaPaperProtocolResamplesToThirtyPercentOverCapacity) {
  auto r = RunAlibaba(kAlibabaPaper130, WriteOpenbDir(), 1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_GT(r->pods, 3);  // resampled beyond the three rows (2500 < 1.3 x 2000 milli)
  EXPECT_GE(r->bound, 2);
  EXPECT_GT(r->gpu_allocated_milli, 0);
  EXPECT_LE(r->gpu_allocated_milli, r->gpu_capacity_milli);
  EXPECT_EQ(r->gpu_allocated_milli, r->gpu_peak_allocated_milli);  // arrival-only: no deletions
  EXPECT_LT(r->bound, r->pods);                                    // demand exceeds capacity
}

TEST(BenchTest, UnknownAlibabaWorkloadIsAnError) {
  EXPECT_FALSE(RunAlibaba("AlibabaNope", WriteOpenbDir(), 1).ok());
}

}  // namespace
}  // namespace schedcheck::bench
