// The redaction counts (redacted.fields, redacted.paths) against the definition they implement:
// print the decoded object as proto3 JSON, parse it back, and count the input's non-empty fields
// missing from it. The Redactor walks the message by reflection instead; both must agree.
#include "traces/importers/redaction.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::trace {
namespace {

using nlohmann::json;

bool Empty(const json& v) {
  if (v.is_null()) return true;
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_number()) return v.get<double>() == 0;
  if (v.is_string()) return v.get_ref<const std::string&>().empty();
  return v.empty();
}

// The definition: input fields with a non-empty value that the printed message lacks.
void RoundTripDropped(const json& in, const json& out, const std::string& kind,
                      const std::string& path, std::map<std::string, int64_t>* paths) {
  if (in.is_object()) {
    for (const auto& [key, value] : in.items()) {
      if (Empty(value)) continue;
      const std::string child = path.empty() ? key : path + "." + key;
      if (!out.is_object() || !out.contains(key)) {
        ++(*paths)[kind + ":" + child];
        continue;
      }
      RoundTripDropped(value, out[key], kind, child, paths);
    }
  } else if (in.is_array() && out.is_array() && in.size() == out.size()) {
    for (size_t i = 0; i < in.size(); ++i)
      RoundTripDropped(in[i], out[i], kind, path + "[]", paths);
  }
}

std::string JoinPaths(const std::map<std::string, int64_t>& paths) {
  std::string out;
  for (const auto& [path, n] : paths)
    out += (out.empty() ? "" : ",") + path + "=" + std::to_string(n);
  return out;
}

const google::protobuf::Message& Decoded(const ApiEvent& event) {
  switch (event.object_case()) {
    case ApiEvent::kPod:
      return event.pod();
    case ApiEvent::kNode:
      return event.node();
    case ApiEvent::kNamespace:
      return event.namespace_();
    case ApiEvent::kPriorityClass:
      return event.priority_class();
    case ApiEvent::kPodDisruptionBudget:
      return event.pod_disruption_budget();
    case ApiEvent::kService:
      return event.service();
    case ApiEvent::kReplicationController:
      return event.replication_controller();
    case ApiEvent::kReplicaSet:
      return event.replica_set();
    case ApiEvent::kStatefulSet:
      return event.stateful_set();
    case ApiEvent::kPersistentVolume:
      return event.persistent_volume();
    case ApiEvent::kPersistentVolumeClaim:
      return event.persistent_volume_claim();
    case ApiEvent::kStorageClass:
      return event.storage_class();
    case ApiEvent::kCsiNode:
      return event.csi_node();
    case ApiEvent::kCsiDriver:
      return event.csi_driver();
    case ApiEvent::kCsiStorageCapacity:
      return event.csi_storage_capacity();
    default:
      ADD_FAILURE() << "no object";
      return event;
  }
}

// Decodes each object with a Redactor that keeps every annotation (annotations are counted on
// their own) and compares its path counts with the round trip's.
void ExpectCountsOfTheRoundTrip(const std::vector<json>& objects) {
  Redactor redactor({});
  std::map<std::string, int64_t> want;
  int64_t want_fields = 0;
  for (const json& object : objects) {
    const std::string kind = object.value("kind", "");
    ApiEvent event;
    ASSERT_TRUE(redactor.Decode(object, kind, "test", &event).ok()) << object.dump();
    const json printed = json::parse(k8s::ToJson(Decoded(event)));
    json without_annotations = object;
    if (without_annotations.contains("metadata"))
      without_annotations["metadata"].erase("annotations");
    std::map<std::string, int64_t> paths;
    RoundTripDropped(without_annotations, printed, kind, "", &paths);
    for (const auto& [path, n] : paths) {
      want[path] += n;
      want_fields += n;
    }
  }
  Imported imported;
  redactor.AddLabels(&imported);
  EXPECT_EQ(imported.labels["redacted.paths"], JoinPaths(want));
  EXPECT_EQ(imported.labels.count("redacted.fields") ? imported.labels["redacted.fields"] : "0",
            std::to_string(want_fields));
}

