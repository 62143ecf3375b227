// The DRA kinds (resource.k8s.io/v1) through the importers: manifests and watch captures decode
// them with upstream's field names, redact what the schema drops, validate them by upstream's
// rules (errors naming file, line and field), and print as JSON that decodes to the same objects.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include "reference/k8s/k8s_json.h"
#include "traces/importers/import_testing.h"
#include "traces/importers/kss_importer.h"
#include "traces/importers/manifests_importer.h"
#include "traces/importers/watch_importer.h"
#include "traces/trace_file.h"

namespace schedcheck::trace {
namespace {

using testing::Contains;
using testing::Label;
using testing::TestData;
using testing::WriteTemp;

std::string KindOf(const ApiEvent& e) {
  return e.GetReflection()
      ->GetOneofFieldDescriptor(e, e.GetDescriptor()->FindOneofByName("object"))
      ->json_name();
}

TEST(DraImportTest, ManifestsKeepTheGpuClusterInDocumentedOrder) {
  auto imported = ImportManifests({TestData("dra/gpu-cluster.yaml")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::vector<std::string> kinds;
  for (const Record& r : imported->records) kinds.push_back(KindOf(r.api()));
  EXPECT_EQ(kinds, (std::vector<std::string>{"deviceClass", "resourceClaimTemplate", "node",
                                             "resourceSlice", "pod", "pod"}));
  const k8s::DeviceClass& cls = imported->records[0].api().device_class();
  EXPECT_EQ(cls.spec().selectors(0).cel().expression(), "device.driver == \"gpu.example.com\"");
  EXPECT_EQ(cls.spec().extended_resource_name(), "example.com/gpu");
  const k8s::DeviceRequest& request =
      imported->records[1].api().resource_claim_template().spec().spec().devices().requests(0);
  EXPECT_EQ(request.name(), "gpu");
  EXPECT_EQ(request.exactly().device_class_name(), "gpu.example.com");
  const k8s::ResourceSliceSpec& slice = imported->records[3].api().resource_slice().spec();
  EXPECT_EQ(slice.node_name(), "gpu-node-1");
  EXPECT_EQ(slice.pool().resource_slice_count(), 1);
  const k8s::Device& gpu = slice.devices(0);
  EXPECT_EQ(gpu.attributes().at("model").string_value(), "LATEST-GPU-MODEL");
  EXPECT_EQ(gpu.attributes().at("driverVersion").version_value(), "1.0.0");
  EXPECT_TRUE(gpu.attributes().at("index").has_int_value());
  EXPECT_EQ(gpu.attributes().at("index").int_value(), 0);
  EXPECT_TRUE(gpu.attributes().at("mig").has_bool_value());
  EXPECT_FALSE(gpu.attributes().at("mig").has_string_value());
  EXPECT_EQ(gpu.capacity().at("memory").value(), "40Gi");
  EXPECT_EQ(gpu.capacity().at("sm").value(), "108");  // a YAML number becomes the quantity's text
  const k8s::Pod& pod = imported->records[4].api().pod();
  EXPECT_EQ(pod.spec().resource_claims(0).resource_claim_template_name(), "one-gpu");
  EXPECT_EQ(pod.spec().containers(0).resources().claims(0).name(), "gpu");
}

TEST(DraImportTest, RedactionDropsOpaqueParametersAndKeepsClaimAnnotations) {
  auto imported = ImportManifests({TestData("dra/objects-only.yaml")}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  const k8s::ResourceClaim* claim = nullptr;
  for (const Record& r : imported->records) {
    if (r.api().has_resource_claim()) claim = &r.api().resource_claim();
  }
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->metadata().annotations().count("resource.kubernetes.io/pod-claim-name"), 1u);
  EXPECT_EQ(claim->metadata().annotations().count("owner"), 0u);
  EXPECT_EQ(claim->spec().devices().config(0).opaque().driver(), "nic.example.com");
  EXPECT_EQ(claim->spec().devices().requests(0).first_available(1).allocation_mode(), "All");
  EXPECT_EQ(claim->status().allocation().devices().results(0).request(), "nic/fast");
  EXPECT_EQ(claim->status().reserved_for(0).uid(), "1234");
  EXPECT_TRUE(Contains(Label(*imported, "redacted.paths"),
                       "ResourceClaim:spec.devices.config[].opaque.parameters=1"))
      << Label(*imported, "redacted.paths");
  EXPECT_FALSE(Contains(testing::RecordsText(*imported), "9000"));
}

// Every DRA object and pod survives JSON Lines: written as `trace cat` prints records and read back
// by the trace reader, the records are the same messages.
TEST(DraImportTest, JsonLinesRoundTripKeepsEveryObject) {
  for (const char* file : {"dra/gpu-cluster.yaml", "dra/objects-only.yaml"}) {
    auto imported = ImportManifests({TestData(file)}, {});
    ASSERT_TRUE(imported.ok()) << imported.message();
    std::string text = "{\"header\": {\"compat\": \"1.37\"}}\n";
    for (const Record& r : imported->records) text += k8s::ToJson(r) + "\n";
    auto loaded = LoadTrace(WriteTemp("dra.jsonl", text));
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    ASSERT_EQ(loaded->records.size(), imported->records.size());
    for (size_t i = 0; i < loaded->records.size(); ++i) {
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(loaded->records[i],
                                                                     imported->records[i]))
          << k8s::ToJson(imported->records[i]);
    }
  }
}

TEST(DraImportTest, WatchCapturesCarryTheResourceKinds) {
  const std::string capture = WriteTemp(
      "dra-watch.json",
      R"({"type":"ADDED","time":"2026-01-01T00:00:00Z","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s","resourceVersion":"5"},"spec":{"driver":"d","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},"devices":[{"name":"g0","attributes":{"a":{"int":3}}}]}}}
{"type":"ADDED","time":"2026-01-01T00:00:01Z","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"default","resourceVersion":"6"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"d","count":2}}]}}}}
{"type":"MODIFIED","time":"2026-01-01T00:00:02Z","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"default","resourceVersion":"7"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"d","count":2}}]}},"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"d","pool":"n1","device":"g0"}]}}}}}
{"type":"DELETED","time":"2026-01-01T00:00:03Z","object":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"t","resourceVersion":"8"},"spec":{"taint":{"key":"k","effect":"NoSchedule"}}}}
)");
  auto imported = ImportWatch({capture}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 4u);
  EXPECT_EQ(imported->records[0]
                .api()
                .resource_slice()
                .spec()
                .devices(0)
                .attributes()
                .at("a")
                .int_value(),
            3);
  EXPECT_EQ(
      imported->records[1].api().resource_claim().spec().devices().requests(0).exactly().count(),
      2);
  EXPECT_EQ(imported->records[2].api().type(), MODIFIED);
  EXPECT_EQ(imported->records[2]
                .api()
                .resource_claim()
                .status()
                .allocation()
                .devices()
                .results(0)
                .device(),
            "g0");
  EXPECT_EQ(imported->records[3].api().type(), DELETED);
  EXPECT_EQ(imported->records[3].api().device_taint_rule().spec().taint().effect(), "NoSchedule");
  EXPECT_EQ(imported->records[3].time_ns(), 3'000'000'000);
}

