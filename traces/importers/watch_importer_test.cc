#include "traces/importers/watch_importer.h"

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

Result<Imported> ImportBoth(bool strip) {
  ImportOptions options;
  options.strip_bindings = strip;
  return ImportWatch({TestData("watch/capture.json"), TestData("watch/capture2.json")}, options);
}

std::string Describe(const Record& r) {
  if (r.has_attempt()) return "attempt " + r.attempt().pod();
  if (r.has_nomination())
    return "nomination " + r.nomination().pod() + "->" + r.nomination().node();
  if (r.has_preemption()) {
    return "preemption " + r.preemption().victim() + " by " + r.preemption().preemptor() + " on " +
           r.preemption().node();
  }
  if (r.has_binding()) return "binding " + r.binding().pod() + "->" + r.binding().node();
  std::string name =
      r.api().has_pod() ? r.api().pod().metadata().name() : r.api().node().metadata().name();
  return EventType_Name(r.api().type()) + " " + name;
}

TEST(WatchImporterTest, MergesFilesByTimeAndStripsObservedBindings) {
  auto imported = ImportBoth(/*strip=*/true);
  ASSERT_TRUE(imported.ok()) << imported.message();
  struct Want {
    int64_t t_ns;
    std::string what;
  };
  const std::vector<Want> want = {{0, "ADDED node-a"},
                                  {2 * kS, "ADDED p3"},
                                  {2 * kS, "MODIFIED p3"},
                                  {3 * kS, "ADDED p2"},
                                  {5 * kS, "ADDED p1"},
                                  {6 * kS, "attempt default/p1"},
                                  {9 * kS, "binding default/p1->node-a"},
                                  {60 * kS, "DELETED p1"}};
  ASSERT_EQ(imported->records.size(), want.size()) << RecordsText(*imported);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(imported->records[i].time_ns(), want[i].t_ns) << i;
    EXPECT_EQ(Describe(imported->records[i]), want[i].what) << i;
  }
  const Record& attempt = imported->records[5];
  EXPECT_TRUE(attempt.attempt().observed());
  EXPECT_EQ(attempt.attempt().result(), UNSCHEDULABLE);
  EXPECT_EQ(attempt.attempt().attempt(), 1);
  EXPECT_EQ(attempt.attempt().message(), "0/1 nodes are available: 1 Insufficient cpu.");
  EXPECT_TRUE(imported->records[6].binding().observed());
  // The deletion of a pod the reference placed itself carries no node of the capture.
  EXPECT_EQ(imported->records[7].api().pod().spec().node_name(), "");
  EXPECT_EQ(Label(*imported, "start_time"), "2024-03-01T10:00:00Z");
  EXPECT_EQ(Label(*imported, "observed.bindings"), "1");
  EXPECT_EQ(Label(*imported, "observed.failed_scheduling"), "1");
  EXPECT_EQ(Label(*imported, "stripped.updates"), "2");
  EXPECT_EQ(Label(*imported, "ignored.bookmarks"), "1");
  EXPECT_EQ(Label(*imported, "watch.errors"), "1");
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "ConfigMap=1");
  EXPECT_EQ(Label(*imported, "sorted.out_of_order"), "1");    // p3 before p2 in capture2.json
  EXPECT_EQ(Label(*imported, "flagged.unknown_nodes"), "1");  // p3 on node-zz
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "1");
  EXPECT_EQ(Label(*imported, "assigned.resource_versions"), "4");
}

TEST(WatchImporterTest, ExplicitTimeWinsAndUntimedEventsTakeThePreviousTime) {
  auto imported = ImportBoth(true);
  ASSERT_TRUE(imported.ok()) << imported.message();
  // p2's creationTimestamp is 09:00, its explicit time 10:00:03; p3's MODIFIED has no time at all.
  EXPECT_EQ(imported->records[3].time_ns(), 3 * kS);
  EXPECT_EQ(imported->records[2].time_ns(), 2 * kS);
  // Objects without resourceVersion get increasing ones in event order; captured ones are kept.
  EXPECT_EQ(imported->records[0].api().node().metadata().resource_version(), "1");
  EXPECT_EQ(imported->records[1].api().pod().metadata().resource_version(), "2");
  EXPECT_EQ(imported->records[2].api().pod().metadata().resource_version(), "3");
  EXPECT_EQ(imported->records[4].api().pod().metadata().resource_version(), "100");
}

