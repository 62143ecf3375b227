// DefaultNormalizeScore (plugins/helper/normalize_score.go): the normalisation shared by score
// plugins whose raw scores are counts (TaintToleration, NodeAffinity, InterPodAffinity, ...).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_HELPER_NORMALIZE_SCORE_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_HELPER_NORMALIZE_SCORE_H_

#include <cstdint>

#include "reference/framework/interface.h"
#include "reference/framework/status.h"

namespace schedcheck::reference {

// Maps scores from [0, max(scores)] onto [0, max_priority] with integer division
// (s' = max_priority * s / max). With `reverse`, s' becomes max_priority - s'. When every score is
// 0 (max is 0), scores stay 0, or all become max_priority with `reverse`.
// REQUIRES: scores are non-negative (upstream's assumption; the maximum starts at 0).
// Always returns Success, as upstream.
Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList& scores);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_HELPER_NORMALIZE_SCORE_H_
