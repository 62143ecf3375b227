// Hint cases (kind hint, compat 1.37): one plugin's v1.37 queueing hints for one event; update
// cases (kind update, compat 1.37): the events one informer update of a Node or a Pod makes.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_HINT_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_HINT_H_

#include "harness/check/case.h"
#include "harness/check/runner.h"

namespace schedcheck::check {

// The plugin's registrations (EventsToRegisterWithHints) that match the case's event
// (MatchClusterEventsV1_37) are asked in order, as the v1.37 queue's isPodWorthRequeuing asks
// them for a pod this plugin rejected: none matches → NotRegistered; no hint function, a hint
// error or Queue → Queue (stop); all QueueSkip → QueueSkip. Compared with expect.hint and
// expect.error (default false).
CaseResult RunHintCase(const Case& c);

// NodeSchedulingPropertiesChange / PodSchedulingPropertiesChange of the case's objects, each event
// written "Resource/Action" (ActionNameV1_37), compared in order with expect.events.
CaseResult RunUpdateCase(const Case& c);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_HINT_H_