TEST(WatchImporterTest, KeepBindingsKeepsTheCapturedNodeNameChanges) {
  auto imported = ImportBoth(/*strip=*/false);
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 10u) << RecordsText(*imported);
  EXPECT_EQ(Describe(imported->records[6]), "binding default/p1->node-a");
  EXPECT_EQ(Describe(imported->records[7]), "MODIFIED p1");
  EXPECT_EQ(imported->records[7].api().pod().spec().node_name(), "node-a");
  EXPECT_EQ(Label(*imported, "stripped.updates"), "<absent>");
}

TEST(WatchImporterTest, RedactsEverythingOutsideTheSchedulingFields) {
  auto imported = ImportBoth(true);
  ASSERT_TRUE(imported.ok()) << imported.message();
  const std::string text = RecordsText(*imported);
  for (const char* secret : {"hunter2", "TOKEN", "secret-note", "managedFields", "\"value\""}) {
    EXPECT_FALSE(Contains(text, secret)) << secret << " leaked into:\n" << text;
  }
  EXPECT_TRUE(Contains(Label(*imported, "redacted.paths"), "Pod:spec.containers[].env=1"));
  EXPECT_TRUE(Contains(Label(*imported, "redacted.paths"), "Node:metadata.managedFields=1"));
}

TEST(WatchImporterTest, KeepAnnotationsKeepsOnlyTheNamedKeys) {
  ImportOptions options;
  options.keep_annotations = {"secret-note"};
  auto imported = ImportWatch({TestData("watch/capture.json")}, options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(Contains(RecordsText(*imported), "\"secret-note\":\"the password is hunter2\""));
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "0");
}

TEST(WatchImporterTest, PlainWatchOutputWithoutEventWrapper) {
  std::string path =
      WriteTemp("plain.json",
                "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\",\"creationTimestamp\":\"2024-01-"
                "01T00:00:00Z\"}}\n"
                "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"nodeName\":\"n\"}}\n");
  auto imported = ImportWatch({path}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 2u);  // ADDED x, then the binding (its update is stripped)
  EXPECT_EQ(imported->records[0].api().type(), ADDED);
  EXPECT_EQ(imported->records[1].binding().node(), "n");
  EXPECT_EQ(Label(*imported, "observed.bindings"), "1");
}

TEST(WatchImporterTest, BadInputNamesFileLineAndField) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}}\n{\"type\": \"ADDED\",, \"object\": "
       "{}}\n",
       "bad.json: line 2, column 18: JSON: "},
      {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}\n",
       "bad.json: line 1, column 1: JSON: value never ends"},
      {"\n\n{\"type\":\"ADDED\",\"time\":\"yesterday\",\"object\":{\"kind\":\"Pod\"}}",
       "bad.json: line 3: field time: invalid RFC 3339"},
      {"{\"type\":\"UPSERT\",\"object\":{\"kind\":\"Pod\"}}",
       "bad.json: line 1: field type: unknown watch event type \"UPSERT\""},
      {"{\"type\":\"ADDED\",\"object\":{\"metadata\":{}}}",
       "bad.json: line 1: field object.kind: missing"},
      {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"spec\":{\"priority\":\"high\"}}}",
       "bad.json: line 1: object"},
      {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"creationTimestamp\":"
       "\"2024-13-01T00:00:00Z\"}}}",
       "bad.json: line 1: object: field metadata.creationTimestamp: invalid RFC 3339"},
  };
  for (const Case& c : cases) {
    auto imported = ImportWatch({WriteTemp("bad.json", c.text)}, {});
    ASSERT_FALSE(imported.ok()) << c.text;
    EXPECT_TRUE(Contains(imported.message(), c.want)) << imported.message() << "\nwant: " << c.want;
  }
}

}  // namespace
}  // namespace schedcheck::trace

