// API server audit logs as `import --from audit` reads them, taken whole and streamed
// (they must agree).
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "harness/fuzz/import_oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("audit.jsonl", fuzz::Bytes(data, size));
  trace::ImportOptions options;
  options.strip_bindings = (size % 2) == 0;
  fuzz::ImportBothWaysAndCompare("audit", path, options);
  return 0;
}
