// The Alibaba GPU trace workloads of //harness/bench:bench (cluster-trace-gpu-v2023, the FGD
// paper's openb CSVs), imported in process with traces/importers (never copied into the repo):
//   AlibabaPaper130  the paper's protocol: all nodes, the default pod list, arrival-only, shuffled
//                    (seed --seed), resampled to 130 % of the cluster's GPU capacity
//   AlibabaTimed     the default pod list in time order, with deletions
// Measured: replay wall time, pods bound, and the paper's GPU allocation ratio (allocated GPU
// milli / capacity, from the bindings and the pods' alibabacloud.com/gpu-milli requests).
#ifndef SCHEDCHECK_HARNESS_BENCH_ALIBABA_H_
#define SCHEDCHECK_HARNESS_BENCH_ALIBABA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "reference/base/result.h"
#include "reference/engine/engine.h"

namespace schedcheck::bench {

inline constexpr char kAlibabaPaper130[] = "AlibabaPaper130";
inline constexpr char kAlibabaTimed[] = "AlibabaTimed";

bool IsAlibabaWorkload(const std::string& name);

// The folder holding openb_pod_list_default.csv: alibaba-gpu-v2023 (or the folder itself) under
// $SCHEDCHECK_SHARED_DATA, /work/shared/data, $BUILD_WORKSPACE_DIRECTORY/../shared/data or
// ../shared/data (relative to the working directory). Empty when absent.
std::string FindAlibabaDir();

struct AlibabaResult {
  std::string workload;
  reference::Engine engine = reference::Engine::kFast;  // the reference's, that replayed it
  int64_t nodes = 0;
  int64_t pods = 0;                 // pods added
  int64_t events = 0;               // API events replayed
  int64_t bound = 0;                // bindings (a pod deleted and never re-added counts once)
  int64_t attempts = 0;             // scheduling cycles (pops from activeQ)
  double import_seconds = 0;        // CSV → records, not part of the replay time
  double replay_seconds = 0;        // the whole replay, including the idle horizon
  int64_t gpu_capacity_milli = 0;   // Σ node alibabacloud.com/gpu-milli allocatable
  int64_t gpu_allocated_milli = 0;  // Σ gpu-milli of bound pods not deleted, at the end
  int64_t gpu_peak_allocated_milli = 0;
  double gpu_allocation_ratio = 0;  // allocated / capacity at the end
  double gpu_peak_allocation_ratio = 0;
  int64_t peak_rss_bytes = 0;
};

// Imports and replays one Alibaba workload from the CSVs in `dir` (percentageOfNodesToScore
// 100, the default profile) with the reference's `engine`. `seed` drives the shuffle and
// resampling.
Result<AlibabaResult> RunAlibaba(const std::string& workload, const std::string& dir, uint64_t seed,
                                 reference::Engine engine = reference::Engine::kFast);

std::string FormatAlibabaTable(const std::vector<AlibabaResult>& results);
nlohmann::json AlibabaToJson(const std::vector<AlibabaResult>& results);

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_ALIBABA_H_
