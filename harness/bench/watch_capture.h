// A replayed trace written back as the capture a cluster would have given: the watch stream of
// `kubectl get namespaces,nodes,pods,events -A -w -o json --output-watch-events`, with the
// replay's bindings as pod updates (spec.nodeName, the PodScheduled condition) and its failed
// attempts as FailedScheduling Events (consecutive identical ones aggregated into one Event whose
// count grows, as the events API does). Timestamps are RFC 3339 from the header's start_time.
// Used by the capture-scale bench to make a capture whose truth is known:
// importing, replaying and diffing it must give an equivalent result.
#ifndef SCHEDCHECK_HARNESS_BENCH_WATCH_CAPTURE_H_
#define SCHEDCHECK_HARNESS_BENCH_WATCH_CAPTURE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "reference/base/result.h"
#include "traces/trace_format.h"

namespace schedcheck::bench {

struct CaptureCounts {
  size_t lines = 0;              // watch events written
  size_t bindings = 0;           // pod updates carrying the replay's bindings
  size_t failed_scheduling = 0;  // Event ADDED or MODIFIED lines
};

// `decisions`: the replay's decision records, in time order. Writes `path` via a temporary file
// renamed into place. Errors name the path or the record.
Result<CaptureCounts> WriteWatchCapture(const trace::Trace& trace,
                                        const std::vector<trace::Record>& decisions,
                                        const std::string& path);

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_WATCH_CAPTURE_H_
