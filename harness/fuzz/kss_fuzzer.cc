// kube-scheduler-simulator recordings as `import --from kss` reads them.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "traces/importers/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("record.jsonl", fuzz::Bytes(data, size));
  trace::ImportOptions options;
  options.strip_bindings = (size % 2) == 0;
  (void)trace::Import("kss", {path}, options);
  return 0;
}
