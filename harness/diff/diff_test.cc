// Table-driven tests of the pure diff over small hand-written decision logs, plus loading and
// the report formats.
#include "harness/diff/diff.h"

#include <gtest/gtest.h>

#include <fstream>

#include "harness/diff/load.h"
#include "harness/diff/report.h"
#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

std::vector<trace::Record> Log(const std::string& text) {
  auto r = ParseDecisionLog(text, "test");
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : std::vector<trace::Record>{};
}

// Pod p: fails on TaintToleration at t=1, moved by NodeTaintChange at `move_t`, bound to n1.
std::string Requeued(const std::string& move_t, const std::string& cause) {
  return R"({"t":1,"type":"queue","pod":"default/p","from":"none","to":"active","cause":"PodAdd"}
{"t":1,"type":"queue","pod":"default/p","from":"active","to":"inflight","cause":"Pop"}
{"t":1,"type":"attempt","pod":"default/p","attempt":1,"result":"Unschedulable","unschedulablePlugins":["TaintToleration"],"message":"0/1 nodes are available: 1 node(s) had untolerated taint {k: v}."}
{"t":1,"type":"queue","pod":"default/p","from":"inflight","to":"unschedulable","cause":"ScheduleAttemptFailure"}
{"t":)" + move_t +
         R"(,"type":"queue","pod":"default/p","from":"unschedulable","to":"active","cause":")" +
         cause + R"("}
{"t":)" + move_t +
         R"(,"type":"queue","pod":"default/p","from":"active","to":"inflight","cause":"Pop"}
{"t":)" + move_t +
         R"(,"type":"attempt","pod":"default/p","attempt":2,"result":"Scheduled","node":"n1","ties":["n1"]}
{"t":)" + move_t +
         R"(,"type":"bind","pod":"default/p","node":"n1"}
)";
}

const char* kBound =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Scheduled","node":"n1","ties":["n1","n2"]})";
const char* kBoundN2 =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Scheduled","node":"n2","ties":["n2"]})";
const char* kBoundN3 =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Scheduled","node":"n3","ties":["n3"]})";
const char* kUnsched =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"0/2 nodes are available: 2 Insufficient cpu."})";
const char* kPreemptV1 =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"m","nominatedNode":"n1","victims":["default/v1"]})";
const char* kPreemptV2 =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"m","nominatedNode":"n1","victims":["default/v2"]})";
const char* kPreemptN2 =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"m","nominatedNode":"n2","victims":["default/v1"]})";

const char* kObservedInsufficient =
    R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","message":"0/2 nodes are available: 2 Insufficient cpu.","observed":true})";

std::string Unsched(int t) {
  return R"({"t":)" + std::to_string(t) + R"(,"type":"attempt","pod":"default/a","attempt":)" +
         std::to_string(t / 10 + 1) +
         R"(,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"0/2 nodes are available: 2 Insufficient cpu."})";
}

struct Case {
  std::string name;
  std::string a, b;
  int64_t tolerance_ns = 0;
  // Expected divergences, in order: "class what pod t plugins".
  std::vector<std::string> want;
};

std::string Summary(const Divergence& d) {
  std::string s = std::string(ClassName(d.cls)) + " " + d.what + " " + d.pod + " " +
                  std::to_string(d.t_ns / 1000000000);
  for (const std::string& p : d.plugins) s += " " + p;
  return s;
}