namespace schedcheck::trace {
namespace {

// README.md "Workloads": a controller whose pods the capture lacks is expanded at its first
// event's time (a DaemonSet over the nodes alive then); one whose pods are captured is not.
TEST(WatchImporterTest, WorkloadsWithoutCapturedPodsAreExpanded) {
  const std::string capture = R"(
{"type":"ADDED","time":"2024-03-01T10:00:00Z","object":{"kind":"Node","metadata":{"name":"n1"}}}
{"type":"ADDED","time":"2024-03-01T10:00:01Z","object":{"kind":"Node","metadata":{"name":"n2"}}}
{"type":"ADDED","time":"2024-03-01T10:00:02Z","object":{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds","namespace":"kube-system"},"spec":{"template":{"metadata":{"labels":{"app":"ds"}},"spec":{"containers":[{"name":"c"}]}}}}}
{"type":"ADDED","time":"2024-03-01T10:00:03Z","object":{"kind":"Node","metadata":{"name":"n3"}}}
{"type":"ADDED","time":"2024-03-01T10:00:04Z","object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c"}]}}}}}
{"type":"MODIFIED","time":"2024-03-01T10:00:05Z","object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":9,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c"}]}}}}}
{"type":"ADDED","time":"2024-03-01T10:00:06Z","object":{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"api-7f9c","ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"api","controller":true}]},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"api"}},"template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"c"}]}}}}}
{"type":"ADDED","time":"2024-03-01T10:00:07Z","object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"api"}},"template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"c"}]}}}}}
{"type":"ADDED","time":"2024-03-01T10:00:08Z","object":{"kind":"Pod","metadata":{"name":"api-7f9c-x1","labels":{"app":"api"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"api-7f9c","controller":true}]},"spec":{"containers":[{"name":"c"}]}}}
)";
  auto imported = ImportWatch({WriteTemp("workloads.json", capture)}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> got;
  for (const Record& r : imported->records) {
    const ApiEvent& a = r.api();
    std::string name = a.has_pod()           ? "Pod " + a.pod().metadata().name()
                       : a.has_node()        ? "Node " + a.node().metadata().name()
                       : a.has_replica_set() ? "ReplicaSet " + a.replica_set().metadata().name()
                                             : "?";
    got.push_back(std::to_string(r.time_ns() / kS) + " " + name);
  }
  std::string rs;
  for (const Record& r : imported->records) {
    if (r.api().has_replica_set() &&
        r.api().replica_set().metadata().name().rfind("web-", 0) == 0) {
      rs = r.api().replica_set().metadata().name();
    }
  }
  EXPECT_EQ(got, (std::vector<std::string>{"0 Node n1", "1 Node n2", "2 Pod ds-bbbbb",
                                           "2 Pod ds-bbbbc", "3 Node n3", "4 ReplicaSet " + rs,
                                           "4 Pod " + rs + "-bbbbb", "4 Pod " + rs + "-bbbbc",
                                           "6 ReplicaSet api-7f9c", "8 Pod api-7f9c-x1"}))
      << RecordsText(*imported);
  EXPECT_EQ(rs.rfind("web-", 0), 0u);
  EXPECT_EQ(Label(*imported, "expanded.pods"), "4");
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "<absent>");  // read, not skipped
  EXPECT_EQ(Label(*imported, "read.workloads"), "DaemonSet=1,Deployment=3");
}

// Storage objects of a capture are API events like pods: added, modified and deleted as captured,
// with what the volume plugins read and without what they do not.
TEST(WatchImporterTest, StorageEventsAreImported) {
  auto imported = ImportWatch({TestData("watch/storage.json")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> got;
  for (const Record& r : imported->records) {
    const ApiEvent& a = r.api();
    std::string kind =
        a.GetDescriptor()->FindFieldByNumber(a.object_case())->message_type()->name();
    got.push_back(std::to_string(r.time_ns() / kS) + " " + EventType_Name(a.type()) + " " + kind);
  }
  EXPECT_EQ(got,
            (std::vector<std::string>{
                "0 ADDED StorageClass", "1 ADDED PersistentVolume", "2 ADDED PersistentVolumeClaim",
                "3 MODIFIED PersistentVolumeClaim", "4 ADDED CSIDriver", "5 ADDED CSINode",
                "6 ADDED CSIStorageCapacity", "7 DELETED CSIStorageCapacity",
                "8 DELETED PersistentVolumeClaim", "9 DELETED PersistentVolume"}));
  const auto& r = imported->records;
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[0].api().storage_class().provisioner(), "kubernetes.io/no-provisioner");
  EXPECT_EQ(r[1].api()
                .persistent_volume()
                .spec()
                .node_affinity()
                .required()
                .node_selector_terms(0)
                .match_expressions(0)
                .values(0),
            "n1");
  EXPECT_EQ(r[1].api().persistent_volume().status().phase(), "Available");
  EXPECT_EQ(r[3].api().persistent_volume_claim().spec().volume_name(), "local-pv");
  EXPECT_EQ(r[3].api().persistent_volume_claim().metadata().resource_version(), "8");
  EXPECT_FALSE(r[4].api().csi_driver().spec().attach_required());
  EXPECT_EQ(r[5].api().csi_node().spec().drivers(0).topology_keys(0), "topology.hostpath.csi/node");
  EXPECT_EQ(r[6].api().csi_storage_capacity().metadata().owner_references(0).name(),
            "csi-hostpathplugin");
  EXPECT_EQ(r[8].api().persistent_volume_claim().metadata().deletion_timestamp(),
            "2024-03-01T10:00:07Z");
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "<absent>");
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "0");  // bind-completed is kept
  EXPECT_EQ(r[3].api().persistent_volume_claim().metadata().annotations().at(
                "pv.kubernetes.io/bind-completed"),
            "yes");
  EXPECT_EQ(Label(*imported, "redacted.paths"),
            "CSIDriver:spec.fsGroupPolicy=1,PersistentVolume:spec.local=1,"
            "StorageClass:metadata.managedFields=1");
  EXPECT_FALSE(Contains(RecordsText(*imported), "do-not-leak"));
}

