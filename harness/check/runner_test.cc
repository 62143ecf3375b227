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

// Every kind runs at both levels, by the level's rules: a whole cycle on a node whose cpu is
// overcommitted by a bound pod, for a pod requesting memory only. v1.27's fitsRequest compares
// the zero cpu request with the negative room (Insufficient cpu); v1.37's skips zero requests.
TEST(RunnerTest, ScheduleCasesRunByTheirLevelsRules) {
  EXPECT_EQ(UnimplementedCompat("1.37"), "");
  EXPECT_EQ(UnimplementedCompat(""), "");
  EXPECT_NE(UnimplementedCompat("1.35"), "");
  const std::string body = R"("kind":"schedule",
      "nodes":[{"metadata":{"name":"n1"},
                "status":{"allocatable":{"cpu":"1","memory":"4Gi","pods":"10"}}}],
      "pods":[{"metadata":{"name":"big"},"spec":{"nodeName":"n1",
               "containers":[{"resources":{"requests":{"cpu":"2"}}}]}}],
      "pod":{"metadata":{"name":"p"},
             "spec":{"containers":[{"resources":{"requests":{"memory":"1Gi"}}}]}})";
  auto at = [&](const std::string& compat, const std::string& expect) {
    auto c = ParseCase(nlohmann::json::parse(R"({"id":"q","source":"s","compat":")" + compat +
                                             R"(",)" + body + R"(,"expect":)" + expect + "}"),
                       "inline");
    EXPECT_TRUE(c.ok()) << c.message();
    return RunCase(*c);
  };
  EXPECT_EQ(at("1.37", R"({"node":"n1"})").verdict, CaseResult::Verdict::kPass);
  EXPECT_EQ(at("1.27", R"({"node":"n1"})").verdict, CaseResult::Verdict::kFail);
  EXPECT_EQ(at("1.27", R"({"unschedulable":true})").verdict, CaseResult::Verdict::kPass);
}

// Hint cases: the reference's v1.37 hints answer, a wrong expectation fails, and malformed hint
// cases are refused when parsed, naming the field.
// A queue case at 1.37 runs the v1.37 queue: a Pending plugin's Queue skips backoff (it would
// not at 1.27, where the pod would wait in backoffQ); a wrong expectation fails naming the op; a
// field only the 1.27 queue knows is bad input naming it.
TEST(RunnerTest, QueueCasesRunAtCompat137) {
  const std::string base = R"({"id":"q","source":"s","kind":"queue","compat":"1.37",
      "queueConfig":{"queueingHints":[{"event":{"resource":"Node","action":"Add"},
        "plugin":"p1","hint":"Queue"}]},
      "expect":{"ops":[
        {"op":"add","pod":{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}}},
        {"op":"pop","expect":"default/a"},
        {"op":"failed","pod":"default/a","plugins":[],"pendingPlugins":["p1"]},
        {"op":"event","event":{"resource":"Node","action":"Add"}},
        {"op":"expectQueues","activeQ":[WANT],"backoffQ":[],"unschedulable":[]}]}})";
  auto with = [&](const std::string& want) {
    std::string text = base;
    text.replace(text.find("WANT"), 4, want);
    auto c = ParseCase(nlohmann::json::parse(text), "inline");
    EXPECT_TRUE(c.ok()) << c.message();
    return RunCase(*c);
  };
  EXPECT_EQ(with("\"default/a\"").verdict, CaseResult::Verdict::kPass);
  CaseResult wrong = with("");
  EXPECT_EQ(wrong.verdict, CaseResult::Verdict::kFail);
  EXPECT_NE(wrong.detail.find("ops[4] (expectQueues): activeQ: got [default/a], want []"),
            std::string::npos)
      << wrong.detail;
  auto bad = ParseCase(nlohmann::json::parse(R"({"id":"q","source":"s","kind":"queue",
      "compat":"1.37","queueConfig":{"pluginEvents":{"p":["NodeAdd"]}},"expect":{"ops":[]}})"),
                       "inline");
  ASSERT_TRUE(bad.ok()) << bad.message();
  CaseResult r = RunCase(*bad);
  EXPECT_EQ(r.verdict, CaseResult::Verdict::kBadInput);
  EXPECT_NE(r.detail.find("pluginEvents: not a queueConfig field at compat 1.37"),
            std::string::npos)
      << r.detail;
}

