// `schedcheck replay TRACE` on a JSON Lines trace: LoadTrace, then the reference's replay in
// virtual time (Replayer::Run with the default horizon), then the summary.
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "harness/replay/replayer.h"
#include "harness/replay/summary.h"
#include "traces/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  std::string path = fuzz::WriteInput("replay.jsonl", fuzz::Bytes(data, size));
  auto trace = trace::LoadTrace(path);
  if (!trace.ok()) return 0;
  replay::ReplayOptions options;
  options.config = reference::DefaultConfiguration(options.compat);
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return 0;
  if ((*replayer)->Run(trace->records)) {
    (void)replay::Summarize((*replayer)->log().records(), (*replayer)->cluster_events());
  }
  return 0;
}