TEST(WatchImporterTest, MalformedStorageObjectNamesLineAndField) {
  auto imported = ImportWatch(
      {WriteTemp("bad.json",
                 "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"metadata\":{\"name\":"
                 "\"n\"}}}\n{\"type\":\"ADDED\",\"object\":{\"kind\":\"StorageClass\","
                 "\"metadata\":{\"name\":\"s\"},\"volumeBindingMode\":[\"Immediate\"]}}\n")},
      {});
  ASSERT_FALSE(imported.ok());
  EXPECT_TRUE(Contains(imported.message(), "bad.json: line 2: object: volumeBindingMode: "))
      << imported.message();
}

TEST(WatchImporterTest, AbsurdReplicasInACaptureNameTheField) {
  auto imported = ImportWatch(
      {WriteTemp(
          "big.json",
          R"({"type":"ADDED","object":{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},"spec":{"replicas":99999999999,"template":{"spec":{"containers":[{"name":"c"}]}}}}})")},
      {});
  ASSERT_FALSE(imported.ok());
  EXPECT_TRUE(Contains(imported.message(), "big.json")) << imported.message();
  EXPECT_TRUE(Contains(imported.message(), "field spec.replicas")) << imported.message();
}

// A real scheduler's writes before the binding (PodScheduled=False, nominatedNodeName),
// preemption's marks on its victim (DisruptionTarget, the deletion mark, a Preempted Event) and the
// Scheduled Events: observed decisions, none of them an input event.
TEST(WatchImporterTest, SchedulerWritesBeforeTheBindingAreObservationsNotInputs) {
  auto imported = ImportWatch({TestData("watch/preemption.json")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  struct Want {
    int64_t t_ns;
    std::string what;
  };
  const std::vector<Want> want = {{0, "ADDED node-a"},
                                  {0, "ADDED low"},
                                  {1 * kS, "binding default/low->node-a"},
                                  {3 * kS, "ADDED high"},
                                  {3 * kS, "ADDED other"},
                                  {4 * kS, "attempt default/high"},
                                  {4 * kS, "preemption default/low by default/high on node-a"},
                                  {4 * kS, "nomination default/high->node-a"},
                                  {4 * kS, "attempt default/other"},
                                  {5 * kS, "MODIFIED high"},
                                  {6 * kS, "DELETED low"},
                                  {7 * kS, "binding default/high->node-a"}};
  ASSERT_EQ(imported->records.size(), want.size()) << RecordsText(*imported);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(imported->records[i].time_ns(), want[i].t_ns) << i;
    EXPECT_EQ(Describe(imported->records[i]), want[i].what) << i;
  }
  EXPECT_TRUE(imported->records[6].preemption().observed());
  EXPECT_TRUE(imported->records[7].nomination().observed());
  // No FailedScheduling Event for `other`: its PodScheduled=False condition is the attempt.
  const Attempt& other = imported->records[8].attempt();
  EXPECT_TRUE(other.observed());
  EXPECT_EQ(other.result(), UNSCHEDULABLE);
  EXPECT_EQ(other.attempt(), 1);
  EXPECT_TRUE(Contains(other.message(), "No preemption victims found for incoming pod"))
      << other.message();
  // The label change stays an input, without the nomination and condition the scheduler wrote.
  const k8s::Pod& high = imported->records[9].api().pod();
  EXPECT_EQ(high.metadata().labels().at("team"), "search");
  EXPECT_EQ(high.status().nominated_node_name(), "");
  EXPECT_EQ(high.status().conditions_size(), 0);
  EXPECT_EQ(high.spec().node_name(), "");
  EXPECT_EQ(imported->records[10].api().pod().spec().node_name(), "");
  EXPECT_EQ(Label(*imported, "observed.bindings"), "2");
  EXPECT_EQ(Label(*imported, "observed.nominations"), "1");
  EXPECT_EQ(Label(*imported, "observed.preempted_events"), "1");
  EXPECT_EQ(Label(*imported, "observed.failed_scheduling"), "1");
  EXPECT_EQ(Label(*imported, "observed.unschedulable_conditions"), "1");
  EXPECT_EQ(Label(*imported, "observed.scheduled_events"), "2");
  // low: binding, kubelet status, DisruptionTarget, deletion mark; high: binding.
  EXPECT_EQ(Label(*imported, "stripped.updates"), "5");
  EXPECT_EQ(Label(*imported, "dropped.scheduler_writes"), "2");  // high's nomination, other's
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "<absent>");      // every Event was read
}

