// Workload generators: upstream scheduler_perf's workload shapes (kubernetes v1.27,
// test/integration/scheduler_perf/config/performance-config.yaml) and small requeue scenarios,
// built in process as traces of API events (nodes, initial pods, measured pods, churn).
// Deterministic: the same shape, parameters and seed give the same trace (reference/base/rand.h).
//
// Timeline (virtual time, t = 0 is the header label start_time, 2024-01-01T00:00:00Z):
//   t = 0            namespaces sched-0 and sched-1, then the nodes
//   t = 1 s + i ms   initial pod i (namespace sched-0)
//   t = M + i ms     measured pod i (namespace sched-1), M = the first whole second at least
//                    1 s after the last initial pod
// plus each shape's own events (churn, taint removals, ...). Pods carry creationTimestamp. In the
// volume shapes, a pod's claim and volume arrive at its instant, just before it, and the CSINodes
// at t = 0 after the nodes.
// Used by `schedcheck generate` and by the benchmark.
#ifndef SCHEDCHECK_HARNESS_WORKLOADS_WORKLOADS_H_
#define SCHEDCHECK_HARNESS_WORKLOADS_WORKLOADS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace_format.h"

namespace schedcheck::workloads {

inline constexpr char kStartTime[] = "2024-01-01T00:00:00Z";
inline constexpr int64_t kMaxNodes = 1'000'000;
inline constexpr int64_t kMaxPods = 10'000'000;

struct WorkloadParams {
  int64_t nodes = 0;
  int64_t initial_pods = 0;
  int64_t measured_pods = 0;
  uint64_t seed = 1;
};

struct ShapeInfo {
  std::string_view name;         // "SchedulingBasic", "RequeueNodeAdd", ...
  std::string_view description;  // one line
  WorkloadParams defaults;       // upstream's size for the perf shapes; small for requeue ones
  bool perf = false;             // a scheduler_perf shape (benchmarked by default)
  // A KubeSchedulerConfiguration the shape needs (empty: the default profile).
  std::string_view config_yaml;
};

struct Workload {
  trace::Trace trace;                      // header (producer, seed, labels) and API records
  std::vector<std::string> measured_pods;  // "namespace/name", in arrival order
  int64_t measured_start_ns = 0;           // arrival of the first measured pod
};

// Every shape, perf shapes first, in a fixed order.
const std::vector<ShapeInfo>& Shapes();
// nullptr when unknown.
const ShapeInfo* FindShape(std::string_view name);

// Builds the workload. Errors (unknown shape, counts out of range) name the parameter.
Result<Workload> Generate(std::string_view shape, const WorkloadParams& params);

}  // namespace schedcheck::workloads

#endif  // SCHEDCHECK_HARNESS_WORKLOADS_WORKLOADS_H_
