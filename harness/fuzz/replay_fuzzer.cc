// `schedcheck replay TRACE` on a JSON Lines trace: LoadTrace, then the reference's replay in
// virtual time at the header's compatibility level (Replayer::Run with the default horizon), then
// the summary.
//
// Traces spanning more than an hour of virtual time are not replayed here. A replay's work grows
// with its span, by design: kube-scheduler retries every unschedulable pod at least at each
// 5-minute leftover flush, so 3 stuck pods over 11.6 days are 9,099 attempts (3 s in the fastbuild
// CLI, over libFuzzer's 10 s under ASan beside other jobs: the 2026-11-26 campaign's timeout). The
// CLI replays any span; the fuzzer keeps each input within its time budget, as openb_fuzzer and
// manifests_fuzzer do with their record limits.
#include <algorithm>
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
  constexpr int64_t kMaxSpanNs = int64_t{3600} * 1000 * 1000 * 1000;
  if (!trace->records.empty()) {
    auto [first, last] =
        std::minmax_element(trace->records.begin(), trace->records.end(),
                            [](const auto& a, const auto& b) { return a.time_ns() < b.time_ns(); });
    // In 128 bits: the difference of two int64 times may not fit in int64.
    if (static_cast<__int128>(last->time_ns()) - first->time_ns() > kMaxSpanNs) return 0;
  }
  replay::ReplayOptions options;
  // The level the trace names (1.27 or 1.37, as `replay` takes it); another one is refused there.
  if (!trace->header.compat().empty()) options.compat = trace->header.compat();
  if (options.compat != "1.27" && options.compat != "1.37") return 0;
  options.config = reference::DefaultConfiguration(options.compat);
  auto replayer = replay::Replayer::Create(std::move(options));
  if (!replayer.ok()) return 0;
  if ((*replayer)->Run(trace->records)) {
    (void)replay::Summarize((*replayer)->log().records(), (*replayer)->cluster_events());
  }
  return 0;
}
