#include "traces/importers/openb_importer.h"

#include <set>

#include "gtest/gtest.h"
#include "traces/importers/csv.h"
#include "traces/importers/import_testing.h"

namespace schedcheck::trace {
namespace {

using testing::Contains;
using testing::Label;
using testing::RecordsText;
using testing::TestData;
using testing::WriteTemp;

constexpr int64_t kS = 1000000000;

std::vector<std::string> Inputs() {
  return {TestData("openb/pods.csv"), TestData("openb/nodes.csv")};
}

const k8s::Pod* FindPod(const Imported& imported, const std::string& name) {
  for (const Record& r : imported.records) {
    if (r.api().has_pod() && r.api().pod().metadata().name() == name) return &r.api().pod();
  }
  return nullptr;
}

TEST(OpenbImporterTest, NodesAndTimedPods) {
  auto imported = ImportOpenb(Inputs(), {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> got;
  for (const Record& r : imported->records) {
    std::string name =
        r.api().has_pod() ? r.api().pod().metadata().name() : r.api().node().metadata().name();
    got.push_back(std::to_string(r.time_ns() / kS) + " " + EventType_Name(r.api().type()) + " " +
                  name);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"0 ADDED openb-node-0000", "0 ADDED openb-node-0001",
                                           "0 ADDED openb-node-0002", "0 ADDED openb-pod-0000",
                                           "0 ADDED openb-pod-0003", "5 ADDED openb-pod-0002",
                                           "10 ADDED openb-pod-0001", "50 DELETED openb-pod-0002",
                                           "100 DELETED openb-pod-0000"}));
  EXPECT_EQ(Label(*imported, "openb.pod_rows"), "4");
  EXPECT_EQ(Label(*imported, "openb.node_rows"), "3");
  EXPECT_EQ(Label(*imported, "openb.deletions"), "2");
  EXPECT_EQ(Label(*imported, "openb.pods_without_time"), "1");
  EXPECT_EQ(Label(*imported, "openb.gpu_capacity_milli"), "10000");
  EXPECT_EQ(Label(*imported, "openb.gpu_requested_milli"), "3460");
}

TEST(OpenbImporterTest, ResourceMapping) {
  auto imported = ImportOpenb(Inputs(), {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  const k8s::Node& cpu_node = imported->records[0].api().node();
  EXPECT_EQ(cpu_node.status().allocatable().at("cpu"), "32000m");
  EXPECT_EQ(cpu_node.status().allocatable().at("memory"), "262144Mi");
  EXPECT_EQ(cpu_node.status().allocatable().at("pods"), "110");
  EXPECT_EQ(cpu_node.status().allocatable().count(kGpuCountResource), 0u);
  const k8s::Node& v100 = imported->records[2].api().node();
  EXPECT_EQ(v100.status().allocatable().at(kGpuCountResource), "8");
  EXPECT_EQ(v100.status().allocatable().at(kGpuMilliResource), "8000");
  EXPECT_EQ(v100.metadata().labels().at(kGpuModelLabel), "V100M32");

  const auto& whole =
      FindPod(*imported, "openb-pod-0000")->spec().containers(0).resources().requests();
  EXPECT_EQ(whole.at("cpu"), "12000m");
  EXPECT_EQ(whole.at(kGpuCountResource), "1");
  EXPECT_EQ(whole.at(kGpuMilliResource), "1000");
  const auto& shared =
      FindPod(*imported, "openb-pod-0001")->spec().containers(0).resources().requests();
  EXPECT_EQ(shared.at(kGpuMilliResource), "460");
  EXPECT_EQ(shared.count(kGpuCountResource), 0u);
  const k8s::Pod& multi = *FindPod(*imported, "openb-pod-0002");
  EXPECT_EQ(multi.spec().containers(0).resources().requests().at(kGpuCountResource), "2");
  EXPECT_EQ(multi.spec().containers(0).resources().limits().at(kGpuMilliResource), "2000");
  const auto& term = multi.spec()
                         .affinity()
                         .node_affinity()
                         .required_during_scheduling_ignored_during_execution()
                         .node_selector_terms(0);
  EXPECT_EQ(term.match_expressions(0).key(), kGpuModelLabel);
  EXPECT_EQ(term.match_expressions(0).operator_(), "In");
  EXPECT_EQ(std::vector<std::string>(term.match_expressions(0).values().begin(),
                                     term.match_expressions(0).values().end()),
            (std::vector<std::string>{"V100M16", "V100M32"}));
  const auto& cpu_only =
      FindPod(*imported, "openb-pod-0003")->spec().containers(0).resources().requests();
  EXPECT_EQ(cpu_only.size(), 2u);
}

TEST(OpenbImporterTest, ArrivalOnlyDropsDeletions) {
  ImportOptions options;
  options.arrival_only = true;
  auto imported = ImportOpenb(Inputs(), options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(imported->records.size(), 7u);
  for (const Record& r : imported->records) EXPECT_EQ(r.api().type(), ADDED);
}

std::vector<std::string> PodOrder(const Imported& imported) {
  std::vector<std::string> names;
  for (const Record& r : imported.records) {
    if (r.api().has_pod()) names.push_back(r.api().pod().metadata().name());
  }
  return names;
}

TEST(OpenbImporterTest, ShuffleIsASeededPermutationAtTimeZero) {
  ImportOptions options;
  options.shuffle_seed = 7;
  auto a = ImportOpenb(Inputs(), options);
  auto b = ImportOpenb(Inputs(), options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(PodOrder(*a), PodOrder(*b));
  std::vector<std::string> sorted = PodOrder(*a);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"openb-pod-0000", "openb-pod-0001", "openb-pod-0002",
                                              "openb-pod-0003"}));
  for (const Record& r : a->records) EXPECT_EQ(r.time_ns(), 0);
  EXPECT_EQ(a->seed, 7u);
  std::set<std::vector<std::string>> orders;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    options.shuffle_seed = seed;
    orders.insert(PodOrder(*ImportOpenb(Inputs(), options)));
  }
  EXPECT_GT(orders.size(), 5u) << "the seed should change the order";
}

TEST(OpenbImporterTest, ResampleReachesTheTargetGpuShare) {
  ImportOptions options;
  options.target_gpu_share = 1.3;
  options.shuffle_seed = 3;
  auto imported = ImportOpenb(Inputs(), options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  int64_t requested = std::stoll(Label(*imported, "openb.gpu_requested_milli"));
  EXPECT_GE(requested, 13000);         // 1.3 x 10 GPUs
  EXPECT_LT(requested, 13000 + 2000);  // stops at the first draw reaching it (largest pod: 2 GPUs)
  const std::vector<std::string> order = PodOrder(*imported);
  const std::set<std::string> names(order.begin(), order.end());
  EXPECT_EQ(names.size(), order.size()) << "resampled pods get unique names";
  EXPECT_GE(order.size(), 4u);
  EXPECT_EQ(Label(*imported, "openb.protocol"), "resampled");
}

TEST(OpenbImporterTest, BadCsvNamesFileLineAndField) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1024,0,\nn2,1000,1024\n",
       "b.csv: line 3: expected 5 fields, got 3"},
      {"sn,cpu_milli,memory_mib,gpu,model\nn1,lots,1024,0,\n",
       "b.csv: line 2: field cpu_milli: \"lots\" is not a non-negative integer"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time\np,1,1,0,0,-5\n",
       "b.csv: line 2: field creation_time"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time\np,1,1,0,0,9223372037\n",
       "b.csv: line 2: field creation_time: 9223372037 seconds is more than 100 years"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time\np,1,1,0,0,5,"
       "3153600001\n",
       "b.csv: line 2: field deletion_time: 3153600001 seconds is more than 100 years"},
      {"name,cpu_milli,memory_mib,num_gpu\np,1,1,0\n", "b.csv: line 1: missing column gpu_milli"},
      {"id,cpu\n1,2\n", "b.csv: line 1: neither an openb node list"},
      // GPU counts whose thousandths overflowed int64 (UBSan: signed integer overflow).
      {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1024,9223372036854775807,\n",
       "b.csv: line 2: field gpu: 9223372036854775807 GPUs is more than 1000000"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,9300000000000000,0\n",
       "b.csv: line 2: field num_gpu: 9300000000000000 GPUs is more than 1000000"},
      {"sn,cpu_milli,memory_mib,gpu,model\n\"n1,1000,1024,0,\n",
       "b.csv: line 2: unterminated quoted field"},
  };
  for (const Case& c : cases) {
    auto imported = ImportOpenb({WriteTemp("b.csv", c.text)}, {});
    ASSERT_FALSE(imported.ok()) << c.text;
    EXPECT_TRUE(Contains(imported.message(), c.want)) << imported.message() << "\nwant: " << c.want;
  }
}

TEST(CsvTest, QuotesCrlfAndBom) {
  auto t = ParseCsv(
      "\xEF\xBB\xBF"
      "a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\r\n\r\n3,4\r\n",
      "t.csv");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->header, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0], (std::vector<std::string>{"x,1", "say \"hi\""}));
  EXPECT_EQ(t->lines, (std::vector<int>{2, 4}));
}

}  // namespace
}  // namespace schedcheck::trace
