#include "traces/importers/manifests_importer.h"

#include "gtest/gtest.h"
#include "reference/api/rfc3339.h"
#include "traces/importers/import_testing.h"

namespace schedcheck::trace {
namespace {

using testing::Contains;
using testing::Label;
using testing::RecordsText;
using testing::TestData;
using testing::WriteTemp;

std::string Name(const Record& r) {
  const ApiEvent& a = r.api();
  if (a.has_pod()) return "Pod " + a.pod().metadata().name();
  if (a.has_node()) return "Node " + a.node().metadata().name();
  if (a.has_namespace_()) return "Namespace " + a.namespace_().metadata().name();
  if (a.has_priority_class()) return "PriorityClass " + a.priority_class().metadata().name();
  if (a.has_service()) return "Service " + a.service().metadata().name();
  if (a.has_replica_set()) return "ReplicaSet " + a.replica_set().metadata().name();
  if (a.has_stateful_set()) return "StatefulSet " + a.stateful_set().metadata().name();
  if (a.has_persistent_volume())
    return "PersistentVolume " + a.persistent_volume().metadata().name();
  if (a.has_persistent_volume_claim())
    return "PersistentVolumeClaim " + a.persistent_volume_claim().metadata().name();
  if (a.has_storage_class()) return "StorageClass " + a.storage_class().metadata().name();
  if (a.has_csi_node()) return "CSINode " + a.csi_node().metadata().name();
  if (a.has_csi_driver()) return "CSIDriver " + a.csi_driver().metadata().name();
  if (a.has_csi_storage_capacity())
    return "CSIStorageCapacity " + a.csi_storage_capacity().metadata().name();
  return "PodDisruptionBudget " + a.pod_disruption_budget().metadata().name();
}

TEST(ManifestsImporterTest, InitialStateInDocumentedOrderAtTimeZero) {
  ImportOptions options;
  options.keep_annotations = {"schedcheck.io/keep"};
  auto imported = ImportManifests({TestData("manifests")}, options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> names;
  for (const Record& r : imported->records) {
    EXPECT_EQ(r.time_ns(), 0);
    EXPECT_EQ(r.api().type(), ADDED);
    names.push_back(Name(r));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Namespace shop", "PriorityClass high", "Service web",
                                             "Node node-a", "Node node-b", "Pod web-0", "Pod job-1",
                                             "Pod job-2"}));
  EXPECT_EQ(Label(*imported, "start_time"), "1970-01-01T00:00:00Z");
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "Secret=1");
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "3");
  EXPECT_EQ(Label(*imported, "imported.pods"), "3");
  const std::string paths = Label(*imported, "redacted.paths");
  for (const char* want : {"Pod:spec.containers[].command=1", "Pod:spec.containers[].args=1",
                           "Pod:spec.containers[].env=2", "Pod:spec.volumes[].secret=1"}) {
    EXPECT_TRUE(Contains(paths, want)) << want << " not in " << paths;
  }
  const std::string text = RecordsText(*imported);
  for (const char* secret :
       {"hunter2", "s3cr3t", "do-not-leak", "db-creds", "payments", "\"other\""}) {
    EXPECT_FALSE(Contains(text, secret)) << secret << " leaked into:\n" << text;
  }
  EXPECT_TRUE(Contains(text, "\"schedcheck.io/keep\":\"yes\""));
  EXPECT_TRUE(Contains(text, "\"claimName\":\"web-data\""));  // PVC claims matter to scheduling
}

