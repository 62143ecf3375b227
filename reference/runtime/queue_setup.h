// The scheduling queue's options from the scheduler's profiles (upstream's scheduler.New hands
// NewSchedulingQueue the frameworks' QueueSort Less, PreEnqueue plugin map, queueing-hint map
// and event map; buildQueueingHintMap is in scheduler.go). The queue (reference/queue) takes
// these plain options and never sees a Framework.
#ifndef SCHEDCHECK_REFERENCE_RUNTIME_QUEUE_SETUP_H_
#define SCHEDCHECK_REFERENCE_RUNTIME_QUEUE_SETUP_H_

#include <vector>

#include "reference/queue/new_scheduling_queue.h"
#include "reference/queue/queueing_hint_map.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/runtime/framework.h"

namespace schedcheck::reference {

// buildQueueingHintMap over Framework::EventRegistrationsWithHints: a registration on `Pod` is
// unrolled into AssignedPod, UnscheduledPod and TargetPod (UnrollPodEvent); one without a hint
// function gets defaultQueueingHintFn (Queue).
QueueingHintMap BuildQueueingHintMap(const Framework& framework);

// QueueSort of the first profile; each profile's PreEnqueue plugins (in the profile's order),
// hint map and event registrations, by scheduler name (the first profile of a name wins).
QueueSetup QueueSetupFor(const std::vector<const Framework*>& profiles);

// The same, in the form each level's queue class takes (for callers that build one level's
// queue directly: tests, properties).
QueueHooks HooksFromFrameworks(const std::vector<const Framework*>& profiles);
ClusterEventMap EventMapFromFrameworks(const std::vector<const Framework*>& profiles);
QueueSetupV1_37 QueueSetupFromFrameworks(const std::vector<const Framework*>& profiles);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_RUNTIME_QUEUE_SETUP_H_
