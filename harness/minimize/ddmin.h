// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
// 2002): ddmin reduces a list of units on which a test fails to a 1-minimal sublist — removing any
// single remaining unit makes the failure go away. Generic: a unit is an index chosen by the
// caller (an event, an object, a field); the caller's test says whether a subset still fails.
// Deterministic: the same units and test give the same tests in the same order.
#ifndef SCHEDCHECK_HARNESS_MINIMIZE_DDMIN_H_
#define SCHEDCHECK_HARNESS_MINIMIZE_DDMIN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace schedcheck::minimize {

// How many tests may still run, shared by every pass of one minimization. The test takes from it
// (so that a test answered without running anything, such as a subset rejected as invalid, costs
// nothing); a test that finds nothing left answers false, and Ddmin then stops.
class Budget {
 public:
  // max_tests < 0: unlimited.
  explicit Budget(int64_t max_tests) : max_(max_tests) {}
  // Takes one test; false (and exhausted() from then on) when none is left.
  bool Take() {
    if (max_ >= 0 && spent_ >= max_) return exhausted_ = true, false;
    ++spent_;
    return true;
  }
  int64_t spent() const { return spent_; }
  bool exhausted() const { return exhausted_; }

 private:
  int64_t max_;
  int64_t spent_ = 0;
  bool exhausted_ = false;
};

// True when the subset (ascending unit values, a sublist of the units given to Ddmin) still shows
// the failure. Ddmin asks about each subset once.
using SubsetTest = std::function<bool(const std::vector<size_t>& subset)>;

struct DdminResult {
  std::vector<size_t> kept;  // a sublist of the input units, in their order
  int64_t tests = 0;         // calls of the test (each distinct subset is asked about once)
  // The budget ran out: `kept` still fails but need not be 1-minimal.
  bool budget_exhausted = false;
};

// REQUIRES: `units` ascending and distinct, test(units) true (not re-checked). The empty subset is
// never tested (it is taken not to fail). When `budget` is exhausted (the test found none left),
// the reduction stops with what it has; the answer of that test is not used.
// `max_chunks` > 0 stops refining at that many chunks: a cheap coarse pass that removes long runs
// of irrelevant units but is not 1-minimal.
DdminResult Ddmin(const std::vector<size_t>& units, const SubsetTest& test, Budget& budget,
                  size_t max_chunks = 0);

}  // namespace schedcheck::minimize

#endif  // SCHEDCHECK_HARNESS_MINIMIZE_DDMIN_H_
