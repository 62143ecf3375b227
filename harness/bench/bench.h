// The benchmark behind //harness/bench:bench: replays generated workloads (harness/workloads)
// against the reference with percentageOfNodesToScore 100 (or upstream's adaptive default) and
// measures them the way upstream's scheduler_perf does (throughput over the measured pods only),
// plus trace encode/decode speed. external.h runs the same workloads through child processes
// (the kube-scheduler adapters) for a side-by-side comparison.
// Benchmarks read the wall clock (std::chrono::steady_clock); nothing else here is timed.
#ifndef SCHEDCHECK_HARNESS_BENCH_BENCH_H_
#define SCHEDCHECK_HARNESS_BENCH_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "harness/workloads/workloads.h"
#include "nlohmann/json.hpp"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "reference/runtime/profile.h"

namespace schedcheck::bench {

// How many nodes each cycle scores: percentageOfNodesToScore unset (upstream's adaptive default,
// max(5, 50 - nodes/125) % of the nodes but at least 100 nodes) or 100 (every feasible node).
enum class Sampling { kAdaptive, kAll };
// "adaptive" / "100".
const char* SamplingName(Sampling sampling);

// The configuration both sides of a comparison replay a shape with: the shape's own
// KubeSchedulerConfiguration (or the default profile) with percentageOfNodesToScore set for
// kAll. `text` is what a child process is sent in Hello.config_yaml (empty: the default
// profile); `config` is the same text parsed for the reference.
struct BenchConfig {
  std::string text;
  reference::SchedulerConfiguration config;
};
// `compat`: the level whose default profile and configuration rules apply ("1.27", "1.37").
Result<BenchConfig> ConfigFor(const workloads::ShapeInfo& shape, Sampling sampling,
                              const std::string& compat = "1.27");

struct WorkloadResult {
  std::string workload;
  workloads::WorkloadParams params;
  Sampling sampling = Sampling::kAll;
  reference::Engine engine = reference::Engine::kFast;
  int64_t events = 0;              // API events in the generated trace
  int64_t measured_bound = 0;      // measured pods bound by the end of the replay
  double generate_seconds = 0;     // building the trace in process
  double measured_seconds = 0;     // first measured pod's attempt .. last measured pod's binding
  double total_seconds = 0;        // the whole replay (nodes, initial pods, measured pods, churn)
  double pods_per_second = 0;      // measured_bound / measured_seconds
  double ns_per_pod_per_node = 0;  // measured_seconds / measured_bound / nodes
  int64_t peak_rss_bytes =
      0;  // peak resident set size during this workload (see PeakRss); 0: unknown
};

struct TraceIoResult {
  std::string workload;
  int64_t events = 0;
  int64_t bytes = 0;
  double encode_events_per_second = 0;
  double decode_events_per_second =
      0;  // NextBorrowed: every record parsed in full, one reused Record
  double bytes_per_event = 0;
};

// Replays the workload (generated from `shape` and `params`) in process; progress lines go to
// `progress` (nullptr: none) every few seconds. Errors: generation or replay failures.
Result<WorkloadResult> RunWorkload(const workloads::ShapeInfo& shape,
                                   const workloads::WorkloadParams& params, std::ostream* progress,
                                   Sampling sampling = Sampling::kAll,
                                   reference::Engine engine = reference::Engine::kFast,
                                   const std::string& compat = "1.27");

// Writes the workload's trace to a temporary file in `dir` and reads it back, timing both.
Result<TraceIoResult> RunTraceIo(const workloads::ShapeInfo& shape,
                                 const workloads::WorkloadParams& params, const std::string& dir);

// Resets the kernel's peak-RSS mark of this process where Linux allows it (/proc/self/clear_refs),
// so that PeakRssBytes() measures from now; returns false where it cannot (then the peak is the
// process's peak so far).
bool ResetPeakRss();
int64_t PeakRssBytes();

std::string FormatTable(const std::vector<WorkloadResult>& workloads,
                        const std::vector<TraceIoResult>& io);
nlohmann::json ToJson(const std::vector<WorkloadResult>& workloads,
                      const std::vector<TraceIoResult>& io);

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_BENCH_H_