TEST(DiffTest, Table) {
  const std::vector<Case> cases = {
      {.name = "identical",
       .a = Requeued("10", "NodeTaintChange"),
       .b = Requeued("10", "NodeTaintChange"),
       .want = {}},
      {.name = "node inside the reference's ties is equivalent",
       .a = kBound,
       .b = kBoundN2,
       .want = {}},
      {.name = "node outside the ties is soft",
       .a = kBound,
       .b = kBoundN3,
       .want = {"soft placement default/a 0"}},
      {.name = "the ties of B do not matter, only A's",
       .a = kBoundN2,
       .b = kBound,
       .want = {"soft placement default/a 0"}},
      {.name = "unschedulable where the reference binds",
       .a = kBound,
       .b = kUnsched,
       .want = {"hard outcome default/a 0 NodeResourcesFit"}},
      {.name = "bound where the reference found no node",
       .a = kUnsched,
       .b = kBound,
       .want = {"hard outcome default/a 0 NodeResourcesFit"}},
      {.name = "different victims",
       .a = kPreemptV1,
       .b = kPreemptV2,
       .want = {"hard victims default/a 0 NodeResourcesFit"}},
      {.name = "different nominated node",
       .a = kPreemptV1,
       .b = kPreemptN2,
       .want = {"hard nomination default/a 0 NodeResourcesFit"}},
      {.name = "retried only at the periodic flush",
       .a = Requeued("10", "NodeTaintChange"),
       .b = Requeued("330", "UnschedulableTimeout"),
       .want = {"requeue queue-path default/p 10 TaintToleration"}},
      {.name = "same causes, later retry",
       .a = Requeued("10", "NodeTaintChange"),
       .b = Requeued("12", "NodeTaintChange"),
       .want = {"requeue queue-path default/p 10 TaintToleration"}},
      {.name = "later retry within the tolerance",
       .a = Requeued("10", "NodeTaintChange"),
       .b = Requeued("12", "NodeTaintChange"),
       .tolerance_ns = 2000000000,
       .want = {}},
      {.name = "pod only in the reference",
       .a = kBound,
       .b = "",
       .want = {"hard missing default/a 0"}},
      {.name = "pod only in the candidate",
       .a = "",
       .b = kBound,
       .want = {"hard missing default/a 0"}},
      {.name = "one more attempt, both bound in the end",
       .a =
           std::string(kUnsched) + "\n" +
           R"({"t":5,"type":"attempt","pod":"default/a","attempt":2,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b =
           std::string(kUnsched) + "\n" +
           R"({"t":5,"type":"attempt","pod":"default/a","attempt":2,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"0/2 nodes are available: 2 Insufficient cpu."})"
           "\n"
           R"({"t":9,"type":"attempt","pod":"default/a","attempt":3,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .want = {"requeue attempt-count default/a 5 NodeResourcesFit"}},
      {.name = "fewer attempts and a different outcome",
       .a =
           std::string(kUnsched) + "\n" +
           R"({"t":5,"type":"attempt","pod":"default/a","attempt":2,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b = kUnsched,
       .want = {"hard outcome default/a 0 NodeResourcesFit"}},
      {.name = "one more attempt before binding on the same node",
       .a =
           std::string(kUnsched) + "\n" +
           R"({"t":5,"type":"attempt","pod":"default/a","attempt":2,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b =
           std::string(kUnsched) + "\n" +
           R"({"t":3,"type":"attempt","pod":"default/a","attempt":2,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"0/2 nodes are available: 2 Insufficient cpu."})"
           "\n"
           R"({"t":5,"type":"attempt","pod":"default/a","attempt":3,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .want = {"requeue attempt-count default/a 3 NodeResourcesFit"}},
      {.name = "a capture's observed binding inside the replay's ties",
       .a = kBound,
       .b = R"({"t":0.5,"type":"bind","pod":"default/a","node":"n2","observed":true})",
       .tolerance_ns = 1000000000,
       .want = {}},
      {.name = "a capture's observed binding outside the ties",
       .a = kBound,
       .b = R"({"t":0,"type":"bind","pod":"default/a","node":"n3","observed":true})",
       .want = {"soft placement default/a 0"}},
      {.name = "a capture's FailedScheduling carries the message, not the plugins",
       .a = kUnsched,
       .b = kObservedInsufficient,
       .want = {}},
      {.name = "a capture's different message is hard",
       .a = kUnsched,
       .b =
           R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","message":"0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.","observed":true})",
       .want = {"hard message default/a 0 NodeResourcesFit"}},
      {.name = "repeated identical failures fold into the capture's one aggregated event",
       .a =
           std::string(kUnsched) + "\n" + Unsched(10) + "\n" + Unsched(20) + "\n" +
           R"({"t":30,"type":"attempt","pod":"default/a","attempt":4,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b = std::string(kObservedInsufficient) + "\n" +
            R"({"t":30.5,"type":"bind","pod":"default/a","node":"n1","observed":true})",
       .tolerance_ns = 1000000000,
       .want = {}},
      {.name = "bound much later in the capture is a requeue difference",
       .a =
           std::string(kUnsched) + "\n" +
           R"({"t":30,"type":"attempt","pod":"default/a","attempt":2,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b = std::string(kObservedInsufficient) + "\n" +
            R"({"t":330,"type":"bind","pod":"default/a","node":"n1","observed":true})",
       .tolerance_ns = 2000000000,
       .want = {"requeue attempt-time default/a 30 NodeResourcesFit"}},
      {.name = "a message the capture never showed",
       .a =
           std::string(kUnsched) + "\n" +
           R"({"t":10,"type":"attempt","pod":"default/a","attempt":2,"result":"Unschedulable","unschedulablePlugins":["TaintToleration"],"message":"0/2 nodes are available: 2 node(s) had untolerated taint {k: v}."})"
           "\n" +
           R"({"t":30,"type":"attempt","pod":"default/a","attempt":3,"result":"Scheduled","node":"n1","ties":["n1"]})",
       .b = std::string(kObservedInsufficient) + "\n" +
            R"({"t":30,"type":"bind","pod":"default/a","node":"n1","observed":true})",
       .want = {"requeue attempt-count default/a 10 NodeResourcesFit"}},
      {.name = "first divergence is the earliest across pods",
       .a = std::string(kBound) + "\n" + Requeued("10", "NodeTaintChange"),
       .b = std::string(kUnsched) + "\n" + Requeued("330", "UnschedulableTimeout"),
       .want = {"hard outcome default/a 0 NodeResourcesFit",
                "requeue queue-path default/p 10 TaintToleration"}},
  };
  for (const Case& c : cases) {
    DiffResult r = Diff(Log(c.a), Log(c.b), {.time_tolerance_ns = c.tolerance_ns});
    std::vector<std::string> got;
    for (const Divergence& d : r.divergences) got.push_back(Summary(d));
    EXPECT_EQ(got, c.want) << c.name;
  }
}

TEST(DiffTest, EveryDivergenceFailsAndSoftOnesPassOnlyWhenAllowed) {
  DiffResult soft = Diff(Log(kBound), Log(kBoundN3));  // a moved placement
  ASSERT_EQ(soft.Count(DivergenceClass::kSoft), 1u);
  EXPECT_TRUE(soft.Fails());
  EXPECT_FALSE(soft.Fails(/*allow_soft=*/true));
  for (bool allow_soft : {false, true}) {
    EXPECT_TRUE(Diff(Log(kBound), Log(kUnsched)).Fails(allow_soft));
    EXPECT_TRUE(
        Diff(Log(Requeued("10", "NodeTaintChange")), Log(Requeued("330", "UnschedulableTimeout")))
            .Fails(allow_soft));
    EXPECT_FALSE(
        Diff(Log(kBound), Log(kBoundN2)).Fails(allow_soft));  // n2 is among the reference's ties
  }
}

TEST(DiffTest, AgainstACaptureSaysWhatWasNotCompared) {
  EXPECT_TRUE(Diff(Log(kUnsched), Log(kUnsched)).not_compared.empty());
  DiffResult r = Diff(Log(kUnsched), Log(kObservedInsufficient));
  EXPECT_TRUE(r.divergences.empty());
  auto listed = [&r](const std::string& what) {
    for (const std::string& s : r.not_compared) {
      if (s.rfind(what, 0) == 0) return true;
    }
    return false;
  };
  EXPECT_TRUE(listed("rejecting plugins")) << r.not_compared.size();
  EXPECT_TRUE(listed("nominated nodes"));
  EXPECT_TRUE(listed("queue paths"));
  EXPECT_NE(TextReport({"x", r, "", ""}, {}).find("not compared: rejecting plugins"),
            std::string::npos);
  // A capture whose observed attempts do carry plugins has them compared.
  const std::string with_plugins =
      R"({"t":0,"type":"attempt","pod":"default/a","attempt":1,"result":"Unschedulable","unschedulablePlugins":["TaintToleration"],"message":"0/2 nodes are available: 2 Insufficient cpu.","observed":true})";
  DiffResult p = Diff(Log(kUnsched), Log(with_plugins));
  ASSERT_EQ(p.divergences.size(), 1u);
  EXPECT_EQ(p.divergences[0].what, "plugins");
}

// A capture's Nomination and Preemption records (import --from watch) are compared with the
// replay's nominations and victims, pod by pod, whichever attempt carried them.
TEST(DiffTest, AgainstACaptureComparesNominationsAndVictims) {
  const std::string replay =
      R"({"t":4,"type":"attempt","pod":"default/high","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"0/1 nodes are available: 1 Insufficient cpu.","nominatedNode":"node-a","victims":["default/low"]})"
      "\n"
      R"({"t":6,"type":"attempt","pod":"default/high","attempt":2,"result":"Scheduled","node":"node-a","ties":["node-a"]})";
  auto capture = [](const std::string& nominated, const std::string& victim) {
    return R"({"t":4,"type":"attempt","pod":"default/high","attempt":1,"result":"Unschedulable","message":"0/1 nodes are available: 1 Insufficient cpu.","observed":true})"
           "\n"
           R"({"t":4,"type":"preempt","pod":")" +
           victim +
           R"(","preemptor":"default/high","node":"node-a","observed":true})"
           "\n"
           R"({"t":4.5,"type":"nominate","pod":"default/high","node":")" +
           nominated +
           R"(","observed":true})"
           "\n"
           R"({"t":7,"type":"bind","pod":"default/high","node":"node-a","observed":true})";
  };
  DiffResult same = Diff(Log(replay), Log(capture("node-a", "default/low")),
                         {.time_tolerance_ns = kCaptureTimeToleranceNs});
  EXPECT_TRUE(same.divergences.empty()) << Describe(same.divergences[0]);
  for (const std::string& s : same.not_compared) {
    EXPECT_EQ(s.find("nominated nodes"), std::string::npos) << s;
    EXPECT_EQ(s.find("preemption victims"), std::string::npos) << s;
  }
  DiffResult other_node = Diff(Log(replay), Log(capture("node-b", "default/low")),
                               {.time_tolerance_ns = kCaptureTimeToleranceNs});
  ASSERT_EQ(other_node.divergences.size(), 1u);
  EXPECT_EQ(Summary(other_node.divergences[0]), "hard nomination default/high 4");
  EXPECT_EQ(other_node.divergences[0].candidate, "nominated node-b");
  DiffResult other_victim = Diff(Log(replay), Log(capture("node-a", "default/mid")),
                                 {.time_tolerance_ns = kCaptureTimeToleranceNs});
  ASSERT_EQ(other_victim.divergences.size(), 1u);
  EXPECT_EQ(Summary(other_victim.divergences[0]), "hard victims default/high 4");
  EXPECT_EQ(other_victim.divergences[0].reference, "victims {default/low}");
  EXPECT_EQ(other_victim.divergences[0].candidate, "victims {default/mid}");
}

