// openb CSVs as `import --from openb` reads them: the input is a node list and a pod list
// separated by a line "=====" (either may be empty or missing); every other run of the target adds
// --arrival-only, a shuffle seed and a GPU share target. Runs with records limited to 100,000 (the
// fuzz budget is 10 s and 1 GiB per input; --limit raises it for real use).
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
  // A tenth of a second's worth of records instead of 10^7: resampling to a GPU share from an
  // absurd node (52846 GPUs) builds up to the limit, which takes minutes under ASan at the default.
  options.limits.records = 100'000;
  if (size % 2) {
    options.arrival_only = true;
    options.shuffle_seed = size;
    options.target_gpu_share = 1.3;
  }
  (void)trace::Import("openb", inputs, options);
  return 0;
}
