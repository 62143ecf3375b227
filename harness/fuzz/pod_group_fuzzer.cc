// The parsers of the scheduling.k8s.io/v1beta1 objects (Workload, PodGroup) and a pod's
// spec.schedulingGroup: a manifest file through `import --from manifests` (decoding, validation,
// the group-pods limit, redaction, a Job's expansion into pods naming their group), then every
// pod group object and pod it produced through the JSON Lines round trip: printed as JSON, decoded
// again, it must be the same message (aborts otherwise: a finding; an empty `basic: {}` policy
// must stay present). The first byte chooses YAML (even) or JSON (odd).
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
    case trace::ApiEvent::kWorkload:
      return RoundTrip(e.workload(), &k8s::WorkloadFromJson);
    case trace::ApiEvent::kPodGroup:
      return RoundTrip(e.pod_group(), &k8s::PodGroupFromJson);
    default:
      return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::string path = fuzz::WriteInput(data[0] % 2 ? "pod_group.json" : "pod_group.yaml",
                                      fuzz::Bytes(data + 1, size - 1));
  trace::ImportOptions options;
  options.limits.records = 1'000;  // as manifests_fuzzer: workloads expand within it
  Result<trace::Imported> imported = trace::Import("manifests", {path}, options);
  if (!imported.ok()) return 0;
  for (const trace::Record& r : imported->records) {
    if (r.has_api()) RoundTripEvent(r.api());
  }
  return 0;
}