TEST(DiffTest, ObservationLinesRoundTrip) {
  const std::string text =
      R"({"t":1,"type":"nominate","pod":"default/a","node":"n1","observed":true})"
      "\n"
      R"({"t":2,"type":"preempt","pod":"default/v","preemptor":"default/a","node":"n1","observed":true})";
  auto records = ParseDecisionLog(text, "x.jsonl");
  ASSERT_TRUE(records.ok()) << records.message();
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].nomination().node(), "n1");
  EXPECT_EQ((*records)[1].preemption().victim(), "default/v");
  EXPECT_EQ((*records)[1].preemption().preemptor(), "default/a");
  EXPECT_EQ(
      replay::DecisionJsonLine((*records)[0]) + "\n" + replay::DecisionJsonLine((*records)[1]),
      text);
  auto bad =
      ParseDecisionLog(R"({"t":1,"type":"preempt","pod":"default/v","preemptor":3})", "x.jsonl");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "x.jsonl:1: field preemptor: expected a string, got 3");
}

TEST(DiffTest, DescribeNamesBothSides) {
  DiffResult r =
      Diff(Log(Requeued("10", "NodeTaintChange")), Log(Requeued("330", "UnschedulableTimeout")));
  ASSERT_EQ(r.divergences.size(), 1u);
  EXPECT_EQ(
      Describe(r.divergences[0]),
      "pod default/p at t=10: queue-path [requeue]: reference t=10 unschedulable->active "
      "(NodeTaintChange); "
      "candidate t=330 unschedulable->active (UnschedulableTimeout); plugins TaintToleration");
}

