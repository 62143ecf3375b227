// --limit on the commands that read traces and captures (harness/fuzz/README.md): for each
// limit, input just beyond it is an exit-2 error naming the file, the position, the field, the
// limit and the option, nothing is written, and the same input passes with the limit raised.
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/cli/diff_command.h"
#include "harness/cli/gate_command.h"
#include "harness/cli/import_command.h"
#include "harness/cli/replay_command.h"
#include "harness/cli/serve_command.h"
#include "harness/cli/trace_commands.h"
#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::FileExists;
using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

// A pod as `kubectl get -o json` writes it, with `labels` labels, the first key `key` long and the
// name `name` long.
std::string PodJson(const std::string& name, int labels, size_t key = 3) {
  std::string out =
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
      R"(","namespace":"default","creationTimestamp":"2024-03-01T10:00:00Z","labels":{)";
  for (int i = 0; i < labels; ++i) {
    std::string k = "k" + std::to_string(i);
    if (i == 0) k.resize(std::max(key, k.size()), 'x');
    out += (i > 0 ? "," : "") + ("\"" + k + "\":\"v\"");
  }
  return out + R"(}},"spec":{"containers":[{"name":"c","image":"i"}]}})";
}

struct Case {
  std::string name;
  std::string tight;              // --limit that the input exceeds
  std::string raised;             // --limit that accepts it
  std::string want;               // the error after the position
  std::vector<std::string> pods;  // the input's pods, in order; the last one exceeds the limit
};

std::vector<Case> Cases() {
  return {
      {"records",
       "records=2",
       "records=3",
       "more than 2 records, the limit records=2 (raise it with --limit records=N)",
       {PodJson("a", 1), PodJson("b", 1), PodJson("c", 1)}},
      {"string",
       "string-bytes=100",
       "string-bytes=200",
       "field api.pod.metadata.name: 150 bytes, more than the limit string-bytes=100 (raise it "
       "with --limit "
       "string-bytes=N)",
       {PodJson("a", 1), PodJson(std::string(150, 'n'), 1)}},
      {"key",
       "key-bytes=40",
       "key-bytes=50",
       "field api.pod.metadata.labels key: 50 bytes, more than the limit key-bytes=40 (raise it "
       "with --limit "
       "key-bytes=N)",
       {PodJson("a", 1), PodJson("b", 2, 50)}},
      {"entries",
       "map-entries=4",
       "map-entries=5",
       "field api.pod.metadata.labels: 5 entries, more than the limit map-entries=4 (raise it with "
       "--limit "
       "map-entries=N)",
       {PodJson("a", 4), PodJson("b", 5)}},
  };
}

// A watch stream: one {"type":"ADDED","object":...} per line.
std::string WatchStream(const std::vector<std::string>& pods) {
  std::string out;
  for (const std::string& pod : pods) out += R"({"type":"ADDED","object":)" + pod + "}\n";
  return out;
}

TEST(LimitOptionTest, ImportWatchAndManifestsNameFileLineAndLimit) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    for (const std::string format : {"watch", "manifests"}) {
      SCOPED_TRACE(format);
      const std::string input =
          TempPath(c.name + "-" + format + (format == "watch" ? ".json" : ".jsonl"));
      std::string text = WatchStream(c.pods);
      if (format == "manifests") {
        text.clear();
        for (const std::string& pod : c.pods) text += pod + "\n";
      }
      WriteFileBytes(input, text);
      ImportCommandOptions o{.format = format,
                             .inputs = {input},
                             .output = TempPath(c.name + "-" + format + ".trace")};
      o.limits = {c.tight};
      std::ostringstream out, err;
      EXPECT_EQ(RunImport(o, out, err), 2);
      // manifests name the line, watch streams the line and the object's index in the file.
      const std::string where = input + ": line " + std::to_string(c.pods.size());
      EXPECT_NE(err.str().find(where), std::string::npos) << err.str();
      // watch names the record's field (api.pod.metadata...), manifests the object's
      // (pod.metadata...).
      std::string want = c.want;
      if (want.rfind("field api.pod.", 0) == 0) want = want.substr(14);
      EXPECT_NE(err.str().find(want), std::string::npos) << err.str();
      EXPECT_FALSE(FileExists(o.output));
      o.limits = {c.tight, c.raised};  // the last one counts
      std::ostringstream out2, err2;
      EXPECT_EQ(RunImport(o, out2, err2), 0) << err2.str();
      EXPECT_TRUE(FileExists(o.output));
    }
  }
}

