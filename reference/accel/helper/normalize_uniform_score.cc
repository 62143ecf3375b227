#include "reference/accel/helper/normalize_uniform_score.h"

namespace schedcheck::reference {

int64_t DefaultNormalizeUniformScore(int64_t max_priority, bool reverse, int64_t uniform) {
  const int64_t max_count = uniform > 0 ? uniform : 0;
  if (max_count == 0) return reverse ? max_priority : uniform;
  const int64_t score = max_priority * uniform / max_count;
  return reverse ? max_priority - score : score;
}

}  // namespace schedcheck::reference
