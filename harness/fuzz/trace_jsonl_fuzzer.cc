// JSON Lines traces (the output of `trace cat`) as LoadTrace reads them for `replay`, `trace
// convert` and `diff --cluster-trace`.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "traces/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("input.jsonl", fuzz::Bytes(data, size));
  (void)trace::LoadTrace(path);
  return 0;
}
