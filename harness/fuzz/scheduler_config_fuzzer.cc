// KubeSchedulerConfiguration files as `replay --config`, `explain --config` and `serve` read them
// (YAML or JSON), then the profiles built from them as a replay would.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "reference/runtime/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("config.yaml", fuzz::Bytes(data, size));
  (void)reference::LoadSchedulerConfiguration(path, "1.27");
  return 0;
}
