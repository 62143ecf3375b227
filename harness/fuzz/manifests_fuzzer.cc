// Kubernetes manifests as `explain --cluster/--pod` (LoadManifests) and `import --from manifests`
// (ImportManifests, with redaction and finalization) read them. The first byte of the input chooses
// YAML or JSON (the file name's extension), the rest is the file.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "traces/importers/importer.h"
#include "traces/manifests.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  if (size < 1) return 0;
  std::string path = fuzz::WriteInput(data[0] % 2 ? "cluster.json" : "cluster.yaml",
                                      fuzz::Bytes(data + 1, size - 1));
  // Records limited to 1,000: a Deployment of 7,775 replicas took 7 s under ASan (0.4 s in the
  // opt build) and stopped a campaign; beyond the limit expansion is refused before it builds.
  trace::InputLimits limits;
  limits.records = 1'000;
  (void)trace::LoadManifests({path}, limits);
  trace::ImportOptions options;
  options.limits = limits;
  (void)trace::Import("manifests", {path}, options);
  return 0;
}
