#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {

Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList& scores) {
  int64_t max_count = 0;
  for (const NodeScore& s : scores) {
    if (s.score > max_count) max_count = s.score;
  }
  if (max_count == 0) {
    if (reverse) {
      for (NodeScore& s : scores) s.score = max_priority;
    }
    return Status();
  }
  for (NodeScore& s : scores) {
    int64_t score = max_priority * s.score / max_count;
    s.score = reverse ? max_priority - score : score;
  }
  return Status();
}

}  // namespace schedcheck::reference
