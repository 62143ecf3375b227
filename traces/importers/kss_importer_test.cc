#include "traces/importers/kss_importer.h"

#include "gtest/gtest.h"
#include "traces/importers/import_testing.h"

namespace schedcheck::trace {
namespace {

using testing::Contains;
using testing::Label;
using testing::RecordsText;
using testing::TestData;
using testing::WriteTemp;

constexpr int64_t kS = 1000000000;

TEST(KssImporterTest, RecorderLinesBecomeSortedEventsWithObservedBindings) {
  auto imported = ImportKss({TestData("kss/record.jsonl")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  const auto& r = imported->records;
  ASSERT_EQ(r.size(), 6u) << RecordsText(*imported);
  EXPECT_EQ(r[0].api().node().metadata().name(), "sim-node-1");
  EXPECT_EQ(r[1].api().storage_class().metadata().name(), "standard");
  EXPECT_EQ(r[1].time_ns(), 0);
  EXPECT_EQ(r[2].api().pod().metadata().name(), "a");
  EXPECT_EQ(r[2].time_ns(), 1 * kS);
  EXPECT_EQ(r[3].binding().node(), "sim-node-1");
  EXPECT_EQ(r[3].time_ns(), 2 * kS);
  EXPECT_EQ(r[4].api().pod().metadata().name(), "b");  // written after a's Delete, happened before
  EXPECT_EQ(r[4].time_ns(), 3 * kS);
  EXPECT_EQ(r[5].api().type(), DELETED);
  EXPECT_EQ(r[5].time_ns(), 4 * kS);
  EXPECT_EQ(Label(*imported, "start_time"), "2024-05-01T08:00:00Z");
  EXPECT_EQ(Label(*imported, "sorted.out_of_order"), "1");
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "<absent>");
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "1");
  EXPECT_FALSE(Contains(RecordsText(*imported), "kube-scheduler-simulator.sigs.k8s.io/result"));
  ASSERT_EQ(imported->warnings.size(), 1u);  // the out-of-order line
}

// The recorder's storage resources (it records PersistentVolumes, claims and StorageClasses beside
// pods and nodes) with their Add, Update and Delete events.
TEST(KssImporterTest, RecordedStorageObjectsAreImported) {
  auto imported = ImportKss({TestData("kss/storage.jsonl")}, ImportOptions{});
  ASSERT_TRUE(imported.ok()) << imported.message();
  const auto& r = imported->records;
  ASSERT_EQ(r.size(), 10u) << RecordsText(*imported);
  EXPECT_EQ(r[0].api().storage_class().volume_binding_mode(), "WaitForFirstConsumer");
  EXPECT_EQ(r[0].api().storage_class().reclaim_policy(), "Delete");
  EXPECT_EQ(r[1].api().persistent_volume_claim().spec().storage_class_name(), "standard");
  // The provisioning annotation is a scheduling field: kept without --keep-annotations.
  EXPECT_EQ(r[1].api().persistent_volume_claim().metadata().annotations().at(
                "volume.kubernetes.io/selected-node"),
            "sim-node-1");
  EXPECT_EQ(r[2].api().persistent_volume().spec().claim_ref().name(), "pvc1");
  EXPECT_EQ(r[3].api().type(), MODIFIED);
  EXPECT_EQ(r[3].api().persistent_volume_claim().spec().volume_name(), "pv1");
  EXPECT_EQ(r[3].api().persistent_volume_claim().metadata().annotations().at(
                "pv.kubernetes.io/bind-completed"),
            "yes");
  EXPECT_EQ(r[4].api().csi_node().spec().drivers(0).allocatable().count(), 2);
  EXPECT_TRUE(r[5].api().csi_driver().spec().attach_required());
  EXPECT_EQ(r[6].api().csi_storage_capacity().capacity(), "10Gi");
  for (int i : {7, 8, 9}) EXPECT_EQ(r[i].api().type(), DELETED) << i;
  EXPECT_TRUE(r[7].api().has_storage_class());
  EXPECT_TRUE(r[8].api().has_csi_node());
  EXPECT_TRUE(r[9].api().has_csi_driver());
  EXPECT_EQ(r[9].time_ns(), 9 * kS);
  EXPECT_EQ(Label(*imported, "redacted.paths"),
            "CSIDriver:spec.seLinuxMount=1,PersistentVolume:spec.hostPath=1,"
            "PersistentVolumeClaim:status.conditions=1");
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "2");  // default-class, provisioned-by
  EXPECT_FALSE(Contains(RecordsText(*imported), "do-not-leak"));
}

TEST(KssImporterTest, AcceptsAJsonArrayOfRecords) {
  std::string path = WriteTemp(
      "array.json",
      "[{\"time\":\"2024-05-01T08:00:00Z\",\"event\":\"Add\",\"resource\":{\"kind\":\"Node\","
      "\"metadata\":{\"name\":\"n\"}}},\n {\"time\":\"2024-05-01T08:00:01Z\",\"event\":\"Add\","
      "\"resource\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}]");
  auto imported = ImportKss({path}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 2u);
  EXPECT_EQ(imported->records[1].time_ns(), kS);
}

TEST(KssImporterTest, BadRecordsNameFileLineAndField) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"{\"time\":\"2024-05-01T08:00:00Z\",\"event\":\"Patch\",\"resource\":{\"kind\":\"Pod\"}}",
       "k.jsonl: line 1: record 1: field event: unknown recorder event \"Patch\""},
      {"\n{\"time\":\"2024-05-01\",\"event\":\"Add\",\"resource\":{\"kind\":\"Pod\"}}",
       "k.jsonl: line 2: record 1: field time"},
      {"{\"time\":\"2024-05-01T08:00:00Z\",\"event\":\"Add\"}",
       "k.jsonl: line 1: record 1: field resource"},
      {"{\"time\":\"2024-05-01T08:00:00Z\",\"event\":\"Add\",\"resource\":{\"kind\":\"Pod\"}}\n{"
       "\"event\":,}",
       "k.jsonl: line 2, column 10: JSON"},
      {"{\"time\":\"2024-05-01T08:00:00Z\",\"event\":\"Add\",\"resource\":{\"kind\":"
       "\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"c\"},\"spec\":{\"resources\":{"
       "\"requests\":[\"1Gi\"]}}}}",
       "k.jsonl: line 1: record 1: object: (spec.resources): invalid value"},
  };
  for (const Case& c : cases) {
    auto imported = ImportKss({WriteTemp("k.jsonl", c.text)}, {});
    ASSERT_FALSE(imported.ok()) << c.text;
    EXPECT_TRUE(Contains(imported.message(), c.want)) << imported.message() << "\nwant: " << c.want;
  }
}

}  // namespace
}  // namespace schedcheck::trace

