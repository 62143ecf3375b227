// JSON Lines traces (the output of `trace cat`) as LoadTrace reads them for `replay`, `trace
// convert` and `diff --cluster-trace`, then the header labels replay interprets (the volume
// controllers model and its latency).
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "harness/replay/replayer.h"
#include "traces/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("input.jsonl", fuzz::Bytes(data, size));
  auto trace = trace::LoadTrace(path);
  if (!trace.ok()) return 0;
  replay::ReplayOptions options;
  options.compat = "1.27";
  (void)replay::ApplyHeaderVolumeLabels(trace->header, &options);
  return 0;
}