TEST(LoadTest, BadLinesNameFileLineAndField) {
  auto r = ParseDecisionLog(
      "{\"t\":1,\"type\":\"bind\",\"pod\":\"a/b\",\"node\":\"n\"}\n{\"type\":\"bind\"}\n",
      "x.jsonl");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("x.jsonl:2: field t"), std::string::npos) << r.message();
  for (const char* t : {"1e300", "-1e300", "2e10"}) {
    auto far = ParseDecisionLog(
        std::string("{\"t\":") + t + ",\"type\":\"bind\",\"pod\":\"a/b\",\"node\":\"n\"}\n",
        "x.jsonl");
    ASSERT_FALSE(far.ok()) << t;
    EXPECT_NE(far.message().find("x.jsonl:1: field t"), std::string::npos) << far.message();
  }
  auto missing = LoadDecisions("no/such/file.jsonl");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("no/such/file.jsonl"), std::string::npos);
}

// Values no writer produces are bad input naming the line and field, never compared: the checks
// of docs/FORMATS.md#decision-logs. Each case is one line after a valid first line at t=2.
TEST(LoadTest, ImpossibleValuesAreRejectedNamingLineAndField) {
  const std::string first =
      R"({"t":2,"type":"queue","pod":"default/p","from":"none","to":"active","cause":"PodAdd"})"
      "\n";
  const std::string bind = R"("type":"bind","pod":"default/p","node":"n1")";
  const std::string attempt = R"("type":"attempt","pod":"default/p","result":"Scheduled")";
  const std::string queue = R"("type":"queue","pod":"default/p","cause":"Pop")";
  struct BadLine {
    std::string line;
    std::string want;
  };
  const std::vector<BadLine> cases = {
      {"{\"t\":1.5," + bind + "}",
       "x.jsonl:2: field t: 1.5 is before the previous line's 2 (a decision log is in time order)"},
      {"{\"t\":-1," + bind + "}", "x.jsonl:2: field t: expected seconds since the trace start"},
      {"{\"t\":3,\"attempt\":-1,\"node\":\"n1\"," + attempt + "}",
       "x.jsonl:2: field attempt: expected an integer >= 1, got -1"},
      {"{\"t\":3,\"attempt\":0,\"node\":\"n1\"," + attempt + "}",
       "x.jsonl:2: field attempt: expected an integer >= 1, got 0"},
      {"{\"t\":3,\"attempt\":9223372036854775808,\"node\":\"n1\"," + attempt + "}",
       "x.jsonl:2: field attempt: expected an integer >= 1 and at most 2147483647, got "
       "9223372036854775808"},
      {"{\"t\":3,\"attempt\":1.5,\"node\":\"n1\"," + attempt + "}",
       "x.jsonl:2: field attempt: expected an integer >= 1, got 1.5"},
      {"{\"t\":3,\"attempt\":1," + attempt + "}",
       "x.jsonl:2: field node: expected a non-empty string (a Scheduled attempt names its node)"},
      {"{\"t\":3,\"attempt\":1,\"node\":\"n1\",\"ties\":[\"n1\",2]," + attempt + "}",
       "x.jsonl:2: field ties: expected a list of strings, got [\"n1\",2]"},
      {"{\"t\":3,\"attempt\":1,\"node\":\"n1\",\"victims\":\"default/v\"," + attempt + "}",
       "x.jsonl:2: field victims: expected a list of strings, got \"default/v\""},
      {"{\"t\":3,\"attempt\":1,\"node\":\"n1\",\"observed\":1," + attempt + "}",
       "x.jsonl:2: field observed: expected true or false, got 1"},
      {R"({"t":3,"type":"attempt","pod":"default/p","attempt":1,"result":"Unschedulable","message":7})",
       "x.jsonl:2: field message: expected a string, got 7"},
      {R"({"t":3,"type":"bind","pod":"","node":"n1"})",
       "x.jsonl:2: field pod: expected a non-empty string (namespace/name), got \"\""},
      {R"({"t":3,"type":"bind","pod":["default/p"],"node":"n1"})",
       "x.jsonl:2: field pod: expected a non-empty string (namespace/name), got [\"default/p\"]"},
      {R"({"t":3,"type":"bind","pod":"default/p","node":""})",
       "x.jsonl:2: field node: expected a non-empty string"},
      {"{\"t\":3,\"from\":\"active\",\"to\":\"elsewhere\"," + queue + "}",
       "x.jsonl:2: field to: expected one of none, active, backoff, unschedulable, inflight, "
       "gone, got \"elsewhere\""},
      {"{\"t\":3,\"to\":\"inflight\"," + queue + "}",
       "x.jsonl:2: field from: expected one of none, active, backoff, unschedulable, inflight, "
       "gone, got nothing"},
      {R"({"t":3,"type":"queue","pod":"default/p","from":"active","to":"inflight","cause":""})",
       "x.jsonl:2: field cause: expected a non-empty string"},
  };
  for (const BadLine& c : cases) {
    auto r = ParseDecisionLog(first + c.line + "\n", "x.jsonl");
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_EQ(r.message().rfind(c.want, 0), 0u) << c.line << "\n" << r.message();
  }
  // What writers do produce: equal times, optional fields left out, fields this reader does not
  // know (a later format version's) accepted.
  auto ok = ParseDecisionLog(
      first + "{\"t\":2,\"attempt\":2147483647,\"node\":\"n1\",\"future\":{\"x\":1}," + attempt +
          "}\n{\"t\":2.5," + bind + ",\"observed\":true}\n" +
          R"({"t":3,"type":"attempt","pod":"default/p","attempt":1,"result":"Error","message":"m"})" +
          "\n",
      "x.jsonl");
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_EQ(ok->size(), 4u);
}