// The trace imported with the limit raised is then read by replay and trace info|cat|convert, each
// bound by the same limits.
TEST(LimitOptionTest, ReplayAndTraceCommandsEnforceAndRaise) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    const std::string input = TempPath(c.name + "-r.json");
    WriteFileBytes(input, WatchStream(c.pods));
    ImportCommandOptions io{.format = "watch",
                            .inputs = {input},
                            .output = TempPath(c.name + "-r.trace"),
                            .quiet = true};
    std::ostringstream iout, ierr;
    ASSERT_EQ(RunImport(io, iout, ierr), 0) << ierr.str();

    trace::InputLimits tight, raised;
    ASSERT_TRUE(trace::ParseInputLimit(c.tight, &tight).ok());
    ASSERT_TRUE(trace::ParseInputLimit(c.raised, &raised).ok());
    std::ostringstream out, err;
    EXPECT_EQ(TraceInfo(io.output, out, err, tight), 2);
    EXPECT_NE(err.str().find(io.output + ": byte "), std::string::npos) << err.str();
    EXPECT_NE(err.str().find(c.want), std::string::npos) << err.str();
    std::ostringstream out2, err2;
    EXPECT_EQ(TraceInfo(io.output, out2, err2, raised), 0) << err2.str();

    // trace convert both ways: binary -> JSON Lines, then JSON Lines -> binary (its own reader).
    const std::string jsonl = TempPath(c.name + ".jsonl"), back = TempPath(c.name + "-back.trace");
    std::ostringstream cerr1, cerr2, cerr3;
    EXPECT_EQ(TraceConvert(io.output, jsonl, cerr1, tight), 2);
    EXPECT_FALSE(FileExists(jsonl));
    ASSERT_EQ(TraceConvert(io.output, jsonl, cerr2, raised), 0) << cerr2.str();
    EXPECT_EQ(TraceConvert(jsonl, back, cerr3, tight), 2);
    EXPECT_NE(cerr3.str().find(jsonl + ": line "), std::string::npos) << cerr3.str();
    EXPECT_NE(cerr3.str().find(c.want), std::string::npos) << cerr3.str();
    EXPECT_FALSE(FileExists(back));

    ReplayCommandOptions ro{.trace = jsonl, .jsonl = TempPath(c.name + "-d.jsonl"), .quiet = true};
    ro.limits = {c.tight};
    std::ostringstream rout, rerr;
    EXPECT_EQ(RunReplay(ro, rout, rerr), 2);
    EXPECT_NE(rerr.str().find("schedcheck replay: " + jsonl + ": line "), std::string::npos)
        << rerr.str();
    EXPECT_NE(rerr.str().find(c.want), std::string::npos) << rerr.str();
    EXPECT_FALSE(FileExists(ro.jsonl));
    ro.limits = {c.raised};
    std::ostringstream rout2, rerr2;
    EXPECT_EQ(RunReplay(ro, rout2, rerr2), 0) << rerr2.str();
    EXPECT_TRUE(FileExists(ro.jsonl));
  }
}

TEST(LimitOptionTest, BadSpecIsBadInput) {
  ImportCommandOptions o{
      .format = "watch", .inputs = {TempPath("none.json")}, .output = TempPath("none.trace")};
  o.limits = {"pods=3"};
  std::ostringstream out, err;
  EXPECT_EQ(RunImport(o, out, err), 2);
  EXPECT_NE(err.str().find("--limit pods=3: expected NAME=VALUE with NAME one of records, "
                           "expanded-objects, string-bytes, key-bytes, "
                           "map-entries"),
            std::string::npos)
      << err.str();
}

// serve reads its limits before any request: a bad one ends it with exit 2 at once.
TEST(LimitOptionTest, ServeTakesTheLimitsToo) {
  ServeCommandOptions o;
  o.limits = {"records=0"};
  std::ostringstream err;
  EXPECT_EQ(RunServe(o, -1, -1, err), 2);
  EXPECT_NE(err.str().find("schedcheck serve: --limit records=0"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace schedcheck::cli

namespace schedcheck::cli {
namespace {

// diff reads decision logs (JSON Lines) and traces under the same limits.
TEST(LimitOptionTest, DiffNamesLineAndLimit) {
  const std::string log = trace::testing::TempPath("limits-decisions.jsonl");
  std::string text;
  for (const char* pod : {"default/a", "default/b", "default/c"}) {
    text += std::string(R"({"t":1,"type":"attempt","pod":")") + pod +
            R"(","attempt":1,"result":"Unschedulable","message":"m"})" + "\n";
  }
  trace::testing::WriteFileBytes(log, text);
  DiffCommandOptions o;
  o.a = o.b = log;
  o.limits = {"records=2"};
  std::ostringstream out, err;
  EXPECT_EQ(RunDiffCommand(o, out, err), 2) << out.str();
  EXPECT_NE(
      err.str().find(
          log + ":3: more than 2 records, the limit records=2 (raise it with --limit records=N)"),
      std::string::npos)
      << err.str();
  o.limits = {"records=3", "string-bytes=5"};
  err.str("");
  EXPECT_EQ(RunDiffCommand(o, out, err), 2);
  EXPECT_NE(
      err.str().find(log + ":1: field attempt.pod: 9 bytes, more than the limit string-bytes=5"),
      std::string::npos)
      << err.str();
  o.limits = {"records=3"};
  EXPECT_EQ(RunDiffCommand(o, out, err), 0) << err.str();
  o.limits = {"bogus=1"};
  EXPECT_EQ(RunDiffCommand(o, out, err), 2);
}

// gate reads every corpus trace under the limits.
TEST(LimitOptionTest, GateNamesTheTraceAndLimit) {
  GateCommandOptions o;
  o.corpus = "harness/gate/testdata/corpus";
  o.limits = {"records=1"};
  std::ostringstream out, err;
  EXPECT_EQ(RunGateCommand(o, out, err), 2) << out.str();
  EXPECT_NE(err.str().find("the limit records=1 (raise it with --limit records=N)"),
            std::string::npos)
      << err.str();
  o.limits.clear();
  err.str("");
  EXPECT_EQ(RunGateCommand(o, out, err), 0) << out.str() << err.str();
}

}  // namespace
}  // namespace schedcheck::cli
