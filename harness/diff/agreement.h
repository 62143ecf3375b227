// When neither side of a diff is the reference, which of them the reference agrees with at the
// first divergent attempt: the reference's own outcome on A's snapshot (PlaceAt) set against what
// each side recorded for that attempt.
#ifndef SCHEDCHECK_HARNESS_DIFF_AGREEMENT_H_
#define SCHEDCHECK_HARNESS_DIFF_AGREEMENT_H_

#include <string>

#include "harness/diff/diff.h"
#include "harness/diff/explain_at.h"
#include "traces/trace.pb.h"

namespace schedcheck::diff {

// Whether a side's attempt is the reference's outcome: bound to a node of the reference's tie set
// (the node itself when it names no ties), or unschedulable by the same rejecting plugins. A side
// without an attempt there (null) does not agree.
bool Agrees(const Placement& reference, const trace::Attempt* side);

// One line: "<who> places pod P on N (ties {...}): agrees with the baseline", "... agrees with
// neither (its tie set: {...})", or "<who> finds pod P unschedulable by [X]: agrees with both".
// `who` names the reference and its configuration; `a` and `b` are the sides' attempts (or null).
std::string AgreementText(const std::string& who, const std::string& pod,
                          const Placement& reference, const trace::Attempt* a,
                          const trace::Attempt* b, const SideNames& names);

// The attempt `index` names in `log`, or null when it names none (-1, past the end, not an
// attempt).
const trace::Attempt* AttemptAtIndex(const std::vector<trace::Record>& log, int64_t index);

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_AGREEMENT_H_
