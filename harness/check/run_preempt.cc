#include "harness/check/run_preempt.h"

namespace schedcheck::check {

// Replaced by the DefaultPreemption work; until then preempt cases are reported as skipped.
CaseResult RunPreemptCase(const Case& c) {
  (void)c;
  return {CaseResult::Verdict::kSkip, "kind preempt is not implemented yet"};
}

}  // namespace schedcheck::check
