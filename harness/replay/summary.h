// The end-of-replay summary: pods bound / pending, attempts, requeues by cause, time to schedule,
// each pod's path through the queue, and pods that sat until a periodic flush although the
// cluster changed while they waited (the symptom of a missing event registration, or of a
// QueueingHint that skipped the pod).
#ifndef SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_
#define SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::replay {

// A move request the replay made: (time, upstream event label such as "NodeAdd").
using ClusterEventLog = std::vector<std::pair<int64_t, std::string>>;

struct SummaryOptions {
  size_t max_paths = 50;  // pods whose path is printed (all pods are counted)
  // Parallel to the events, when known (an in-process replay): the plugins that registered each
  // event (Replayer::event_registrants). A pod that waited for the flush through an event one of
  // its rejecting plugins registered was skipped by that plugin's QueueingHint; through others,
  // nobody asked for it. Unknown (null, an external scheduler), the summary says neither.
  const std::vector<std::set<std::string>>* registrants = nullptr;
  // Whether the queue asked QueueingHints (v1.37) or only the moves' pre-checks (v1.27: a node
  // event moves a pod only if the changed node would fit it) when it kept such a pod.
  bool queueing_hints = true;
};

// Human-readable summary of a decision log.
std::string Summarize(const std::vector<trace::Record>& decisions, const ClusterEventLog& events,
                      const SummaryOptions& options = {});

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_SUMMARY_H_
