// `schedcheck check` on bad case files: each is bad input (exit 2) naming the file, the case, and
// for a queue case the op index and field; never a FAIL (exit 1), a silent narrowing or a PASS.
#include "harness/cli/check_command.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

#define EXPECT_CONTAINS(text, part)                                                           \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "missing: " << (part) << "\n" \
                                                             << (text)

struct CheckRun {
  int code;
  std::string out;
  std::string err;
};

CheckRun Check(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  WriteFileBytes(path, text);
  std::ostringstream out, err;
  const int code = RunCheck({path}, false, reference::Engine::kPlain, {}, out, err);
  return {code, out.str(), err.str()};
}

// A queue case named "q" running `ops` (a JSON list) after adding pod default/a.
std::string QueueCase(const std::string& ops) {
  return R"({"id":"q","source":"test","kind":"queue","expect":{"ops":[)"
         R"({"op":"add","pod":{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}}},)" +
         ops + "]}}";
}

TEST(CheckCommandTest, FileWithoutCasesIsBadInput) {
  const std::pair<const char*, const char*> files[] = {
      {"empty.yaml", ""},
      {"blank.yaml", "\n  \n"},
      {"comment.yaml", "# nothing\n"},
      {"dashes.yaml", "---\n---\n"},
      {"empty.jsonl", ""},
      {"list.json", "[]"},
  };
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    CheckRun r = Check(name, text);
    EXPECT_EQ(r.code, 2);
    EXPECT_CONTAINS(r.err, "schedcheck check: " + TempPath(name) + ": no cases");
    EXPECT_EQ(r.out, "");
  }
}

TEST(CheckCommandTest, QueueOpFieldsAreRangeCheckedAndTyped) {
  struct Want {
    std::string ops;
    std::string message;  // after "(case q): "
  } wants[] = {
      // 05: an offset whose nanoseconds overflow int64 (llround of 1e309 was UB).
      {R"({"op":"addUnschedulable","pod":"default/a","queueTimestampOffsetSeconds":1e300},)"
       R"({"op":"flushUnschedulableLeftover"})",
       "ops[1].queueTimestampOffsetSeconds: expected a number of seconds in [-1000000000, "
       "1000000000], got 1e+300"},
      {R"({"op":"advanceClock","seconds":-5})",
       "ops[1].seconds: expected a number of seconds in [0, 1000000000], got -5"},
      {R"({"op":"advanceClock","seconds":1e300})",
       "ops[1].seconds: expected a number of seconds in [0, 1000000000], got 1e+300"},
      {R"({"op":"advanceClock","seconds":600000000},{"op":"advanceClock","seconds":600000000})",
       "ops[2].seconds: the virtual clock would pass 1000000000 s"},
      // 06: a float or an out-of-range integer where int64 nanoseconds are wanted.
      {R"({"op":"expectBackoffDuration","initialBackoffNanoseconds":1e300,)"
       R"("maxBackoffNanoseconds":1,"attempts":1,"wantNanoseconds":1})",
       "ops[1].initialBackoffNanoseconds: expected an integer in [1, 9223372036854775807], got "
       "1e+300"},
      {R"({"op":"expectBackoffDuration","initialBackoffNanoseconds":1,)"
       R"("maxBackoffNanoseconds":9223372036854775808,"attempts":1,"wantNanoseconds":1})",
       "ops[1].maxBackoffNanoseconds: expected an integer in [0, 9223372036854775807], got "
       "9223372036854775808"},
      // 07: malformed ops are bad input naming the op and field, not a FAIL.
      {R"({"op":"advanceClock","seconds":"abc"})",
       R"(ops[1].seconds: expected a number of seconds in [0, 1000000000], got "abc")"},
      {R"({"op":"expectBackoffDuration","maxBackoffNanoseconds":1,"attempts":1,)"
       R"("wantNanoseconds":1})",
       "ops[1].initialBackoffNanoseconds: missing"},
      {R"(5)", "ops[1]: expected an object with a string \"op\""},
      {R"({"op":"bogus"})", "ops[1] (bogus): unknown op"},
      {R"({"op":"pop","expectAttempts":"x"})",
       R"(ops[1].expectAttempts: expected an integer in [0, 2147483647], got "x")"},
      {R"({"op":"pop","expect":5})", R"(ops[1].expect: expected "ns/name" or null)"},
      {R"({"op":"expectQueues","activeQ":[1]})", "ops[1].activeQ: expected a list of strings"},
      // 08: no silent narrowing (4294967297 was read as 1, and the case passed).
      {R"({"op":"pop","expect":"default/a","expectAttempts":4294967297})",
       "ops[1].expectAttempts: expected an integer in [0, 2147483647], got 4294967297"},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(w.ops);
    CheckRun r = Check("queue.json", QueueCase(w.ops));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_CONTAINS(
        r.err, "schedcheck check: " + TempPath("queue.json") + ": line 1 (case q): " + w.message);
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  }
}

TEST(CheckCommandTest, QueueConfigDurationsAreRangeChecked) {
  CheckRun r =
      Check("config.json", R"({"id":"q","source":"test","kind":"queue",)"
                           R"("queueConfig":{"podMaxBackoffSeconds":1e300},"expect":{"ops":[]}})");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err,
                  "(case q): queueConfig: podMaxBackoffSeconds: expected a number of "
                  "seconds in [0, 1000000000], got 1e+300");
}

TEST(CheckCommandTest, PluginWeightOutOfRangeIsBadInput) {
  CheckRun r = Check("weights.json", R"({"id":"w","source":"test","kind":"queue","pluginWeights":)"
                                     R"({"NodeResourcesFit":1099511627776},"expect":{"ops":[]}})");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err,
                  "(case w): field pluginWeights.NodeResourcesFit: expected an integer in "
                  "[0, 2147483647], got 1099511627776");
}

TEST(CheckCommandTest, SetupErrorsAreBadInput) {
  CheckRun r =
      Check("setup.json", R"({"id":"s","source":"test","kind":"filter","plugins":["Bogus"],)"
                          R"("nodes":[{"metadata":{"name":"n1"}}],)"
                          R"("pod":{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}},)"
                          R"("expect":{"n1":{"code":"Success"}}})");
  EXPECT_EQ(r.code, 2);
  EXPECT_CONTAINS(r.err, "(case s): setup: ");
  EXPECT_CONTAINS(r.err, "Bogus");
}

// In-range values still run: the fixed ops keep their meaning (fractional seconds included).
TEST(CheckCommandTest, ValidQueueCasePasses) {
  CheckRun r = Check("ok.json", QueueCase(R"({"op":"advanceClock","seconds":0.5},)"
                                          R"({"op":"pop","expect":"default/a","expectAttempts":1},)"
                                          R"({"op":"expectBackoffDuration",)"
                                          R"("initialBackoffNanoseconds":1000000000,)"
                                          R"("maxBackoffNanoseconds":9223372036854775807,)"
                                          R"("attempts":3,"wantNanoseconds":4000000000})"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "1 passed, 0 failed");
}

}  // namespace
}  // namespace schedcheck::cli
