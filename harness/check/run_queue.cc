#include "harness/check/run_queue.h"

namespace schedcheck::check {

// Replaced by the scheduling-queue work; until then queue cases are reported as skipped.
CaseResult RunQueueCase(const Case& c) {
  (void)c;
  return {CaseResult::Verdict::kSkip, "kind queue is not implemented yet"};
}

}  // namespace schedcheck::check