// Workloads become pods (README.md "Workloads"): the Deployment's ReplicaSet and 4 pods, the
// DaemonSet's pods on the nodes whose taints it tolerates, and no pods for the StatefulSet whose
// pod is given.
TEST(ManifestsImporterTest, WorkloadsBecomeTheirControllersPods) {
  auto imported = ImportManifests({TestData("workloads")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> names;
  std::string rs;
  for (const Record& r : imported->records) {
    names.push_back(Name(r));
    if (r.api().has_replica_set()) rs = r.api().replica_set().metadata().name();
  }
  ASSERT_EQ(rs.rfind("web-", 0), 0u);
  std::vector<std::string> want = {"Service web", "StatefulSet db", "ReplicaSet " + rs,
                                   "Node node-a", "Node node-b",    "Node node-c",
                                   "Pod db-0"};
  for (const char* suffix : {"bbbbb", "bbbbc", "bbbbd", "bbbbf"})
    want.push_back("Pod " + rs + "-" + suffix);
  want.push_back("Pod logs-bbbbb");
  want.push_back("Pod logs-bbbbc");
  EXPECT_EQ(names, want);
  EXPECT_EQ(Label(*imported, "expanded.pods"), "6");
  EXPECT_EQ(Label(*imported, "imported.pods"), "7");
  const std::string text = RecordsText(*imported);
  EXPECT_FALSE(Contains(text, "hunter2")) << text;
  EXPECT_TRUE(Contains(Label(*imported, "redacted.paths"), "Pod:spec.containers[].env=4"));
  // Same input, same bytes.
  auto again = ImportManifests({TestData("workloads")}, {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(RecordsText(*again), text);
}

// Every storage kind is imported (README.md "manifests": classes and drivers, volumes, claims,
// nodes, CSINodes and capacities, pods), keeping what the volume plugins read and nothing else.
TEST(ManifestsImporterTest, StorageObjectsKeepTheirSchedulingFields) {
  auto imported = ImportManifests({TestData("storage")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> names;
  for (const Record& r : imported->records) {
    EXPECT_EQ(r.api().type(), ADDED);
    names.push_back(Name(r));
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "StorageClass fast", "CSIDriver ebs.csi.aws.com", "PersistentVolume pv-csi",
                       "PersistentVolume pv-gce", "PersistentVolumeClaim data", "Node node-a",
                       "CSINode node-a", "CSIStorageCapacity csisc-zone-a", "Pod app"}));
  ASSERT_EQ(names.size(), 9u);
  const auto& r = imported->records;
  const k8s::StorageClass& sc = r[0].api().storage_class();
  EXPECT_EQ(sc.volume_binding_mode(), "WaitForFirstConsumer");
  EXPECT_EQ(sc.allowed_topologies(0).match_label_expressions(0).values_size(), 2);
  const k8s::CSIDriver& driver = r[1].api().csi_driver();
  EXPECT_TRUE(driver.spec().attach_required());
  EXPECT_TRUE(driver.spec().storage_capacity());
  const k8s::PersistentVolume& pv = r[2].api().persistent_volume();
  EXPECT_EQ(pv.spec().capacity().at("storage"), "10Gi");
  EXPECT_EQ(pv.spec().access_modes(0), "ReadWriteOnce");
  EXPECT_EQ(pv.spec().claim_ref().name(), "data");
  EXPECT_EQ(pv.spec().storage_class_name(), "fast");
  EXPECT_EQ(pv.spec().csi().driver(), "ebs.csi.aws.com");
  EXPECT_EQ(pv.spec().csi().volume_handle(), "vol-0abc");
  EXPECT_EQ(pv.spec().node_affinity().required().node_selector_terms_size(), 1);
  EXPECT_EQ(pv.status().phase(), "Bound");
  EXPECT_EQ(r[3].api().persistent_volume().spec().gce_persistent_disk().pd_name(), "disk-1");
  const k8s::PersistentVolumeClaim& claim = r[4].api().persistent_volume_claim();
  EXPECT_EQ(claim.metadata().namespace_(), "shop");
  EXPECT_EQ(claim.metadata().uid(), "0d1c-claim");
  EXPECT_EQ(claim.metadata().resource_version(), "41");
  EXPECT_EQ(claim.spec().volume_name(), "pv-csi");
  EXPECT_EQ(claim.spec().resources().requests().at("storage"), "10Gi");
  EXPECT_EQ(claim.status().phase(), "Bound");
  const k8s::CSINode& csi_node = r[6].api().csi_node();
  EXPECT_EQ(csi_node.spec().drivers(0).node_id(), "i-0123");
  EXPECT_EQ(csi_node.spec().drivers(0).allocatable().count(), 25);
  EXPECT_EQ(csi_node.metadata().owner_references(0).kind(), "Node");
  const k8s::CSIStorageCapacity& capacity = r[7].api().csi_storage_capacity();
  EXPECT_EQ(capacity.capacity(), "100Gi");
  EXPECT_EQ(capacity.maximum_volume_size(), "16Ti");
  EXPECT_EQ(capacity.node_topology().match_labels().at("topology.ebs.csi.aws.com/zone"), "zone-a");
  // Annotations go unless asked for, except the volume plugins' own (scheduling fields).
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "3");
  EXPECT_EQ(claim.metadata().annotations().size(), 2u);
  const std::string paths = Label(*imported, "redacted.paths");
  for (const char* want :
       {"PersistentVolumeClaim:spec.dataSource=1", "PersistentVolumeClaim:metadata.finalizers=1",
        "PersistentVolumeClaim:metadata.managedFields=1",
        "PersistentVolume:spec.csi.nodeStageSecretRef=1", "PersistentVolume:status.message=1",
        "StorageClass:metadata.managedFields=1", "CSIDriver:spec.fsGroupPolicy=1",
        "CSIDriver:spec.requiresRepublish=1"}) {
    EXPECT_TRUE(Contains(paths, want)) << want << " not in " << paths;
  }
  const std::string text = RecordsText(*imported);
  EXPECT_FALSE(Contains(text, "do-not-leak")) << text;
  EXPECT_EQ(Label(*imported, "skipped.kinds"), "<absent>");
}

// The volume plugins' annotations on storage objects are scheduling fields: kept without
// --keep-annotations; every other annotation (last-applied, provisioned-by, default-class) is not.
TEST(ManifestsImporterTest, VolumePluginsAnnotationsAreKeptWithoutAsking) {
  auto imported = ImportManifests({TestData("storage/storage.yaml")}, ImportOptions{});
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(Label(*imported, "redacted.annotations"), "3");
  const auto& claim = imported->records[4].api().persistent_volume_claim().metadata();
  EXPECT_EQ(claim.annotations().at("pv.kubernetes.io/bind-completed"), "yes");
  EXPECT_EQ(claim.annotations().at("volume.kubernetes.io/selected-node"), "node-a");
  EXPECT_EQ(claim.annotations().size(), 2u);
  EXPECT_EQ(imported->records[6].api().csi_node().metadata().annotations().at(
                "storage.alpha.kubernetes.io/migrated-plugins"),
            "kubernetes.io/aws-ebs");
}

TEST(ManifestsImporterTest, MalformedStorageObjectNamesFileLineAndField) {
  auto out = ImportManifests(
      {WriteTemp("pv.yaml",
                 "kind: Node\nmetadata: {name: n}\n---\napiVersion: v1\nkind: PersistentVolume\n"
                 "metadata: {name: pv}\nspec:\n  claimRef: data\n")},
      {});
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(Contains(out.message(), "pv.yaml: line 4: (spec.claim_ref): invalid value \"data\""))
      << out.message();
}

// A StatefulSet with claim templates: one claim per pod per template, in the claims' group (before
// every pod), each pod mounting both; a claim the input holds is used, not made again.
TEST(ManifestsImporterTest, StatefulSetClaimTemplatesBecomeClaims) {
  const std::string yaml = R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  - metadata: {name: wal}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}
)";
  auto imported = ImportManifests({WriteTemp("sts.yaml", yaml)}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> names;
  for (const Record& r : imported->records) names.push_back(Name(r));
  EXPECT_EQ(names, (std::vector<std::string>{
                       "StatefulSet db", "PersistentVolumeClaim data-db-0",
                       "PersistentVolumeClaim wal-db-0", "PersistentVolumeClaim data-db-1",
                       "PersistentVolumeClaim wal-db-1", "PersistentVolumeClaim data-db-2",
                       "PersistentVolumeClaim wal-db-2", "Pod db-0", "Pod db-1", "Pod db-2"}));
  ASSERT_EQ(names.size(), 10u);
  for (int i = 0; i < 3; ++i) {
    const k8s::Pod& pod = imported->records[7 + i].api().pod();
    ASSERT_EQ(pod.spec().volumes_size(), 2);
    EXPECT_EQ(pod.spec().volumes(0).persistent_volume_claim().claim_name(),
              "data-db-" + std::to_string(i));
    EXPECT_EQ(pod.spec().volumes(1).name(), "wal");
    EXPECT_EQ(pod.spec().volumes(1).persistent_volume_claim().claim_name(),
              "wal-db-" + std::to_string(i));
  }
  EXPECT_EQ(imported->records[2].api().persistent_volume_claim().spec().resources().requests().at(
                "storage"),
            "2Gi");
  EXPECT_EQ(Label(*imported, "expanded.pods"), "3");
  // The claim data-db-1 given (bound): the controller would use it.
  auto given = ImportManifests(
      {WriteTemp("sts2.yaml",
                 yaml + "---\nkind: PersistentVolumeClaim\nmetadata: {name: data-db-1, namespace: "
                        "data}\nspec: {volumeName: pv-7}\n")},
      {});
  ASSERT_TRUE(given.ok()) << given.message();
  int claims = 0;
  for (const Record& r : given->records) {
    if (!r.api().has_persistent_volume_claim()) continue;
    ++claims;
    if (r.api().persistent_volume_claim().metadata().name() == "data-db-1") {
      EXPECT_EQ(r.api().persistent_volume_claim().spec().volume_name(), "pv-7");
    }
  }
  EXPECT_EQ(claims, 6);
}

TEST(ManifestsImporterTest, AbsurdReplicasNameTheField) {
  auto out = ImportManifests(
      {WriteTemp("big.yaml",
                 "kind: ReplicaSet\nmetadata: {name: x}\nspec:\n  replicas: 1000000000\n"
                 "  template: {spec: {containers: [{name: c}]}}\n")},
      {});
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(Contains(out.message(), "big.yaml: line 1: field spec.replicas")) << out.message();
}

TEST(ManifestsImporterTest, StartTimeSetsTheEpoch) {
  ImportOptions options;
  options.start_unix_ns = *reference::ParseRfc3339("2024-01-02T03:04:05Z");
  auto imported = ImportManifests({TestData("manifests/cluster.yaml")}, options);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(Label(*imported, "start_time"), "2024-01-02T03:04:05Z");
  EXPECT_EQ(imported->records.front().time_ns(), 0);
}

TEST(ManifestsImporterTest, BadInputNamesFileLineAndField) {
  auto yaml =
      ImportManifests({WriteTemp("bad.yaml", "kind: Pod\nmetadata:\n  name: [unclosed\n")}, {});
  ASSERT_FALSE(yaml.ok());
  EXPECT_TRUE(Contains(yaml.message(), "bad.yaml: line ")) << yaml.message();
  auto field = ImportManifests(
      {WriteTemp("bad2.yaml",
                 "kind: Node\nmetadata:\n  name: n\n---\nkind: Pod\nspec:\n  priority: high\n")},
      {});
  ASSERT_FALSE(field.ok());
  EXPECT_TRUE(Contains(field.message(), "bad2.yaml: line 5")) << field.message();
  auto kind = ImportManifests({WriteTemp("bad3.json", "{\"metadata\": {\"name\": \"x\"}}")}, {});
  ASSERT_FALSE(kind.ok());
  EXPECT_TRUE(Contains(kind.message(), "bad3.json: line 1: field kind: missing")) << kind.message();
  auto missing = ImportManifests({"/nonexistent/x.yaml"}, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.message(), "/nonexistent/x.yaml: no such file"))
      << missing.message();
}

// What an API server refuses is refused here, naming the file, the document's line and the field
// (hostile manifests met in testing, one document each after a valid node).
TEST(ManifestsImporterTest, ObjectsAnApiServerRefusesAreRefused) {
  const std::string node = "kind: Node\nmetadata: {name: n}\n---\n";
  struct Case {
    std::string yaml;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"kind: Job\nmetadata: {name: j}\nspec:\n  suspend: \"true\"\n",
       "line 4: field spec.suspend: expected a boolean, got string"},
      {"kind: DaemonSet\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n"
       "      hostNetwork: \"yes\"\n",
       "line 4: field spec.template.spec.hostNetwork: expected a boolean, got string"},
      {"kind: DaemonSet\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n"
       "      tolerations: all\n",
       "line 4: field spec.template.spec.tolerations: expected a list, got string"},
      {"kind: StatefulSet\nmetadata: {name: s}\nspec:\n  ordinals: 7\n",
       "line 4: field spec.ordinals: expected an object, got number"},
      {"kind: CSINode\nmetadata: {name: n}\nspec:\n  drivers: [{name: d, nodeID: n, "
       "allocatable: {count: -1}}]\n",
       "line 4: field spec.drivers[0].allocatable.count: must be greater than or equal to 0"},
      {"kind: StatefulSet\nmetadata: {name: s}\nspec:\n  volumeClaimTemplates:\n"
       "  - metadata: {name: data}\n  - metadata: {name: data}\n",
       "line 4: field spec.volumeClaimTemplates[1].metadata.name: duplicate value \"data\""},
      {"kind: Job\nmetadata: {name: j}\nspec:\n  completionMode: Sometimes\n",
       "line 4: field spec.completionMode: unsupported value \"Sometimes\""},
      {"kind: Pod\nmetadata: {name: p}\nspec:\n  initContainers: [{name: i, restartPolicy: "
       "Never}]\n  containers: [{name: c}]\n",
       "line 4: field spec.initContainers[0].restartPolicy: unsupported value \"Never\""},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string file = "hostile" + std::to_string(i) + ".yaml";
    auto out = ImportManifests({WriteTemp(file, node + cases[i].yaml)}, {});
    ASSERT_FALSE(out.ok()) << cases[i].yaml;
    EXPECT_TRUE(Contains(out.message(), file + ": " + cases[i].error)) << out.message();
  }
}

