// The end-of-replay summary: pods bound / pending, attempts, requeues by cause, time to schedule,
// each pod's path through the queue, and pods that sat until a periodic flush although the
// cluster changed while they waited (the symptom of a missing event registration).
#ifndef SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_
#define SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::replay {

// A move request the replay made: (time, upstream event label such as "NodeAdd").
using ClusterEventLog = std::vector<std::pair<int64_t, std::string>>;

struct SummaryOptions {
  size_t max_paths = 50;  // pods whose path is printed (all pods are counted)
};

// Human-readable summary of a decision log.
std::string Summarize(const std::vector<trace::Record>& decisions, const ClusterEventLog& events,
                      const SummaryOptions& options = {});

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_
