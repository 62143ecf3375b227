// Recorded scores (`replay --scores K`, docs/FORMATS.md#scores) over every corpus trace at both
// levels: the plain and fast engines record the same scores; recording changes no decision and
// without it the log is what it was; the scores agree with the decisions they sit beside (the
// chosen node has the top total, each total is its plugins' sum); and the JSON Lines form reads
// back to the same bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "harness/replay/decision_log.h"
#include "harness/replay/replayer.h"
#include "reference/api/rfc3339.h"
#include "traces/trace_file.h"

namespace schedcheck::replay {
namespace {

namespace fs = std::filesystem;

std::string Root() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/";
}

std::vector<std::string> CorpusNames() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(Root() + "traces/corpus")) {
    if (entry.path().extension() == ".jsonl") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::vector<trace::Record>> Replay(const std::string& name, reference::Engine engine,
                                          const std::string& compat, uint32_t scores) {
  auto trace = trace::LoadTrace(Root() + "traces/corpus/" + name + ".jsonl");
  if (!trace.ok()) return trace.error();
  ReplayOptions options;
  options.engine = engine;
  options.compat = compat;
  options.record_scores = scores;
  std::string config = Root() + "traces/corpus/" + name + ".config.yaml";
  if (fs::exists(config)) {
    auto c = reference::LoadSchedulerConfiguration(config, compat);
    if (!c.ok()) return c.error();
    options.config = *c;
  } else {
    options.config = reference::DefaultConfiguration(compat);
  }
  if (Outcome ok = ApplyHeaderVolumeLabels(trace->header, &options); !ok) return ok.error();
  auto start = trace->header.labels().find("start_time");
  if (start != trace->header.labels().end()) {
    auto epoch = reference::ParseRfc3339(start->second);
    if (!epoch.ok()) return epoch.error();
    options.epoch_unix_ns = *epoch;
  }
  auto replayer = Replayer::Create(options);
  if (!replayer.ok()) return replayer.error();
  if (Outcome ok = (*replayer)->Run(trace->records); !ok) return ok.error();
  return (*replayer)->log().records();
}

std::string JsonLines(const std::vector<trace::Record>& records) {
  std::string out;
  for (const trace::Record& r : records) out += DecisionJsonLine(r) + "\n";
  return out;
}

// Checks one attempt's scores against its decision; returns whether it had any.
bool CheckScores(const std::string& where, const trace::Attempt& a, uint32_t k) {
  if (a.scores_size() == 0) return false;
  EXPECT_EQ(a.result(), trace::SCHEDULED) << where << ": scores on an attempt that failed";
  EXPECT_LE(a.scores_size(), static_cast<int>(k)) << where;
  const int64_t top = a.scores(0).total();
  bool chosen_in_top = false;
  for (int i = 0; i < a.scores_size(); ++i) {
    const trace::NodeScore& s = a.scores(i);
    int64_t sum = 0;
    for (const trace::PluginScore& p : s.plugins()) sum += p.score();
    EXPECT_EQ(sum, s.total()) << where << ": " << s.node() << "'s plugins do not add up";
    if (i > 0) {
      const trace::NodeScore& prev = a.scores(i - 1);
      EXPECT_TRUE(prev.total() > s.total() || (prev.total() == s.total() && prev.node() < s.node()))
          << where << ": not in canonical order at " << i;
    }
    const bool tied = std::find(a.ties().begin(), a.ties().end(), s.node()) != a.ties().end();
    EXPECT_EQ(tied, s.total() == top) << where << ": " << s.node() << " and the tie set";
    chosen_in_top |= s.node() == a.node();
  }
  // The chosen node has the top total: it is listed unless more ties than K hide it.
  if (a.ties_size() <= static_cast<int>(k)) {
    EXPECT_TRUE(chosen_in_top) << where;
  }
  return true;
}

TEST(ScoresTest, EnginesAgreeRecordingChangesNothingAndScoresFitTheDecisions) {
  constexpr uint32_t kTop = 4;
  int scored_attempts = 0;
  for (const std::string compat : {"1.27", "1.37"}) {
    for (const std::string& name : CorpusNames()) {
      const std::string where = name + " at " + compat;
      auto fast = Replay(name, reference::Engine::kFast, compat, kTop);
      ASSERT_TRUE(fast.ok()) << where << ": " << fast.message();
      auto plain = Replay(name, reference::Engine::kPlain, compat, kTop);
      ASSERT_TRUE(plain.ok()) << where << ": " << plain.message();
      EXPECT_EQ(JsonLines(*fast), JsonLines(*plain)) << where << ": the engines' scores differ";
      auto without = Replay(name, reference::Engine::kFast, compat, 0);
      ASSERT_TRUE(without.ok()) << where;
      std::vector<trace::Record> stripped = *fast;
      for (size_t i = 0; i < stripped.size(); ++i) {
        if (!stripped[i].has_attempt()) continue;
        const std::string at = where + " record " + std::to_string(i);
        if (CheckScores(at, stripped[i].attempt(), kTop)) ++scored_attempts;
        stripped[i].mutable_attempt()->clear_scores();
      }
      EXPECT_EQ(JsonLines(stripped), JsonLines(*without))
          << where << ": recording scores changed a decision";
      for (const trace::Record& r : *without) {
        if (r.has_attempt()) {
          EXPECT_EQ(r.attempt().scores_size(), 0) << where;
        }
      }
      // The JSON Lines form reads back to the same record, and prints the same bytes.
      for (const trace::Record& r : *fast) {
        const std::string line = DecisionJsonLine(r);
        auto back = ParseDecisionJsonLine(line, where);
        ASSERT_TRUE(back.ok()) << back.message();
        EXPECT_EQ(DecisionJsonLine(*back), line) << where;
      }
    }
  }
  // Not vacuous: the corpus has score phases (scoring-heterogeneous above all).
  EXPECT_GT(scored_attempts, 20);
}

TEST(ScoresTest, ScoringHeterogeneousHasDistinctTotals) {
  auto log = Replay("scoring-heterogeneous", reference::Engine::kFast, "1.27", 3);
  ASSERT_TRUE(log.ok()) << log.message();
  int distinct = 0;
  for (const trace::Record& r : *log) {
    if (!r.has_attempt() || r.attempt().scores_size() < 2) continue;
    distinct += r.attempt().scores(0).total() != r.attempt().scores(1).total() ? 1 : 0;
  }
  EXPECT_GT(distinct, 0) << "a corpus trace built for scoring has no score phase with a margin";
}

TEST(ScoresTest, BadScoresInAJsonLineAreNamed) {
  const std::string head =
      R"({"t":1,"type":"attempt","pod":"default/p","attempt":1,"result":"Scheduled",)"
      R"("node":"n1","ties":["n1"],"scores":)";
  for (const auto& [scores, want] : std::vector<std::pair<std::string, std::string>>{
           {R"({"node":"n1"})", "field scores: expected a list"},
           {R"([{"total":3}])", "field scores[0].node: expected a non-empty string"},
           {R"([{"node":"n1","total":"3"}])", "field scores[0].total: expected an integer"},
           {R"([{"node":"n1","total":1.5}])", "field scores[0].total: expected an integer"},
           {R"([{"node":"n1","total":3,"plugins":[1]}])", "field scores[0].plugins: expected"},
           {R"([{"node":"n1","total":3,"plugins":{"A":"x"}}])",
            "field scores[0].plugins.A: expected an integer"},
       }) {
    auto r = ParseDecisionJsonLine(head + scores + "}", "log.jsonl:7");
    ASSERT_FALSE(r.ok()) << scores;
    EXPECT_NE(r.message().find("log.jsonl:7: " + want), std::string::npos) << r.message();
  }
}

}  // namespace
}  // namespace schedcheck::replay