TEST(WatchImporterTest, KeepBindingsStillDropsTheOtherSchedulerWrites) {
  ImportOptions options;
  options.strip_bindings = false;
  auto imported = ImportWatch({TestData("watch/preemption.json")}, options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> low;
  for (const Record& r : imported->records) {
    if (!r.has_api() || !r.api().has_pod() || r.api().pod().metadata().name() != "low") continue;
    low.push_back(EventType_Name(r.api().type()) + " node=" + r.api().pod().spec().node_name() +
                  " phase=" + r.api().pod().status().phase() + " deleting=" +
                  (r.api().pod().metadata().deletion_timestamp().empty() ? "no" : "yes"));
    if (r.api().type() == DELETED) continue;  // the last state, not a write
    for (const auto& c : r.api().pod().status().conditions()) {
      EXPECT_NE(c.type(), "PodScheduled");
      EXPECT_NE(c.type(), "DisruptionTarget");
    }
  }
  // The binding and the kubelet's status stay as captured; preemption's marks do not.
  const std::vector<std::string> want = {"ADDED node= phase=Pending deleting=no",
                                         "MODIFIED node=node-a phase=Pending deleting=no",
                                         "MODIFIED node=node-a phase=Running deleting=no",
                                         "DELETED node=node-a phase=Running deleting=yes"};
  EXPECT_EQ(low, want);
  EXPECT_EQ(Label(*imported, "observed.bindings"), "2");
  EXPECT_EQ(Label(*imported, "dropped.scheduler_writes"), "4");
}

// A deletion mark nobody's preemption made (a user's delete; no kubelet finishes it in a capture
// of a control plane without nodes) stays an input: the pod is terminating, as the informers saw.
TEST(WatchImporterTest, AUsersDeletionMarkOnABoundPodStaysAnInput) {
  const std::string pod =
      R"({"kind":"Pod","metadata":{"name":"x","namespace":"default","uid":"u-x"%s},"spec":{%s"containers":[{"name":"c"}]}})";
  auto object = [&pod](const std::string& meta, const std::string& spec) {
    std::string json = pod;
    json.replace(json.find("%s"), 2, meta);
    json.replace(json.find("%s"), 2, spec);
    return json;
  };
  const std::string path = WriteTemp(
      "terminating.json",
      R"({"type":"ADDED","time":"2024-01-01T00:00:00Z","object":)" + object("", "") + "}\n" +
          R"({"type":"MODIFIED","time":"2024-01-01T00:00:01Z","object":)" +
          object("", R"("nodeName":"n1",)") + "}\n" +
          R"({"type":"MODIFIED","time":"2024-01-01T00:00:09Z","object":)" +
          object(R"(,"deletionTimestamp":"2024-01-01T00:00:39Z")", R"("nodeName":"n1",)") + "}\n");
  auto imported = ImportWatch({path}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 3u) << RecordsText(*imported);
  EXPECT_EQ(Describe(imported->records[1]), "binding default/x->n1");
  const Record& mark = imported->records[2];
  EXPECT_EQ(Describe(mark), "MODIFIED x");
  EXPECT_EQ(mark.api().pod().metadata().deletion_timestamp(), "2024-01-01T00:00:39Z");
  EXPECT_EQ(mark.api().pod().spec().node_name(), "");  // the replay keeps its own placement
}

}  // namespace
}  // namespace schedcheck::trace
