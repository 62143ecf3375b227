#include "harness/check/runner.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(FormatResultLine((*cases)[0], r), "SKIP future-compat: compat level 1.35 is not implemented (implemented: 1.27)");
}

TEST(RunnerTest, MissingFileIsAnError) {
  auto cases = LoadCases({TestData("nope.yaml")});
  ASSERT_FALSE(cases.ok());
  EXPECT_NE(cases.message().find("no such file"), std::string::npos);
}

}  // namespace
}  // namespace schedcheck::check
