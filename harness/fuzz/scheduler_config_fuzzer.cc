// KubeSchedulerConfiguration files as `replay --config`, `explain --config` and `serve` read them
// (YAML or JSON), then the profiles built from them as a replay would. YAML aliases may expand to
// 10^5 nodes, not the default 10^6: a file at the default limit takes 0.24 s in the opt build but 8
// s under ASan and coverage, beyond the 10 s budget beside other fuzzers.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "reference/runtime/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("config.yaml", fuzz::Bytes(data, size));
  (void)reference::LoadSchedulerConfiguration(path, "1.27",
                                              k8s::YamlLimits{.alias_nodes = 100'000});
  return 0;
}