namespace schedcheck::trace {
namespace {

// A recorded StatefulSet (claim templates) and an Indexed Job without their pods, and a Service
// added then deleted: the workloads become pods at their Add time (each StatefulSet pod after its
// claim), the Service stays a selector object with both events (README.md "Workloads").
TEST(KssImporterTest, RecordedWorkloadsBecomePods) {
  auto imported = ImportKss({TestData("kss/workloads.jsonl")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> got;
  for (const Record& r : imported->records) {
    const ApiEvent& a = r.api();
    std::string what =
        a.has_pod()            ? "Pod " + a.pod().metadata().name()
        : a.has_node()         ? "Node " + a.node().metadata().name()
        : a.has_service()      ? "Service " + a.service().metadata().name()
        : a.has_stateful_set() ? "StatefulSet " + a.stateful_set().metadata().name()
        : a.has_persistent_volume_claim()
            ? "PersistentVolumeClaim " + a.persistent_volume_claim().metadata().name()
            : "?";
    got.push_back(std::to_string(r.time_ns() / 1000000000) + " " + EventType_Name(a.type()) + " " +
                  what);
  }
  EXPECT_EQ(got,
            (std::vector<std::string>{
                "0 ADDED Node n1", "1 ADDED Service db", "2 ADDED StatefulSet db",
                "2 ADDED PersistentVolumeClaim data-db-0", "2 ADDED Pod db-0",
                "2 ADDED PersistentVolumeClaim data-db-1", "2 ADDED Pod db-1",
                "2 ADDED PersistentVolumeClaim data-db-2", "2 ADDED Pod db-2",
                "3 ADDED Pod load-0-bbbbb", "3 ADDED Pod load-1-bbbbc", "4 DELETED Service db"}))
      << RecordsText(*imported);
  const k8s::Pod& db1 = imported->records[6].api().pod();
  EXPECT_EQ(db1.metadata().namespace_(), "data");
  EXPECT_EQ(db1.metadata().owner_references(0).uid(), "ss-1");
  ASSERT_EQ(db1.spec().volumes_size(), 1);
  EXPECT_EQ(db1.spec().volumes(0).persistent_volume_claim().claim_name(), "data-db-1");
  EXPECT_EQ(Label(*imported, "expanded.pods"), "5");
  const k8s::PersistentVolumeClaim& claim = imported->records[5].api().persistent_volume_claim();
  EXPECT_EQ(claim.metadata().namespace_(), "data");
  EXPECT_EQ(claim.metadata().labels().at("app"), "db");  // the selector's matchLabels
  EXPECT_EQ(claim.status().phase(), "");                 // unbound: no PV controller in replay
}

}  // namespace
}  // namespace schedcheck::trace
