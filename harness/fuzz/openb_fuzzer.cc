// openb CSVs as `import --from openb` reads them: the input is a node list and a pod list
// separated by a line "=====" (either may be empty or missing); every other run of the target adds
// --arrival-only, a shuffle seed and a GPU share target. Runs with records limited to 1,000: past
// that, the resample only repeats its loop until the limit's error, and inputs that get there
// made the campaign four times slower (--limit raises it for real use).
#include <cstddef>
#include <cstdint>

#include "harness/fuzz/fuzz_util.h"
#include "traces/importers/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  auto [nodes, pods] = fuzz::SplitAt(fuzz::Bytes(data, size), "\n=====\n");
  std::vector<std::string> inputs = {fuzz::WriteInput("nodes.csv", nodes)};
  if (!pods.empty()) inputs.push_back(fuzz::WriteInput("pods.csv", pods));
  trace::ImportOptions options;
  // Resampling to a GPU share from an absurd node (52846 GPUs) builds records up to the limit:
  // at the default 10^7 that takes minutes under ASan, at 10^5 four seconds (ten with other
  // fuzzers on the same cores), at 10^4 a few tenths, which grown corpora hit often.
  options.limits.records = 1'000;
  if (size % 2) {
    options.arrival_only = true;
    options.shuffle_seed = size;
    options.target_gpu_share = 1.3;
  }
  (void)trace::Import("openb", inputs, options);
  return 0;
}
