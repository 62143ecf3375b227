// The scores a run records on request (`replay --scores K`, docs/FORMATS.md#scores): the K nodes
// with the highest totals of a score phase, each with its total and every score plugin's weighted
// score. Upstream picks among equal totals at random, so the order here is canonical: highest
// total first, equal totals in name order, and plugins in name order. Both engines build it from
// the scores they computed (plain: NodePluginScores; fast: its ScoreTable).
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_TOP_SCORES_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_TOP_SCORES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reference/runtime/framework.h"

namespace schedcheck::reference {

struct TopScore {
  std::string node;
  int64_t total = 0;
  // (plugin, normalized score times weight) in plugin-name order.
  std::vector<std::pair<std::string, int64_t>> plugins;
};

// The positions of the (at most) k highest `totals`, highest first, equal totals ordered by
// name(position). O(n log k).
std::vector<size_t> TopScorePositions(std::span<const int64_t> totals,
                                      const std::function<const std::string&(size_t)>& name,
                                      size_t k);

// The top k of a plain score phase's rows.
std::vector<TopScore> TopScores(const std::vector<NodePluginScores>& scores, size_t k);

// Sorts a TopScore's plugins by name.
void SortPluginsByName(TopScore* score);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_TOP_SCORES_H_
