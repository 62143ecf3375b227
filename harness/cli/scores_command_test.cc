// `replay --scores`, `diff --scores` and `gate --scores` end to end on the corpus' scoring trace:
// a TaintToleration weight change moves no pod there, so only the scores show it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/cli/diff_command.h"
#include "harness/cli/gate_command.h"
#include "harness/cli/replay_command.h"
#include "harness/cli/report_command.h"

namespace schedcheck::cli {
namespace {

constexpr char kTrace[] = "traces/corpus/scoring-heterogeneous.jsonl";

std::string Tmp(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replays kTrace (with `candidate` unless empty) and writes -o `out` (and --jsonl `jsonl`).
void Replay(const std::string& candidate, uint32_t scores, const std::string& out,
            const std::string& jsonl = "") {
  ReplayCommandOptions o;
  o.trace = kTrace;
  o.candidate = candidate;
  o.scores = scores;
  o.output = out;
  o.jsonl = jsonl;
  o.quiet = true;
  std::ostringstream sout, serr;
  ASSERT_EQ(RunReplay(o, sout, serr), 0) << serr.str();
}

int Diff(const std::string& a, const std::string& b, const std::string& mode, std::string* out) {
  DiffCommandOptions o;
  o.a = a;
  o.b = b;
  o.scores = mode;
  std::ostringstream sout, serr;
  const int code = RunDiffCommand(o, sout, serr);
  *out = sout.str() + serr.str();
  return code;
}

TEST(ScoresCommandTest, WithoutScoresTheLogIsTheGoldenOne) {
  Replay("", 0, Tmp("plain.trace"), Tmp("plain.jsonl"));
  EXPECT_EQ(Read(Tmp("plain.jsonl")), Read("golden/scoring-heterogeneous/decisions.jsonl"));
  Replay("", 3, Tmp("scored.trace"), Tmp("scored.jsonl"));
  EXPECT_NE(Read(Tmp("scored.jsonl")).find("\"scores\":[{\"node\":"), std::string::npos);
}

// Hello.record_scores reaches a child: `schedcheck serve` records what the reference records.
TEST(ScoresCommandTest, AChildIsAskedForScoresThroughTheProtocol) {
  Replay("", 3, Tmp("in.trace"), Tmp("in.jsonl"));
  const char* srcdir = std::getenv("TEST_SRCDIR");
  ReplayCommandOptions o;
  o.trace = kTrace;
  o.scores = 3;
  o.scheduler_cmd =
      std::string(srcdir == nullptr ? "." : srcdir) + "/schedcheck/harness/cli/schedcheck serve";
  o.jsonl = Tmp("child.jsonl");
  o.quiet = true;
  std::ostringstream sout, serr;
  ASSERT_EQ(RunReplay(o, sout, serr), 0) << serr.str();
  EXPECT_NE(Read(Tmp("child.jsonl")).find("\"scores\":[{\"node\":"), std::string::npos);
  EXPECT_EQ(Read(Tmp("child.jsonl")), Read(Tmp("in.jsonl")));
}

TEST(ScoresCommandTest, DiffScoreModes) {
  const std::string ref = Tmp("ref.trace"), w2 = Tmp("w2.trace"), w3 = Tmp("w3.trace");
  Replay("", 3, ref);
  Replay("weight:TaintToleration=2", 3, w2);
  Replay("weight:TaintToleration=3", 3, w3);  // the default weight, but a build's header
  std::string out;
  // Against the reference: reported, not failing.
  EXPECT_EQ(Diff(ref, w2, "auto", &out), 0) << out;
  EXPECT_NE(out.find("equivalent (8 pods compared)"), std::string::npos) << out;
  EXPECT_NE(out.find("score drift: 8 pods (8 scheduled attempts compared; reported only"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("pod default/least at t=1 (attempt 1): score drift: node la-y total 663 vs "
                     "563 (TaintToleration 300 vs 200)"),
            std::string::npos)
      << out;
  // Two builds at one level: failing by default.
  EXPECT_EQ(Diff(w3, w2, "auto", &out), 1) << out;
  EXPECT_NE(out.find("fails: --scores=fail"), std::string::npos) << out;
  EXPECT_NE(out.find("DIVERGENT (score drift)"), std::string::npos) << out;
  // The same scores: nothing to report in either mode.
  EXPECT_EQ(Diff(ref, w3, "fail", &out), 0) << out;
  EXPECT_NE(out.find("score drift: 0 pods"), std::string::npos) << out;
  // Overrides.
  EXPECT_EQ(Diff(w3, w2, "off", &out), 0) << out;
  EXPECT_EQ(out.find("score drift"), std::string::npos) << out;
  EXPECT_EQ(Diff(ref, w2, "fail", &out), 1) << out;
  EXPECT_EQ(Diff(ref, w2, "sometimes", &out), 2) << out;
  EXPECT_NE(out.find("--scores: want off, report, fail or auto"), std::string::npos) << out;
}

TEST(ScoresCommandTest, ReportShowsScoreDrift) {
  Replay("", 3, Tmp("r-ref.trace"));
  Replay("weight:TaintToleration=2", 3, Tmp("r-w2.trace"));
  auto report = [&](const std::string& mode, std::string* out) {
    ReportCommandOptions o;
    o.reference = Tmp("r-ref.trace");
    o.candidate_log = Tmp("r-w2.trace");
    o.output = Tmp("r.html");
    o.scores = mode;
    std::ostringstream sout, serr;
    const int code = RunReportCommand(o, sout, serr);
    *out = sout.str() + serr.str();
    return code;
  };
  std::string out;
  ASSERT_EQ(report("auto", &out), 0) << out;
  EXPECT_NE(out.find("score drift on 8 pod(s)"), std::string::npos) << out;
  const std::string html = Read(Tmp("r.html"));
  EXPECT_NE(html.find("\"scoreDrift\":[\"score drift: 8 pods"), std::string::npos);
  ASSERT_EQ(report("off", &out), 0) << out;
  EXPECT_EQ(out.find("score drift"), std::string::npos) << out;
  EXPECT_EQ(Read(Tmp("r.html")).find("\"scoreDrift\""), std::string::npos);
}

TEST(ScoresCommandTest, GatePassesScoresThrough) {
  const std::string corpus = Tmp("scores-corpus");
  std::filesystem::create_directories(corpus);
  std::filesystem::copy_file(kTrace, corpus + "/scoring-heterogeneous.jsonl",
                             std::filesystem::copy_options::overwrite_existing);
  auto gate = [&](const std::string& mode, const std::string& baseline, std::string* out) {
    GateCommandOptions o;
    o.corpus = corpus;
    o.candidate = "weight:TaintToleration=2";
    o.baseline = baseline;
    o.scores = mode;
    std::ostringstream sout, serr;
    const int code = RunGateCommand(o, sout, serr);
    *out = sout.str() + serr.str();
    return code;
  };
  std::string out;
  EXPECT_EQ(gate("auto", "reference", &out), 0) << out;  // no scores recorded against the reference
  EXPECT_EQ(out.find("score drift"), std::string::npos) << out;
  EXPECT_EQ(gate("report", "reference", &out), 0) << out;
  EXPECT_NE(out.find("score drift: 8 pods"), std::string::npos) << out;
  EXPECT_EQ(gate("fail", "reference", &out), 1) << out;
  EXPECT_EQ(gate("auto", "weight:TaintToleration=3", &out), 1) << out;  // two builds
}

}  // namespace
}  // namespace schedcheck::cli
