// DefaultNormalizeScore (plugins/helper/normalize_score.h) for a list whose scores are all one
// value, without the list: what the accelerated plugins answer in
// UniformScorePlugin::UniformNormalizedScore (accel/batch_plugin.h).
#ifndef SCHEDCHECK_REFERENCE_ACCEL_HELPER_NORMALIZE_UNIFORM_SCORE_H_
#define SCHEDCHECK_REFERENCE_ACCEL_HELPER_NORMALIZE_UNIFORM_SCORE_H_

#include <cstdint>

namespace schedcheck::reference {

// What DefaultNormalizeScore(max_priority, reverse, scores) makes of every score of a non-empty
// list whose scores all equal `uniform`.
int64_t DefaultNormalizeUniformScore(int64_t max_priority, bool reverse, int64_t uniform);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_HELPER_NORMALIZE_UNIFORM_SCORE_H_