TEST(DraImportTest, KssRecordingsCarryTheResourceKinds) {
  const std::string recording = WriteTemp(
      "dra-kss.jsonl",
      R"({"time":"2026-01-01T00:00:00Z","event":"Add","resource":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},"spec":{"selectors":[{"cel":{"expression":"true"}}]}}}
{"time":"2026-01-01T00:00:01Z","event":"Update","resource":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"t","namespace":"default"},"spec":{"spec":{"devices":{"requests":[{"name":"r","firstAvailable":[{"name":"a","deviceClassName":"gpu","count":1}]}]}}}}}
)");
  auto imported = ImportKss({recording}, {});
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->records.size(), 2u);
  EXPECT_EQ(imported->records[0].api().device_class().spec().selectors(0).cel().expression(),
            "true");
  EXPECT_EQ(imported->records[1]
                .api()
                .resource_claim_template()
                .spec()
                .spec()
                .devices()
                .requests(0)
                .first_available(0)
                .device_class_name(),
            "gpu");
}

// Upstream's validation, one rule per row: the error names the file, the line of the document
// and the field.
TEST(DraImportTest, InvalidObjectsNameFileLineAndField) {
  const std::string slice =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n"
      "  driver: d\n  pool: {name: p}\n";
  const std::string claim =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n"
      "  devices:\n    requests:\n";
  struct Case {
    std::string yaml;
    std::string want;
  } cases[] = {
      {slice + "  nodeName: n\n  allNodes: true\n",
       "field spec: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
       "`perDeviceNodeSelection` is required"},
      {slice + "  allNodes: true\n  devices:\n  - name: a\n  - name: a\n",
       "field spec.devices[1].name: duplicate value \"a\""},
      {slice + "  allNodes: true\n  devices:\n  - name: GPU_0\n",
       "field spec.devices[0].name: invalid value \"GPU_0\": must be a DNS label"},
      {slice + "  allNodes: true\n  devices:\n  - name: a\n    attributes:\n      x: {}\n",
       "field spec.devices[0].attributes[\"x\"]: exactly one value must be specified"},
      {slice + "  allNodes: true\n  devices:\n  - name: a\n    nodeName: n\n",
       "field spec.devices[0]: `nodeName`, `nodeSelector` and `allNodes` can only be set on a "
       "device when `perDeviceNodeSelection` is set"},
      {slice + "  allNodes: true\n  devices:\n  - name: a\n    taints:\n    - {key: k, effect: "
               "Evict}\n",
       "field spec.devices[0].taints[0].effect: unsupported value \"Evict\""},
      {claim + "    - name: r\n",
       "field spec.devices.requests[0]: exactly one of `exactly` or "
       "`firstAvailable` is required"},
      {claim + "    - name: r\n      exactly: {deviceClassName: c, count: 0}\n",
       "field spec.devices.requests[0].exactly.count: invalid value 0: must be greater than zero"},
      {claim +
           "    - name: r\n      exactly: {deviceClassName: c, allocationMode: All, count: 2}\n",
       "field spec.devices.requests[0].exactly.count: must not be specified when allocationMode "
       "is All"},
      {claim + "    - name: r\n      exactly: {deviceClassName: c, allocationMode: Some}\n",
       "field spec.devices.requests[0].exactly.allocationMode: unsupported value \"Some\""},
      {claim + "    - name: r\n      exactly: {deviceClassName: c}\n    - name: r\n      exactly: "
               "{deviceClassName: c}\n",
       "field spec.devices.requests[1].name: duplicate value \"r\""},
      {claim + "    - name: r\n      exactly:\n        deviceClassName: c\n        selectors:\n"
               "        - cel: {expression: ''}\n",
       "field spec.devices.requests[0].exactly.selectors[0].cel.expression: Required value"},
      {claim + "    - name: r\n      firstAvailable:\n      - {name: a}\n",
       "field spec.devices.requests[0].firstAvailable[0].deviceClassName: Required value"},
      {claim + "    - name: r\n      exactly: {deviceClassName: c}\n    constraints:\n"
               "    - {requests: [q], matchAttribute: d/x}\n",
       "field spec.devices.constraints[0].requests[0]: invalid value \"q\""},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resourceClaims:\n  - name: g\n"
       "  containers:\n  - name: c\n",
       "field spec.resourceClaims[0]: must specify one of: `resourceClaimName`, "
       "`resourceClaimTemplateName`"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
       "    resources:\n      claims: [{name: g}]\n",
       "field spec.containers[0].resources.claims[0].name: not found: \"g\""},
      {"apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: t}\nspec:\n"
       "  taint: {key: k}\n",
       "field spec.taint.effect: Required value"},
  };
  for (const Case& c : cases) {
    const std::string path = WriteTemp("bad.yaml", "# leading comment\n---\n" + c.yaml);
    auto imported = ImportManifests({path}, {});
    ASSERT_FALSE(imported.ok()) << c.yaml;
    EXPECT_TRUE(Contains(imported.message(), path + ": line 3: " + c.want))
        << imported.message() << "\nwant: " << c.want;
  }
}

// The limits at upstream's maxima: a 129-device slice is refused naming --limit slice-devices.
TEST(DraImportTest, SliceDevicesLimitNamesItsOption) {
  std::string yaml =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n"
      "  driver: d\n  pool: {name: p}\n  allNodes: true\n  devices:\n";
  for (int i = 0; i < 129; ++i) yaml += "  - name: d" + std::to_string(i) + "\n";
  auto imported = ImportManifests({WriteTemp("big.yaml", yaml)}, {});
  ASSERT_FALSE(imported.ok());
  EXPECT_TRUE(Contains(imported.message(),
                       "field resourceSlice.spec.devices: 129 devices, more "
                       "than the limit slice-devices=128"))
      << imported.message();
  ImportOptions raised;
  raised.limits.slice_devices = 200;
  EXPECT_TRUE(ImportManifests({WriteTemp("big.yaml", yaml)}, raised).ok());
}

}  // namespace
}  // namespace schedcheck::trace