TEST(LoadTest, ReadsACaptureTraceKeepingOnlyDecisions) {
  auto r = LoadDecisions("harness/diff/testdata/capture.jsonl");
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_TRUE((*r)[0].has_attempt());
  EXPECT_TRUE((*r)[1].binding().observed());
}

TEST(ReportTest, JUnitAndMarkdownNameTheFailure) {
  NamedDiff d{
      "unblock",
      Diff(Log(Requeued("10", "NodeTaintChange")), Log(Requeued("330", "UnschedulableTimeout"))),
      "", ""};
  NamedDiff ok{"same", Diff(Log(kBound), Log(kBoundN2)), "", ""};
  std::string junit = JUnitReport({d, ok}, "gate", {});
  EXPECT_NE(junit.find("tests=\"2\" failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure message=\"pod default/p at t=10: queue-path [requeue]"),
            std::string::npos)
      << junit;
  std::string md = MarkdownReport({d, ok}, "Gate", {});
  EXPECT_NE(md.find("| unblock | **FAIL** | 0 | 1 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| same | pass | 0 | 0 | 0 |"), std::string::npos) << md;
  EXPECT_EQ(JsonReport({d}, {})[0]["divergences"][0]["plugins"][0], "TaintToleration");
}

}  // namespace
}  // namespace schedcheck::diff