TEST(RunnerTest, HintCasesRunAtCompat137) {
  const std::string base = R"("source":"s","kind":"hint","compat":"1.37",
      "plugins":["NodeUnschedulable"],"pod":{"metadata":{"name":"p"}},
      "event":{"resource":"Node","action":"UpdateNodeTaint"},
      "oldObject":{"metadata":{"name":"n"},"spec":{"unschedulable":true}},
      "newObject":{"metadata":{"name":"n"}},)";
  auto queue = ParseCase(
      nlohmann::json::parse("{\"id\":\"a\"," + base + R"("expect":{"hint":"Queue"}})"), "inline");
  ASSERT_TRUE(queue.ok()) << queue.message();
  EXPECT_EQ(RunCase(*queue).verdict, CaseResult::Verdict::kPass) << RunCase(*queue).detail;
  auto wrong = ParseCase(
      nlohmann::json::parse("{\"id\":\"b\"," + base + R"("expect":{"hint":"QueueSkip"}})"),
      "inline");
  ASSERT_TRUE(wrong.ok()) << wrong.message();
  CaseResult r = RunCase(*wrong);
  EXPECT_EQ(r.verdict, CaseResult::Verdict::kFail);
  EXPECT_EQ(r.detail, "expected QueueSkip, got Queue");
  // An event NodeUnschedulable does not register.
  auto label = ParseCase(nlohmann::json::parse(R"({"id":"c","source":"s","kind":"hint",
      "compat":"1.37","plugins":["NodeUnschedulable"],"pod":{"metadata":{"name":"p"}},
      "event":{"resource":"Node","action":"UpdateNodeLabel"},
      "oldObject":{"metadata":{"name":"n"}},"newObject":{"metadata":{"name":"n"}},
      "expect":{"hint":"NotRegistered"}})"),
                         "inline");
  ASSERT_TRUE(label.ok()) << label.message();
  EXPECT_EQ(RunCase(*label).verdict, CaseResult::Verdict::kPass) << RunCase(*label).detail;

  struct Bad {
    std::string json;
    std::string error;
  };
  for (const Bad& bad : std::vector<Bad>{
           {R"({"id":"d","source":"s","kind":"hint","plugins":["NodeName"],
                "pod":{"metadata":{"name":"p"}},"event":{"resource":"Node","action":"Add"},
                "newObject":{"metadata":{"name":"n"}},"expect":{"hint":"Queue"}})",
            "field compat: kind hint exists at compat \"1.37\" only"},
           {R"({"id":"d","source":"s","kind":"hint","compat":"1.37","plugins":["NodeName"],
                "pod":{"metadata":{"name":"p"}},"event":{"resource":"Node","action":"Add"},
                "expect":{"hint":"Queue"}})",
            "field newObject: missing for a Node Add event"},
           {R"({"id":"d","source":"s","kind":"hint","compat":"1.37","plugins":["NodeName"],
                "pod":{"metadata":{"name":"p"}},"event":{"resource":"Node","action":"Grow"},
                "newObject":{"metadata":{"name":"n"}},"expect":{"hint":"Queue"}})",
            "field event.action: unknown action \"Grow\""},
           {R"({"id":"d","source":"s","kind":"hint","compat":"1.37","plugins":["NodeName"],
                "pod":{"metadata":{"name":"p"}},"event":{"resource":"Node","action":"Add"},
                "newObject":{"metadata":{"name":"n"}},"expect":{"hint":"QueueSkip","error":true}})",
            "field expect.error: an error counts as Queue"},
           {R"({"id":"d","source":"s","kind":"hint","compat":"1.37","plugins":["NodeName"],
                "pod":{"metadata":{"name":"p"}},"event":{"resource":"Node","action":"Add"},
                "newObject":{"metadata":{"name":"n"}},"feasibleNodes":["n"],
                "expect":{"hint":"Queue"}})",
            "field feasibleNodes: not a field of a hint case"},
       }) {
    auto c = ParseCase(nlohmann::json::parse(bad.json), "inline");
    ASSERT_FALSE(c.ok()) << bad.error;
    EXPECT_NE(c.message().find(bad.error), std::string::npos) << c.message();
  }
}

// Update cases: a node update's events in upstream's order; a pod update with nothing specific
// is one Update; bad update cases are refused when parsed.
TEST(RunnerTest, UpdateCasesRunAtCompat137) {
  auto node = ParseCase(nlohmann::json::parse(R"({"id":"u1","source":"s","kind":"update",
      "compat":"1.37","resource":"Node",
      "oldObject":{"metadata":{"name":"n"},"spec":{"unschedulable":true}},
      "newObject":{"metadata":{"name":"n","labels":{"a":"b"}}},
      "expect":{"events":["Node/UpdateNodeTaint","Node/UpdateNodeLabel"]}})"),
                        "inline");
  ASSERT_TRUE(node.ok()) << node.message();
  EXPECT_EQ(RunCase(*node).verdict, CaseResult::Verdict::kPass) << RunCase(*node).detail;
  auto pod = ParseCase(nlohmann::json::parse(R"({"id":"u2","source":"s","kind":"update",
      "compat":"1.37","resource":"Pod","targetPod":true,
      "oldObject":{"metadata":{"name":"p","annotations":{"x":"1"}}},
      "newObject":{"metadata":{"name":"p","annotations":{"x":"2"}}},
      "expect":{"events":["UnscheduledPod/Update"]}})"),
                       "inline");
  ASSERT_TRUE(pod.ok()) << pod.message();
  CaseResult r = RunCase(*pod);
  EXPECT_EQ(r.verdict, CaseResult::Verdict::kFail);
  EXPECT_EQ(r.detail, "expected events [UnscheduledPod/Update], got [TargetPod/Update]");
  auto bad = ParseCase(nlohmann::json::parse(R"({"id":"u3","source":"s","kind":"update",
      "compat":"1.37","resource":"Node","targetPod":true,
      "oldObject":{"metadata":{"name":"n"}},"newObject":{"metadata":{"name":"n"}},
      "expect":{"events":[]}})"),
                       "inline");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("field targetPod: only for resource Pod"), std::string::npos)
      << bad.message();
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
