// `kind: preempt` conformance cases (docs/FORMATS.md#conformance-case-files): DefaultPreemption's
// nominated node and victims for a pod that fits nowhere.
#ifndef SCHEDCHECK_HARNESS_CHECK_RUN_PREEMPT_H_
#define SCHEDCHECK_HARNESS_CHECK_RUN_PREEMPT_H_

#include "harness/check/case.h"
#include "harness/check/runner.h"

namespace schedcheck::check {

CaseResult RunPreemptCase(const Case& c, reference::Engine engine);

}  // namespace schedcheck::check

#endif  // SCHEDCHECK_HARNESS_CHECK_RUN_PREEMPT_H_
