// `kind: queue` cases at compat "1.37" (docs/FORMATS.md, "Queue cases at compat 1.37"): the ops
// applied to the v1.37 queue (reference/queue/scheduling_queue_v1_37.h) with the case's fixed
// queueing hints, expectations checked as the ops run. casecheck runs the same cases through
// upstream's PriorityQueue.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_V1_37_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_V1_37_H_

#include "harness/check/case.h"
#include "harness/check/runner.h"

namespace schedcheck::check {

CaseResult RunQueueCaseV1_37(const Case& c);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_V1_37_H_