// Expansion is bounded by what the workloads *will* create, before anything is built: the limit
// expanded-objects counts every expanded object of the import.
TEST(ManifestsImporterTest, ExpansionIsBoundedBeforeItIsBuilt) {
  std::string claims;
  for (int i = 0; i < 20; ++i)
    claims += "  - metadata: {name: c" + std::to_string(i) + "}\n    spec: {}\n";
  auto huge = ImportManifests(
      {WriteTemp("sts.yaml",
                 "kind: StatefulSet\nmetadata: {name: s}\nspec:\n  replicas: 100000\n"
                 "  volumeClaimTemplates:\n" +
                     claims + "  template: {spec: {containers: [{name: c}]}}\n")},
      {});
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(Contains(
      huge.message(),
      "/sts.yaml: line 1: field spec.replicas: expands to 2100000 objects, more than the "
      "1000000 objects left under the limit expanded-objects=1000000 (raise it with --limit "
      "expanded-objects=N)"))
      << huge.message();

  // The limit is shared by every workload of the import: the second Deployment has no room left.
  const std::string two =
      "kind: Deployment\nmetadata: {name: a}\nspec:\n  replicas: 600\n"
      "  template: {spec: {containers: [{name: c}]}}\n---\n"
      "kind: Deployment\nmetadata: {name: b}\nspec:\n  replicas: 600\n"
      "  template: {spec: {containers: [{name: c}]}}\n";
  ImportOptions small;
  small.limits.expanded_objects = 1000;
  auto refused = ImportManifests({WriteTemp("two.yaml", two)}, small);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(
      Contains(refused.message(),
               "/two.yaml: line 7: field spec.replicas: expands to 601 objects, more than the 399 "
               "objects left under the limit expanded-objects=1000 (raise it with --limit "
               "expanded-objects=N)"))
      << refused.message();
  small.limits.expanded_objects = 1202;
  auto fits = ImportManifests({WriteTemp("two.yaml", two)}, small);
  ASSERT_TRUE(fits.ok()) << fits.message();
  EXPECT_EQ(Label(*fits, "expanded.pods"), "1200");
  EXPECT_EQ(Label(*fits, "read.workloads"), "Deployment=2");
}

}  // namespace
}  // namespace schedcheck::trace