TEST(Redactor, CountsWhatTheRoundTripCounts) {
  const std::vector<json> objects = {
      json::parse(R"({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "ns", "uid": "u", "labels": {"a": "1", "b": ""},
                     "managedFields": [{"manager": "kubectl"}], "generation": 3},
        "spec": {"containers": [{"name": "c", "image": "i", "env": [{"name": "X"}],
                                 "resources": {"requests": {"cpu": "1"}}},
                                {"name": "d", "ports": [{"containerPort": 80, "name": "http", "hostPort": "0"}]}],
                 "priority": 0, "hostNetwork": false, "dnsPolicy": "ClusterFirst",
                 "terminationGracePeriodSeconds": 30, "schedulerName": "",
                 "securityContext": {"runAsUser": 1000},
                 "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute",
                                  "tolerationSeconds": 5}],
                 "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                   {"nodeSelectorTerms": [{"matchExpressions":
                     [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}},
        "status": {"phase": "Pending", "hostIP": "10.0.0.1", "podIP": "10.1.0.1",
                   "conditions": [{"type": "PodScheduled", "status": "False"}]}})"),
      json::parse(R"({"kind": "Node", "metadata": {"name": "n", "resourceVersion": "7"},
        "spec": {"providerID": "aws://x", "podCIDR": "10.2.0.0/24", "unschedulable": true,
                 "taints": [{"key": "t", "effect": "NoSchedule", "timeAdded": "2024-01-01T00:00:00Z"}]},
        "status": {"capacity": {"cpu": "4"}, "allocatable": {"cpu": "4", "pods": "110"},
                   "nodeInfo": {"kubeletVersion": "v1.27"}, "images": [{"names": ["a"], "sizeBytes": 5}]}})"),
      json::parse(R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "ns"},
        "spec": {"minAvailable": "50%", "selector": {"matchLabels": {"app": "a"}}},
        "status": {"disruptionsAllowed": 1, "currentHealthy": 3, "observedGeneration": 2}})"),
      json::parse(R"({"kind": "Service", "metadata": {"name": "s", "namespace": "ns"},
        "spec": {"selector": {"app": "a"}, "ports": [{"port": 80}], "clusterIP": "10.3.0.1"}})"),
      json::parse(R"({"kind": "Namespace", "metadata": {"name": "ns", "labels": {"x": "y"}},
        "status": {"phase": "Active"}})"),
      json::parse(R"({"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000,
        "globalDefault": false, "description": "d", "preemptionPolicy": "Never"})"),
  };
  ExpectCountsOfTheRoundTrip(objects);
}

// The storage kinds, each with fields the schema lacks (what the volume plugins do not read).
TEST(Redactor, CountsWhatTheRoundTripCountsForStorage) {
  const std::vector<json> objects = {
      json::parse(R"({"apiVersion": "v1", "kind": "PersistentVolume",
        "metadata": {"name": "pv", "finalizers": ["kubernetes.io/pv-protection"]},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                 "claimRef": {"namespace": "ns", "name": "c", "fieldPath": "x"},
                 "awsElasticBlockStore": {"volumeID": "vol-1", "fsType": "ext4"},
                 "local": {"path": "/mnt"}, "storageClassName": "sc",
                 "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions":
                   [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
        "status": {"phase": "Bound", "lastPhaseTransitionTime": "2024-01-01T00:00:00Z"}})"),
      json::parse(R"({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": "c", "namespace": "ns", "uid": "u", "deletionTimestamp": "2024-01-01T00:00:00Z",
                     "ownerReferences": [{"kind": "StatefulSet", "name": "s", "blockOwnerDeletion": true}]},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                 "storageClassName": "", "volumeName": "pv",
                 "dataSourceRef": {"kind": "VolumeSnapshot", "name": "s"}},
        "status": {"phase": "Bound", "allocatedResources": {"storage": "1Gi"}}})"),
      json::parse(R"({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"name": "sc", "managedFields": [{"manager": "m"}]},
        "provisioner": "p", "volumeBindingMode": "WaitForFirstConsumer",
        "allowedTopologies": [{"matchLabelExpressions": [{"key": "zone", "values": ["a"]}]}]})"),
      json::parse(R"({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
        "metadata": {"name": "n"},
        "spec": {"drivers": [{"name": "d", "nodeID": "i", "topologyKeys": ["zone"],
                              "allocatable": {"count": 3}}]}})"),
      json::parse(R"({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
        "metadata": {"name": "d"},
        "spec": {"attachRequired": false, "storageCapacity": true, "fsGroupPolicy": "File",
                 "tokenRequests": [{"audience": "a"}]}})"),
      json::parse(R"({"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
        "metadata": {"name": "c", "namespace": "ns"},
        "nodeTopology": {"matchLabels": {"zone": "a"}}, "storageClassName": "sc",
        "capacity": "10Gi", "maximumVolumeSize": "1Ti"})"),
  };
  ExpectCountsOfTheRoundTrip(objects);
}

