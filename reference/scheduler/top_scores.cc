#include "reference/scheduler/top_scores.h"

#include <algorithm>

namespace schedcheck::reference {

std::vector<size_t> TopScorePositions(std::span<const int64_t> totals,
                                      const std::function<const std::string&(size_t)>& name,
                                      size_t k) {
  auto before = [&](size_t a, size_t b) {
    if (totals[a] != totals[b]) return totals[a] > totals[b];
    return name(a) < name(b);
  };
  std::vector<size_t> positions(totals.size());
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = i;
  const size_t keep = std::min(k, positions.size());
  std::partial_sort(positions.begin(), positions.begin() + static_cast<std::ptrdiff_t>(keep),
                    positions.end(), before);
  positions.resize(keep);
  return positions;
}

void SortPluginsByName(TopScore* score) {
  std::sort(score->plugins.begin(), score->plugins.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::vector<TopScore> TopScores(const std::vector<NodePluginScores>& scores, size_t k) {
  std::vector<int64_t> totals;
  totals.reserve(scores.size());
  for (const NodePluginScores& row : scores) totals.push_back(row.total);
  std::vector<TopScore> top;
  for (size_t i : TopScorePositions(
           totals, [&](size_t p) -> const std::string& { return scores[p].name; }, k)) {
    TopScore t{scores[i].name, scores[i].total, {}};
    for (const PluginScore& s : scores[i].scores) t.plugins.emplace_back(s.plugin, s.weighted);
    SortPluginsByName(&t);
    top.push_back(std::move(t));
  }
  return top;
}

}  // namespace schedcheck::reference
