// FitErrorMessage (scheduler/schedule_one.h) for the fast engine: the same text, counted per
// shared reason list rather than per node and reason. Rejected nodes' statuses mostly share a
// handful of reason lists (Status copies share theirs), so thousands of nodes cost one hash
// lookup each by address, and each distinct list's reasons are counted once by text.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_
#define SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_

#include <string>

#include "reference/scheduler/schedule_one.h"

namespace schedcheck::reference {

std::string FastFitErrorMessage(int num_all_nodes, const Diagnosis& diagnosis);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_FIT_ERROR_TEXT_H_
