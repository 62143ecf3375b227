#include "harness/minimize/ddmin.h"

#include <algorithm>
#include <map>

namespace schedcheck::minimize {
namespace {

// `units` cut into n chunks of nearly equal size (the first ones one longer), in order.
std::vector<std::vector<size_t>> Split(const std::vector<size_t>& units, size_t n) {
  std::vector<std::vector<size_t>> chunks;
  size_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t size = units.size() / n + (i < units.size() % n ? 1 : 0);
    chunks.emplace_back(units.begin() + start, units.begin() + start + size);
    start += size;
  }
  return chunks;
}

std::vector<size_t> Without(const std::vector<size_t>& units, const std::vector<size_t>& chunk) {
  std::vector<size_t> out;
  std::set_difference(units.begin(), units.end(), chunk.begin(), chunk.end(),
                      std::back_inserter(out));
  return out;
}

}  // namespace

DdminResult Ddmin(const std::vector<size_t>& units, const SubsetTest& test, Budget& budget,
                  size_t max_chunks) {
  DdminResult result{units, 0, false};
  // ddmin revisits subsets (a complement at granularity n can be a chunk at 2n): ask once.
  std::map<std::vector<size_t>, bool> seen;
  auto fails = [&](const std::vector<size_t>& subset) {
    if (subset.empty()) return false;
    if (auto it = seen.find(subset); it != seen.end()) return it->second;
    if (budget.exhausted()) return result.budget_exhausted = true, false;
    ++result.tests;
    const bool fails = test(subset);
    if (budget.exhausted()) return result.budget_exhausted = true, false;  // it could not run
    return seen[subset] = fails;
  };
  std::vector<size_t>& current = result.kept;
  size_t n = 2;
  while (current.size() >= 2 && !result.budget_exhausted) {
    n = std::min(n, current.size());
    const std::vector<std::vector<size_t>> chunks = Split(current, n);
    bool reduced = false;
    // Reduce to a chunk...
    for (const auto& chunk : chunks) {
      if (fails(chunk)) {
        current = chunk;
        n = 2;
        reduced = true;
        break;
      }
      if (result.budget_exhausted) return result;
    }
    // ...or to a complement (with two chunks the complements are the chunks themselves).
    if (!reduced && n > 2) {
      for (const auto& chunk : chunks) {
        std::vector<size_t> rest = Without(current, chunk);
        if (fails(rest)) {
          current = std::move(rest);
          n = std::max<size_t>(n - 1, 2);
          reduced = true;
          break;
        }
        if (result.budget_exhausted) return result;
      }
    }
    if (reduced) continue;
    if (n == current.size()) break;  // every single unit's removal was tried: 1-minimal
    if (max_chunks > 0 && n >= max_chunks) break;
    n = std::min(2 * n, current.size());
    if (max_chunks > 0) n = std::min(n, max_chunks);
  }
  return result;
}

}  // namespace schedcheck::minimize