// Each storage kind keeps what the volume plugins read, drops a field they do not, and keeps the
// volume plugins' annotations (scheduling fields) without being asked, the others only when asked.
TEST(Redactor, StorageKindsKeepTheirSchedulingFields) {
  Redactor redactor({"example.com/asked-for"});
  for (const char* kind : {"PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode",
                           "CSIDriver", "CSIStorageCapacity"}) {
    EXPECT_TRUE(IsTraceKind(kind)) << kind;
    EXPECT_TRUE(IsStorageKind(kind)) << kind;
  }
  EXPECT_FALSE(IsStorageKind("VolumeAttachment"));
  ApiEvent claim;
  ASSERT_TRUE(redactor
                  .Decode(json::parse(R"({"kind": "PersistentVolumeClaim",
        "metadata": {"name": "c", "namespace": "ns", "resourceVersion": "9",
                     "annotations": {"pv.kubernetes.io/bind-completed": "yes",
                                     "example.com/asked-for": "a",
                                     "example.com/not-asked-for": "b"}},
        "spec": {"volumeName": "pv", "storageClassName": "",
                 "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}}})"),
                          "PersistentVolumeClaim", "test", &claim)
                  .ok());
  const k8s::PersistentVolumeClaim& c = claim.persistent_volume_claim();
  EXPECT_EQ(c.spec().volume_name(), "pv");
  EXPECT_TRUE(c.spec().has_storage_class_name());  // "" (no class) differs from absent
  EXPECT_EQ(c.metadata().resource_version(), "9");
  EXPECT_EQ(c.metadata().annotations().size(), 2u);
  EXPECT_EQ(c.metadata().annotations().at("pv.kubernetes.io/bind-completed"), "yes");
  EXPECT_EQ(c.metadata().annotations().at("example.com/asked-for"), "a");
  EXPECT_EQ(k8s::ToJson(c).find("src"), std::string::npos);
  ApiEvent pv;
  ASSERT_TRUE(redactor
                  .Decode(json::parse(R"({"kind": "PersistentVolume", "metadata": {"name": "pv"},
        "spec": {"csi": {"driver": "d", "volumeHandle": "h",
                         "controllerPublishSecretRef": {"name": "secret-name"}},
                 "azureDisk": {"diskName": "x", "diskURI": "uri"}}})"),
                          "PersistentVolume", "test", &pv)
                  .ok());
  EXPECT_EQ(pv.persistent_volume().spec().csi().volume_handle(), "h");
  EXPECT_EQ(pv.persistent_volume().spec().azure_disk().data_disk_uri(), "uri");
  EXPECT_EQ(k8s::ToJson(pv.persistent_volume()).find("secret-name"), std::string::npos);
  Imported imported;
  redactor.AddLabels(&imported);
  EXPECT_EQ(imported.labels["redacted.annotations"], "1");  // selected-node: not asked for
  EXPECT_EQ(imported.labels["redacted.paths"],
            "PersistentVolume:spec.csi.controllerPublishSecretRef=1,"
            "PersistentVolumeClaim:spec.dataSource=1");
}

// A storage object of the wrong shape is an error naming where and the field.
TEST(Redactor, MalformedStorageObjectsNameTheField) {
  Redactor redactor({});
  ApiEvent event;
  Outcome bad = redactor.Decode(json::parse(R"({"kind": "CSINode", "metadata": {"name": "n"},
        "spec": {"drivers": [{"name": "d", "allocatable": {"count": "many"}}]}})"),
                                "CSINode", "c.yaml: line 3", &event);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "c.yaml: line 3: (spec.drivers[0].allocatable.count): invalid value \"many\" for type "
            "TYPE_INT32");
}

// Every object of the watch test captures.
TEST(Redactor, CountsWhatTheRoundTripCountsOnTheTestCaptures) {
  std::vector<json> objects;
  for (const char* file : {"traces/importers/testdata/watch/capture.json",
                           "traces/importers/testdata/watch/capture2.json",
                           "traces/importers/testdata/watch/storage.json"}) {
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    std::stringstream text;
    text << in.rdbuf();
    std::istringstream stream(text.str());
    while (stream >> std::ws && stream.peek() != EOF) {
      json entry;
      stream >> entry;
      const json& object = entry.contains("object") ? entry["object"] : entry;
      if (object.is_object() && IsTraceKind(object.value("kind", ""))) objects.push_back(object);
    }
  }
  ASSERT_GE(objects.size(), 5u);
  ExpectCountsOfTheRoundTrip(objects);
}

}  // namespace
}  // namespace schedcheck::trace
