// The parsers of the resource.k8s.io/v1 objects (ResourceClaim, ResourceClaimTemplate,
// ResourceSlice, DeviceClass, DeviceTaintRule) and a pod's DRA fields: a manifest file through
// `import --from manifests` (decoding, validation, limits, redaction), then every DRA object and
// pod it produced through the JSON Lines round trip: printed as JSON, decoded again, it must be
// the same message (aborts otherwise: a finding). The first byte chooses YAML or JSON.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <google/protobuf/util/message_differencer.h>

#include "harness/fuzz/fuzz_util.h"
#include "reference/k8s/k8s_json.h"
#include "traces/importers/importer.h"

namespace {

using namespace schedcheck;

template <typename Message>
void RoundTrip(const Message& m,
               Result<Message> (*decode)(const nlohmann::json&, const std::string&)) {
  Result<nlohmann::json> json = k8s::ParseJson(k8s::ToJson(m), "round trip");
  if (!json.ok()) {
    std::fprintf(stderr, "printed JSON does not parse: %s\n", json.message().c_str());
    std::abort();
  }
  Result<Message> again = decode(*json, "round trip");
  if (!again.ok() || !google::protobuf::util::MessageDifferencer::Equals(m, *again)) {
    std::fprintf(stderr, "JSON round trip changed %s: %s\n", m.GetTypeName().c_str(),
                 k8s::ToJson(m).c_str());
    std::abort();
  }
}

void RoundTripEvent(const trace::ApiEvent& e) {
  switch (e.object_case()) {
    case trace::ApiEvent::kPod:
      return RoundTrip(e.pod(), &k8s::PodFromJson);
    case trace::ApiEvent::kResourceClaim:
      return RoundTrip(e.resource_claim(), &k8s::ResourceClaimFromJson);
    case trace::ApiEvent::kResourceClaimTemplate:
      return RoundTrip(e.resource_claim_template(), &k8s::ResourceClaimTemplateFromJson);
    case trace::ApiEvent::kResourceSlice:
      return RoundTrip(e.resource_slice(), &k8s::ResourceSliceFromJson);
    case trace::ApiEvent::kDeviceClass:
      return RoundTrip(e.device_class(), &k8s::DeviceClassFromJson);
    case trace::ApiEvent::kDeviceTaintRule:
      return RoundTrip(e.device_taint_rule(), &k8s::DeviceTaintRuleFromJson);
    default:
      return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string path =
      fuzz::WriteInput(data[0] % 2 ? "dra.json" : "dra.yaml", fuzz::Bytes(data + 1, size - 1));
  trace::ImportOptions options;
  options.limits.records = 1'000;  // as manifests_fuzzer: workloads expand within it
  Result<trace::Imported> imported = trace::Import("manifests", {path}, options);
  if (!imported.ok()) return 0;
  for (const trace::Record& r : imported->records) {
    if (r.has_api()) RoundTripEvent(r.api());
  }
  return 0;
}
