// `kind: queue` conformance cases (docs/FORMATS.md#conformance-case-files): operations applied in
// order to a scheduling queue built from the case's queueConfig, with expectations checked along
// the way.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_H_

#include "harness/check/case.h"
#include "harness/check/runner.h"

namespace schedcheck::check {

CaseResult RunQueueCase(const Case& c, reference::Engine engine);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_QUEUE_H_
