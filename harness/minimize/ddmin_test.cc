#include "harness/minimize/ddmin.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace schedcheck::minimize {
namespace {

std::vector<size_t> Iota(size_t n) {
  std::vector<size_t> v(n);
  std::iota(v.begin(), v.end(), size_t{0});
  return v;
}

bool Contains(const std::vector<size_t>& subset, const std::set<size_t>& needed) {
  return std::all_of(needed.begin(), needed.end(),
                     [&](size_t u) { return std::binary_search(subset.begin(), subset.end(), u); });
}

// Checks 1-minimality directly: no single unit of `kept` can go.
void ExpectOneMinimal(const std::vector<size_t>& kept, const SubsetTest& test) {
  for (size_t i = 0; i < kept.size(); ++i) {
    std::vector<size_t> smaller = kept;
    smaller.erase(smaller.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_FALSE(!smaller.empty() && test(smaller)) << "unit " << kept[i] << " can be removed";
  }
}

TEST(Ddmin, FindsExactlyTheUnitsAConjunctionNeeds) {
  struct Case {
    std::string name;
    size_t n;
    std::set<size_t> needed;
  };
  for (const Case& c :
       {Case{"one of 1000", 1000, {617}}, Case{"three spread over 1000", 1000, {3, 500, 999}},
        Case{"adjacent pair", 64, {31, 32}}, Case{"all of 5", 5, {0, 1, 2, 3, 4}},
        Case{"first and last of 2", 2, {0, 1}}}) {
    Budget budget(-1);
    SubsetTest test = [&](const std::vector<size_t>& s) {
      return budget.Take() && Contains(s, c.needed);
    };
    DdminResult r = Ddmin(Iota(c.n), test, budget);
    EXPECT_EQ(std::set<size_t>(r.kept.begin(), r.kept.end()), c.needed) << c.name;
    EXPECT_FALSE(r.budget_exhausted) << c.name;
    EXPECT_EQ(r.tests, budget.spent()) << c.name;
    ExpectOneMinimal(r.kept, test);
  }
}

TEST(Ddmin, SubsetsTheTestAnswersWithoutSpendingCostNothing) {
  // Odd units are "invalid": answered false without taking from the budget.
  Budget budget(60);
  SubsetTest test = [&](const std::vector<size_t>& s) {
    if (std::any_of(s.begin(), s.end(), [](size_t u) { return u % 2 == 1; }) && s.size() < 3)
      return false;
    return budget.Take() && Contains(s, {10, 20});
  };
  DdminResult r = Ddmin(Iota(100), test, budget);
  EXPECT_EQ(r.kept, (std::vector<size_t>{10, 20}));
  EXPECT_FALSE(r.budget_exhausted);
  EXPECT_LT(budget.spent(), r.tests);
}

TEST(Ddmin, EachSubsetIsTestedOnce) {
  std::set<std::vector<size_t>> asked;
  bool repeated = false;
  SubsetTest test = [&](const std::vector<size_t>& s) {
    repeated = repeated || !asked.insert(s).second;
    return Contains(s, {7, 8, 40});
  };
  Budget budget(-1);
  DdminResult r = Ddmin(Iota(50), test, budget);
  EXPECT_FALSE(repeated);
  EXPECT_EQ(static_cast<size_t>(r.tests), asked.size());
}

// Predicates that are not a plain conjunction: a threshold (any 3 of the even units) and a
// disjunction (either of two groups). ddmin promises 1-minimality, not the global minimum.
TEST(Ddmin, OneMinimalOnNonMonotonePredicates) {
  const uint64_t seed = 20240101;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 30; ++round) {
    const size_t n = 10 + rng() % 200;
    const size_t a = rng() % n, b = rng() % n, c = rng() % n;
    SubsetTest threshold = [](const std::vector<size_t>& s) {
      return std::count_if(s.begin(), s.end(), [](size_t u) { return u % 2 == 0; }) >= 3;
    };
    SubsetTest either = [&](const std::vector<size_t>& s) {
      return Contains(s, {a, b}) || Contains(s, {c});
    };
    // Parity: holds for subsets whose sum is odd (not monotone at all).
    SubsetTest odd_sum = [](const std::vector<size_t>& s) {
      return std::accumulate(s.begin(), s.end(), size_t{0}) % 2 == 1;
    };
    for (const SubsetTest* test : {&threshold, &either, &odd_sum}) {
      std::vector<size_t> all = Iota(n);
      if (!(*test)(all)) all.pop_back();  // make the full set fail for odd_sum
      if (!(*test)(all)) continue;
      Budget budget(-1);  // unlimited: these tests take nothing from it
      DdminResult r = Ddmin(all, *test, budget);
      SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + " n " +
                   std::to_string(n));
      ASSERT_TRUE((*test)(r.kept));
      ExpectOneMinimal(r.kept, *test);
    }
  }
}

TEST(Ddmin, StopsWhenTheBudgetIsSpentAndKeepsAFailingSubset) {
  for (int64_t max : {0, 1, 5, 20}) {
    int64_t calls = 0;  // tests that ran
    Budget budget(max);
    SubsetTest test = [&](const std::vector<size_t>& s) {
      if (!budget.Take()) return false;
      ++calls;
      return Contains(s, {11, 222, 333, 444, 555});
    };
    DdminResult r = Ddmin(Iota(1000), test, budget);
    EXPECT_EQ(calls, max);
    EXPECT_LE(r.tests, max + 1);  // the last one found the budget spent
    EXPECT_EQ(budget.spent(), calls);
    EXPECT_TRUE(r.budget_exhausted) << max;
    EXPECT_TRUE(Contains(r.kept, {11, 222, 333, 444, 555}));
  }
}

TEST(Ddmin, ABudgetSharedByTwoRunsCountsBoth) {
  Budget budget(-1);
  SubsetTest test = [&](const std::vector<size_t>& s) { return budget.Take() && Contains(s, {5}); };
  DdminResult first = Ddmin(Iota(100), test, budget);
  DdminResult second = Ddmin(Iota(100), test, budget);
  EXPECT_EQ(budget.spent(), first.tests + second.tests);
  EXPECT_EQ(first.kept, std::vector<size_t>{5});
  EXPECT_EQ(second.kept, first.kept);
}

TEST(Ddmin, ACoarsePassStopsAtItsChunkCount) {
  Budget budget(-1);
  // Every 50th unit is needed: no quarter can go, so four chunks at most stop at once.
  std::set<size_t> needed;
  for (size_t u = 0; u < 1000; u += 50) needed.insert(u);
  SubsetTest test = [&](const std::vector<size_t>& s) {
    return budget.Take() && Contains(s, needed);
  };
  DdminResult coarse = Ddmin(Iota(1000), test, budget, 4);
  EXPECT_EQ(coarse.kept.size(), 1000u);
  EXPECT_EQ(coarse.tests, 2 + 4 + 4);  // two halves, four quarters, four complements
  DdminResult fine = Ddmin(coarse.kept, test, budget);
  EXPECT_EQ(std::set<size_t>(fine.kept.begin(), fine.kept.end()), needed);
}

TEST(Ddmin, SingleUnitIsAlreadyMinimal) {
  Budget budget(-1);
  DdminResult r = Ddmin(
      {42}, [](const std::vector<size_t>&) { return true; }, budget);
  EXPECT_EQ(r.kept, std::vector<size_t>{42});
  EXPECT_EQ(r.tests, 0);
}

}  // namespace
}  // namespace schedcheck::minimize
