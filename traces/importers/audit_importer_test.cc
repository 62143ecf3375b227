#include "traces/importers/audit_importer.h"

#include "gtest/gtest.h"
#include "traces/importers/import_testing.h"

namespace schedcheck::trace {
namespace {

using testing::Label;
using testing::RecordsText;
using testing::TestData;
using testing::WriteTemp;

constexpr int64_t kMs = 1000000;

// testdata/audit/audit.jsonl: two Nodes, a pod created at Request level (its body without kind),
// one at RequestResponse level that the scheduler marks unschedulable through pods/status, a
// pods/binding create, a failed create, a Request-level patch, a graceful delete of the bound pod
// and its kubelet's final delete, and a deletecollection.
TEST(AuditImporterTest, WritesBecomeEventsAndTheSchedulersWritesObservations) {
  auto imported = ImportAudit({TestData("audit/audit.jsonl")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  const auto& r = imported->records;
  ASSERT_EQ(r.size(), 8u) << RecordsText(*imported);
  EXPECT_EQ(r[0].api().node().metadata().name(), "node-a");
  EXPECT_EQ(r[1].api().node().metadata().name(), "node-b");
  EXPECT_EQ(r[2].api().type(), ADDED);
  EXPECT_EQ(r[2].api().pod().metadata().name(), "p1");
  EXPECT_EQ(r[2].api().pod().metadata().namespace_(), "default") << "from objectRef";
  EXPECT_EQ(r[2].time_ns(), 1000 * kMs) << "stageTimestamp 10:00:02.002, start 10:00:01.002";
  EXPECT_EQ(r[3].api().pod().metadata().name(), "p2");
  EXPECT_TRUE(r[4].has_attempt());
  EXPECT_TRUE(r[4].attempt().observed());
  EXPECT_EQ(r[4].attempt().pod(), "default/p2");
  EXPECT_NE(r[4].attempt().message().find("2 Insufficient cpu"), std::string::npos);
  ASSERT_TRUE(r[5].has_binding()) << RecordsText(*imported);
  EXPECT_EQ(r[5].binding().pod(), "default/p1");
  EXPECT_EQ(r[5].binding().node(), "node-a");
  EXPECT_TRUE(r[5].binding().observed());
  EXPECT_EQ(r[5].time_ns(), 3000 * kMs);
  // The graceful delete of a bound pod marks it; its kubelet's delete removes it.
  EXPECT_EQ(r[6].api().type(), MODIFIED);
  EXPECT_EQ(r[6].api().pod().metadata().deletion_timestamp(), "2024-03-01T10:00:07.002Z");
  EXPECT_EQ(r[7].api().type(), DELETED);
  EXPECT_EQ(r[7].time_ns(), 8000 * kMs);

  EXPECT_EQ(Label(*imported, "audit.events"), "13");
  EXPECT_EQ(Label(*imported, "audit.reads"), "1");
  EXPECT_EQ(Label(*imported, "audit.ignored_stages"), "1");
  EXPECT_EQ(Label(*imported, "audit.failed_requests"), "1");
  EXPECT_EQ(Label(*imported, "audit.unreconstructed"), "2");
  EXPECT_EQ(Label(*imported, "observed.bindings"), "1");
  ASSERT_EQ(imported->warnings.size(), 1u);
  EXPECT_NE(imported->warnings[0].find("deletecollection pods (level Request): 1, patch pods "
                                       "(level Request): 1"),
            std::string::npos)
      << imported->warnings[0];
}

TEST(AuditImporterTest, EventListsAsAWebhookReceivesThem) {
  const std::string node =
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1"}}})";
  const std::string event =
      R"({"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"nodes","name":"n1"},"responseStatus":{"code":201},"stageTimestamp":"2024-03-01T10:00:00Z","responseObject":)" +
      node + "}";
  auto imported = ImportAudit(
      {WriteTemp("list.json",
                 R"({"kind":"EventList","apiVersion":"audit.k8s.io/v1","items":[)" + event + "]}")},
      {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 1u);
  EXPECT_EQ(imported->records[0].api().node().metadata().name(), "n1");
}

TEST(AuditImporterTest, InputThatIsNotAnAuditLogNamesFileLineAndField) {
  const std::string watch = WriteTemp("watch.json", R"({"type":"ADDED","object":{"kind":"Node"}})");
  auto not_audit = ImportAudit({watch}, {});
  ASSERT_FALSE(not_audit.ok());
  EXPECT_NE(not_audit.message().find(watch + ": line 1: not an audit.k8s.io Event"),
            std::string::npos)
      << not_audit.message();
  EXPECT_NE(not_audit.message().find("is this an audit log?"), std::string::npos);

  const std::string no_time = WriteTemp(
      "no_time.jsonl",
      "\n"
      R"({"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"nodes"}})");
  auto missing = ImportAudit({no_time}, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find(no_time + ": line 2: field stageTimestamp: missing"),
            std::string::npos)
      << missing.message();

  const std::string bad_time = WriteTemp(
      "bad_time.jsonl",
      R"({"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"nodes"},"stageTimestamp":"yesterday"})");
  auto bad = ImportAudit({bad_time}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("field stageTimestamp"), std::string::npos) << bad.message();

  // An object the API server would refuse is refused here too, naming the line.
  const std::string bad_node = WriteTemp(
      "bad_node.jsonl",
      R"({"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","objectRef":{"resource":"nodes"},"stageTimestamp":"2024-03-01T10:00:00Z","responseObject":{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"},"spec":{"taints":[{"key":"k"}]}}})");
  auto refused = ImportAudit({bad_node}, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find(bad_node + ": line 1"), std::string::npos) << refused.message();
}

}  // namespace
}  // namespace schedcheck::trace
