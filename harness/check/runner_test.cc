#include "harness/check/runner.h"

#include <gtest/gtest.h>

#include <fstream>

namespace schedcheck::check {
namespace {

std::string TestData(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  return std::string(srcdir ? srcdir : ".") + "/schedcheck/harness/check/testdata/" + name;
}

TEST(RunnerTest, WrongExpectationsFailWithExpectedVersusActual) {
  auto cases = LoadCases({TestData("wrong_expectations.yaml")});
  ASSERT_TRUE(cases.ok()) << cases.message();
  ASSERT_EQ(cases->size(), 3u);
  for (const Case& c : *cases) {
    CaseResult r = RunCase(c);
    EXPECT_EQ(r.verdict, CaseResult::Verdict::kFail) << c.id;
    EXPECT_NE(r.detail.find("expected"), std::string::npos) << r.detail;
  }
  EXPECT_NE(RunCase((*cases)[0]).detail.find("Insufficient cpu"), std::string::npos);
}

TEST(RunnerTest, MalformedCaseNamesFileLineAndField) {
  auto cases = LoadCases({TestData("malformed.yaml")});
  ASSERT_FALSE(cases.ok());
  EXPECT_NE(cases.message().find("malformed.yaml: line 1"), std::string::npos) << cases.message();
  EXPECT_NE(cases.message().find("priority"), std::string::npos) << cases.message();
}

TEST(RunnerTest, UnimplementedCompatIsSkippedNotPassed) {
  auto cases = LoadCases({TestData("compat.yaml")});
  ASSERT_TRUE(cases.ok()) << cases.message();
  CaseResult r = RunCase((*cases)[0]);
  EXPECT_EQ(r.verdict, CaseResult::Verdict::kSkip);
  EXPECT_EQ(FormatResultLine((*cases)[0], r),
            "SKIP future-compat: compat level 1.35 is not implemented (implemented: 1.27, 1.37)");
}

// v1.37 runs the plugin-level kinds; its queue, preemption and scheduling cycle are not modelled
// yet, so cases of those kinds are skipped with the reason, never run by v1.27 rules.
TEST(RunnerTest, Compat137RunsFilterAndScoreOnly) {
  EXPECT_EQ(UnimplementedCompat("1.37", "filter"), "");
  EXPECT_EQ(UnimplementedCompat("1.37", "score"), "");
  EXPECT_EQ(UnimplementedCompat("", "queue"), "");
  EXPECT_EQ(UnimplementedCompat("1.27", "preempt"), "");
  for (const char* kind : {"schedule", "preempt", "queue"}) {
    EXPECT_NE(UnimplementedCompat("1.37", kind).find("not implemented at 1.37"), std::string::npos)
        << kind;
  }
  auto c = ParseCase(nlohmann::json::parse(R"({"id":"q","source":"s","kind":"schedule",
      "compat":"1.37","nodes":[{"metadata":{"name":"n1"}}],
      "pod":{"metadata":{"name":"p"}},"expect":{"node":"n1"}})"),
                     "inline");
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(RunCase(*c).verdict, CaseResult::Verdict::kSkip);
}

// Expectations of the wrong JSON type used to throw nlohmann's type_error into std::terminate
// (found by hand after the case_file_fuzzer campaign): now each is a failed case saying which
// field, or bad input (a malformed queueConfig).
TEST(RunnerTest, WrongTypedExpectationsFailInsteadOfAborting) {
  const std::string node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})";
  const std::string pod =
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})";
  using Verdict = CaseResult::Verdict;
  struct Want {
    std::string json;
    std::string detail;
    Verdict verdict = Verdict::kFail;
  } wants[] = {
      {R"({"id":"a","source":"s","kind":"filter","plugins":["NodeName"],"nodes":[)" + node +
           R"(],"pod":)" + pod + R"(,"expect":{"n1":{"code":5}}})",
       "expectation field code: expected a string"},
      {R"({"id":"b","source":"s","kind":"preempt","nodes":[)" + node + R"(],"pod":)" + pod +
           R"(,"expect":{"status":{"code":"Unschedulable","message":5}}})",
       "expect.status.message: expected a string"},
      {R"({"id":"c","source":"s","kind":"queue","queueConfig":{"queueSort":5},"expect":{"ops":[]}})",
       "queueSort: only PrioritySort is supported", Verdict::kBadInput},
      {R"({"id":"d","source":"s","kind":"filter","plugins":["NodeName"],"nodes":[)" + node +
           R"(],"pod":)" + pod + R"(,"expect":{"n1":{"code":"Success","reasons":[1]}}})",
       ""},  // a non-string reason is compared as its JSON text: no exception either
  };
  const char* tmp = std::getenv("TEST_TMPDIR");
  for (const Want& w : wants) {
    const std::string path = std::string(tmp ? tmp : "/tmp") + "/wrong-type.json";
    std::ofstream(path) << w.json;
    auto cases = LoadCases({path});
    ASSERT_TRUE(cases.ok()) << cases.message();
    CaseResult r = RunCase((*cases)[0]);
    EXPECT_EQ(r.verdict, w.verdict) << w.json;
    EXPECT_NE(r.detail.find(w.detail), std::string::npos) << r.detail;
  }
}

TEST(RunnerTest, MissingFileIsAnError) {
  auto cases = LoadCases({TestData("nope.yaml")});
  ASSERT_FALSE(cases.ok());
  EXPECT_NE(cases.message().find("no such file"), std::string::npos);
}

}  // namespace
}  // namespace schedcheck::check
