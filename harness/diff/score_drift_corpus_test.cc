// A scoring change that moves no pod is still caught: traces/corpus/default-spreading replayed
// with recorded scores (`replay --scores 3`) must match testdata/default-spreading.scores.jsonl in
// placement (the diff) and in scores (the score comparison). A LeastAllocated rounding change
// (ci/mutations.json, least-requested-rounded) leaves every placement of this trace as it was but
// moves totals by one point, which only the score comparison sees.
// Regenerate after an intended scoring change:
//   schedcheck replay traces/corpus/default-spreading.jsonl --scores 3 -q \
//     --jsonl harness/diff/testdata/default-spreading.scores.jsonl
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/diff/diff.h"
#include "harness/diff/load.h"
#include "harness/diff/score_drift.h"
#include "harness/replay/replayer.h"
#include "traces/trace_file.h"

namespace schedcheck::diff {
namespace {

std::string Root() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/";
}

TEST(ScoreDriftCorpus, DefaultSpreadingKeepsItsPlacementsAndItsScores) {
  auto trace = trace::LoadTrace(Root() + "traces/corpus/default-spreading.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.message();
  replay::ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  options.record_scores = 3;
  auto replayer = replay::Replayer::Create(options);
  ASSERT_TRUE(replayer.ok()) << replayer.message();
  ASSERT_TRUE((*replayer)->Run(trace->records).ok());
  const std::vector<trace::Record>& now = (*replayer)->log().records();
  auto stored = LoadDecisions(Root() + "harness/diff/testdata/default-spreading.scores.jsonl");
  ASSERT_TRUE(stored.ok()) << stored.message();

  DiffResult placement = Diff(*stored, now);
  EXPECT_TRUE(placement.divergences.empty())
      << "placement changed: " << Describe(placement.divergences.front());
  ScoreDriftResult scores = CompareScores(*stored, now);
  EXPECT_EQ(scores.attempts_compared, 24u);
  EXPECT_TRUE(scores.drifts.empty())
      << scores.drifts.size() << " pods drifted; first: " << DescribeDrift(scores.drifts.front());
}

}  // namespace
}  // namespace schedcheck::diff
