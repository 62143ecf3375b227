// Counts the measured pods of a benchmark workload as their bindings arrive, for the in-process
// replay (bench.cc) and for a child over the protocol (external.cc) alike.
#ifndef SCHEDCHECK_HARNESS_BENCH_MEASURED_TRACKER_H_
#define SCHEDCHECK_HARNESS_BENCH_MEASURED_TRACKER_H_

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::bench {

// Counts measured pods as they are bound, from the decision records as they arrive.
class MeasuredTracker {
 public:
  explicit MeasuredTracker(const std::vector<std::string>& pods)
      : pending_(pods.begin(), pods.end()) {}
  // Called for every decision record as it is made (or received).
  void OnRecord(const trace::Record& r) {
    if (r.has_binding() && pending_.erase(r.binding().pod()) > 0) {
      ++bound_;
      bound_since_check_ = true;
    }
  }
  // True when a measured pod was bound since the last call.
  bool TakeNewlyBound() { return std::exchange(bound_since_check_, false); }
  int64_t bound() const { return bound_; }
  bool done() const { return pending_.empty(); }

 private:
  std::unordered_set<std::string> pending_;
  bool bound_since_check_ = false;
  int64_t bound_ = 0;
};

}  // namespace schedcheck::bench

#endif  // SCHEDCHECK_HARNESS_BENCH_MEASURED_TRACKER_H_
