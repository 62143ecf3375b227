// The score comparison over small hand-written decision logs with recorded scores.
#include "harness/diff/score_drift.h"

#include <gtest/gtest.h>

#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

// One Scheduled attempt of default/p on `node` (ties `ties`) with `scores` as the JSON of the
// "scores" field.
std::vector<trace::Record> Log(const std::string& node, const std::string& ties,
                               const std::string& scores) {
  std::string line = R"({"t":1,"type":"attempt","pod":"default/p","attempt":1,)"
                     R"("result":"Scheduled","node":")" +
                     node + R"(","ties":)" + ties +
                     (scores.empty() ? "" : ",\"scores\":" + scores) + "}";
  auto r = replay::ParseDecisionJsonLine(line, "test");
  EXPECT_TRUE(r.ok()) << r.message();
  return {r.ok() ? *r : trace::Record{}};
}

constexpr char kTop[] =
    R"([{"node":"n1","total":250,"plugins":{"NodeResourcesFit":80,"TaintToleration":300}},)"
    R"({"node":"n2","total":243,"plugins":{"NodeResourcesFit":73,"TaintToleration":300}}])";

TEST(ScoreDrift, EqualScoresAreNoDrift) {
  ScoreDriftResult r = CompareScores(Log("n1", R"(["n1"])", kTop), Log("n1", R"(["n1"])", kTop));
  EXPECT_EQ(r.attempts_compared, 1u);
  EXPECT_TRUE(r.drifts.empty());
}

TEST(ScoreDrift, ATotalThatDiffersNamesNodeTotalsAndPlugins) {
  const std::string b =
      R"([{"node":"n1","total":250,"plugins":{"NodeResourcesFit":80,"TaintToleration":300}},)"
      R"({"node":"n2","total":244,"plugins":{"NodeResourcesFit":74,"TaintToleration":300}}])";
  ScoreDriftResult r = CompareScores(Log("n1", R"(["n1"])", kTop), Log("n1", R"(["n1"])", b));
  ASSERT_EQ(r.drifts.size(), 1u);
  const ScoreDrift& d = r.drifts[0];
  EXPECT_EQ(d.what, "total");
  EXPECT_EQ(d.node, "n2");
  EXPECT_EQ(d.reference_total, 243);
  EXPECT_EQ(d.candidate_total, 244);
  EXPECT_EQ(d.plugins, std::vector<std::string>{"NodeResourcesFit 73 vs 74"});
  EXPECT_EQ(DescribeDrift(d),
            "pod default/p at t=1 (attempt 1): score drift: node n2 total 243 vs 244 "
            "(NodeResourcesFit 73 vs 74); reference top n1=250 n2=243; candidate top n1=250 "
            "n2=244");
}

TEST(ScoreDrift, OtherNodesInTheTopAreAnOrderDrift) {
  const std::string b = R"([{"node":"n1","total":250},{"node":"n3","total":243}])";
  ScoreDriftResult r = CompareScores(Log("n1", R"(["n1"])", kTop), Log("n1", R"(["n1"])", b));
  ASSERT_EQ(r.drifts.size(), 1u);
  EXPECT_EQ(r.drifts[0].what, "order");
  EXPECT_EQ(r.drifts[0].candidate, "n1=250 n3=243");
}

TEST(ScoreDrift, OnlyAttemptsPlacedAlikeWithScoresOnBothSides) {
  // B bound elsewhere (outside A's ties): the placement diff's business, not a score comparison.
  EXPECT_EQ(
      CompareScores(Log("n1", R"(["n1"])", kTop), Log("n2", R"(["n2"])", kTop)).attempts_compared,
      0u);
  // B moved among A's ties: compared.
  EXPECT_EQ(CompareScores(Log("n1", R"(["n1","n2"])", kTop), Log("n2", R"(["n2"])", kTop))
                .attempts_compared,
            1u);
  // One side without scores: nothing to compare.
  ScoreDriftResult r = CompareScores(Log("n1", R"(["n1"])", kTop), Log("n1", R"(["n1"])", ""));
  EXPECT_EQ(r.attempts_compared, 0u);
  EXPECT_EQ(r.reference_scored, 1u);
  EXPECT_EQ(r.candidate_scored, 0u);
}

TEST(ScoreDrift, DifferentKComparesTheCommonPrefix) {
  const std::string b = R"([{"node":"n1","total":250,"plugins":{"NodeResourcesFit":80,)"
                        R"("TaintToleration":300}}])";
  EXPECT_TRUE(
      CompareScores(Log("n1", R"(["n1"])", kTop), Log("n1", R"(["n1"])", b)).drifts.empty());
}

TEST(ScoreDrift, ModesAndHeaders) {
  trace::Header reference, build_a, build_b, other_level;
  reference.set_compat("1.37");
  reference.set_engine("fast");
  build_a.set_compat("1.37");
  (*build_a.mutable_labels())["candidate"] = "kube:1.37";
  build_b.set_compat("1.37");
  (*build_b.mutable_labels())["scheduler_cmd"] = "./adapter";
  other_level.set_compat("1.27");
  (*other_level.mutable_labels())["candidate"] = "kube:1.27";
  EXPECT_FALSE(MadeByBuild(reference));
  EXPECT_FALSE(MadeByBuild(trace::Header()));  // a JSON Lines log
  EXPECT_TRUE(MadeByBuild(build_a));
  EXPECT_FALSE(ScoreDriftFails(ScoresMode::kAuto, reference, build_a));
  EXPECT_TRUE(ScoreDriftFails(ScoresMode::kAuto, build_a, build_b));
  EXPECT_FALSE(ScoreDriftFails(ScoresMode::kAuto, other_level, build_b));
  EXPECT_TRUE(ScoreDriftFails(ScoresMode::kFail, reference, build_a));
  EXPECT_FALSE(ScoreDriftFails(ScoresMode::kReport, build_a, build_b));
  EXPECT_FALSE(ScoreDriftFails(ScoresMode::kOff, build_a, build_b));
  EXPECT_FALSE(ParseScoresMode("sometimes").ok());
  EXPECT_EQ(*ParseScoresMode("report"), ScoresMode::kReport);
}

}  // namespace
}  // namespace schedcheck::diff
