// The diff and gate commands end to end: exit codes, reports written, explanations printed.
#include "harness/cli/diff_command.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/candidates/candidate.h"
#include "harness/cli/explain_first_divergence.h"
#include "harness/cli/gate_command.h"
#include "harness/cli/report_command.h"
#include "harness/replay/decision_log.h"
#include "traces/trace_file.h"

namespace schedcheck::cli {
namespace {

constexpr char kGolden[] = "golden/unblock/decisions.jsonl";
constexpr char kWeights[] = "harness/gate/testdata/corpus/weights.jsonl";

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

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

DiffCommandOptions Opts(const std::string& a, const std::string& b) {
  DiffCommandOptions o;
  o.a = a;
  o.b = b;
  return o;
}

int RunDiff(const DiffCommandOptions& o, std::string* out, std::string* err = nullptr) {
  std::ostringstream o_out, o_err;
  int code = RunDiffCommand(o, o_out, o_err);
  *out = o_out.str();
  if (err) *err = o_err.str();
  return code;
}

TEST(DiffCommandTest, GoldenAgainstItselfIsEquivalent) {
  std::string out;
  EXPECT_EQ(RunDiff(Opts(kGolden, kGolden), &out), 0) << out;
  EXPECT_NE(out.find("equivalent"), std::string::npos) << out;
}

// diff and report refuse, with exit 2, what must not be compared: a replay -o log of a run whose
// scheduler process failed (header label "incomplete"), and a log whose binds were stripped.
TEST(DiffCommandTest, IncompleteOrSelfContradictoryLogsAreRefused) {
  replay::DecisionLog log;
  for (
      const char* line :
      {R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Scheduled","node":"n1"})",
       R"({"t":1,"type":"bind","pod":"default/q","node":"n1"})"}) {
    auto r = replay::ParseDecisionJsonLine(line, "test");
    ASSERT_TRUE(r.ok()) << r.message();
    log.Add(*r);
  }
  trace::Header header;
  (*header.mutable_labels())["incomplete"] = "stdout ended before an answer";
  const std::string cut = Tmp("cut.decisions");
  ASSERT_TRUE(log.WriteTrace(cut, header).ok());
  const std::string unbound = Tmp("unbound.jsonl");
  Write(unbound,
        R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Scheduled","node":"n1"})"
        "\n");
  for (const std::string& bad : {cut, unbound}) {
    std::string out, err;
    EXPECT_EQ(RunDiff(Opts(bad, bad), &out, &err), 2) << out;
    EXPECT_EQ(err.rfind("schedcheck diff: " + bad + ":", 0), 0u) << err;
    std::ostringstream r_out, r_err;
    ReportCommandOptions ro{.reference = kGolden, .candidate_log = bad, .output = Tmp("r.html")};
    EXPECT_EQ(RunReportCommand(ro, r_out, r_err), 2) << r_out.str();
    EXPECT_EQ(r_err.str().rfind("schedcheck report: " + bad + ":", 0), 0u) << r_err.str();
  }
  std::string out, err;
  EXPECT_EQ(RunDiff(Opts(cut, unbound), &out, &err), 2);
  EXPECT_NE(err.find("the decision log is incomplete (header label incomplete: stdout ended "
                     "before an answer)"),
            std::string::npos)
      << err;
  EXPECT_EQ(RunDiff(Opts(unbound, unbound), &out, &err), 2);
  EXPECT_NE(err.find(unbound + ":1: pod default/q was scheduled to n1, but the log has no bind "
                               "record at all"),
            std::string::npos)
      << err;
}

TEST(DiffCommandTest, AChangedBindingInAGoldenLogIsAHardDivergence) {
  std::string golden = Read(kGolden);
  const std::string from = R"("attempt":2,"result":"Scheduled","node":"n2","ties":["n2"])";
  ASSERT_NE(golden.find(from), std::string::npos);
  std::string changed = golden;
  changed.replace(
      changed.find(from), from.size(),
      R"("attempt":2,"result":"Unschedulable","unschedulablePlugins":["TaintToleration"],"message":"m")");
  // A log whose bind contradicts its attempts is refused (load_test): the bind goes too.
  const std::string bind = R"({"t":10,"type":"bind","pod":"default/needs-untainted","node":"n2"})"
                           "\n";
  ASSERT_NE(changed.find(bind), std::string::npos);
  changed.erase(changed.find(bind), bind.size());
  Write(Tmp("changed.jsonl"), changed);
  DiffCommandOptions o = Opts(kGolden, Tmp("changed.jsonl"));
  o.junit = Tmp("d.xml");
  o.markdown = Tmp("d.md");
  std::string out;
  EXPECT_EQ(RunDiff(o, &out), 1) << out;
  EXPECT_NE(
      out.find("first divergence: pod default/needs-untainted at t=10 (attempt 2): outcome [hard]"),
      std::string::npos)
      << out;
  EXPECT_NE(Read(Tmp("d.xml")).find("failures=\"1\""), std::string::npos);
  EXPECT_NE(Read(Tmp("d.md")).find("**FAIL**"), std::string::npos);
  o.json = true;
  EXPECT_EQ(RunDiff(o, &out), 1);
  EXPECT_NE(out.find("\"class\": \"hard\""), std::string::npos) << out;
}

TEST(DiffCommandTest, BadInputExitsTwoNamingFileLineAndField) {
  Write(Tmp("bad.jsonl"),
        "{\"t\":0,\"type\":\"bind\",\"pod\":\"a/"
        "b\",\"node\":\"n\"}\n{\"t\":1,\"type\":\"attempt\",\"pod\":\"a/b\"}\n");
  std::string out, err;
  EXPECT_EQ(RunDiff(Opts(kGolden, Tmp("bad.jsonl")), &out, &err), 2);
  EXPECT_NE(err.find("bad.jsonl:2: field attempt"), std::string::npos) << err;
  EXPECT_EQ(RunDiff(Opts("no/such.jsonl", kGolden), &out, &err), 2);
  EXPECT_NE(err.find("no/such.jsonl"), std::string::npos) << err;
}

// A log that no writer could have produced (times going backwards, attempt -1) is bad input
// (exit 2 naming file, line and field), not a divergence (1) nor equivalent (0).
TEST(DiffCommandTest, ImpossibleLogsExitTwoNotDivergentOrEquivalent) {
  std::istringstream golden(Read(kGolden));
  std::vector<std::string> lines;
  for (std::string line; std::getline(golden, line);) lines.push_back(line);
  ASSERT_GT(lines.size(), 20u);
  std::string reversed;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) reversed += *it + "\n";
  Write(Tmp("reversed.jsonl"), reversed);
  std::string out, err;
  EXPECT_EQ(RunDiff(Opts(kGolden, Tmp("reversed.jsonl")), &out, &err), 2) << out;
  EXPECT_NE(err.find("reversed.jsonl:6: field t: 40 is before the previous line's 330 (a decision "
                     "log is in time order)"),
            std::string::npos)
      << err;

  std::string negative = Read(kGolden);
  const std::string from = R"("attempt":1,)";
  ASSERT_NE(negative.find(from), std::string::npos);
  negative.replace(negative.find(from), from.size(), R"("attempt":-1,)");
  Write(Tmp("attempt-neg.jsonl"), negative);
  EXPECT_EQ(RunDiff(Opts(kGolden, Tmp("attempt-neg.jsonl")), &out, &err), 2) << out;
  EXPECT_NE(err.find("attempt-neg.jsonl:7: field attempt: expected an integer >= 1, got -1"),
            std::string::npos)
      << err;
}

TEST(DiffCommandTest, ClusterTraceExplainsBothSides) {
  auto trace = trace::LoadTrace(kWeights);
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto base = reference::DefaultConfiguration("1.27");
  for (const auto& [spec, file] :
       {std::pair{"reference", "a.jsonl"}, std::pair{"weight:NodeAffinity=5", "b.jsonl"}}) {
    auto c = candidates::MakeCandidate(spec, base);
    ASSERT_TRUE(c.ok());
    auto log = candidates::ReplayCandidate(*c, *trace);
    ASSERT_TRUE(log.ok()) << log.message();
    std::string text;
    for (const auto& r : *log) text += replay::DecisionJsonLine(r) + "\n";
    Write(Tmp(file), text);
  }
  std::string out;
  DiffCommandOptions o = Opts(Tmp("a.jsonl"), Tmp("b.jsonl"));
  o.cluster_trace = kWeights;
  o.candidate = "weight:NodeAffinity=5";
  EXPECT_EQ(RunDiff(o, &out), 1) << out;
  EXPECT_NE(out.find("pod default/p1 at t=1 (attempt 1): placement [soft]"), std::string::npos)
      << out;
  EXPECT_NE(out.find("NodeAffinity 10/100/200"), std::string::npos) << out;
  EXPECT_NE(out.find("NodeAffinity 10/100/500"), std::string::npos) << out;
}

// report --baseline: A was replayed by another build; its side is explained with that build and
// labelled with it, and an out-of-process baseline gets a note (its adapter is not looked up).
TEST(DiffCommandTest, ExplanationNamesTheBaselineBuildAndConfiguration) {
  auto trace = trace::LoadTrace(kWeights);
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto c =
      candidates::MakeCandidate("weight:NodeAffinity=5", reference::DefaultConfiguration("1.27"));
  ASSERT_TRUE(c.ok());
  auto a = candidates::ReplayCandidate(*c, *trace);
  ASSERT_TRUE(a.ok()) << a.message();
  auto b = candidates::ReplayCandidate(
      *candidates::MakeCandidate("reference", reference::DefaultConfiguration("1.27")), *trace);
  ASSERT_TRUE(b.ok()) << b.message();
  const diff::DiffResult d = diff::Diff(*a, *b, {});
  ASSERT_FALSE(d.divergences.empty());
  ExplainRequest r{kWeights, "", "reference", "w5.jsonl", "ref.jsonl"};
  r.baseline = "weight:NodeAffinity=5";
  auto text = ExplainFirstDivergence(r, *a, d.divergences.front());
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_NE(text->find("baseline weight:NodeAffinity=5 (default profile) (w5.jsonl)"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("candidate reference (default profile) (ref.jsonl)"), std::string::npos)
      << *text;
  EXPECT_NE(text->find("NodeAffinity 10/100/500"), std::string::npos) << *text;
  r.baseline = "kube:1.27";
  ASSERT_EQ(::setenv("SCHEDCHECK_KUBE_ADAPTER_DIR", "/nonexistent", 1), 0);
  text = ExplainFirstDivergence(r, *a, d.divergences.front());
  ASSERT_EQ(::unsetenv("SCHEDCHECK_KUBE_ADAPTER_DIR"), 0);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_NE(text->find("baseline kube:1.27 (default profile) (w5.jsonl):\n  per-plugin statuses "
                       "are not available for kube:1.27"),
            std::string::npos)
      << *text;
}

// When neither side is the reference, the explanation ends with the reference's own outcome for
// the first divergent attempt, on the baseline's snapshot, and the side it agrees with. On
// weights.jsonl the reference puts p1 on n2; NodeAffinity weight 5 puts it on n1.
TEST(DiffCommandTest, ReferenceCheckSaysWhichSideTheReferenceAgreesWith) {
  auto trace = trace::LoadTrace(kWeights);
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto replay = [&](const std::string& spec) {
    auto c = candidates::MakeCandidate(spec, reference::DefaultConfiguration("1.27"));
    EXPECT_TRUE(c.ok()) << c.message();
    auto log = candidates::ReplayCandidate(*c, *trace);
    EXPECT_TRUE(log.ok()) << log.message();
    return *log;
  };
  // Both are variants, neither is the reference; TaintToleration=3 is its default weight.
  const std::vector<trace::Record> a = replay("weight:NodeAffinity=5");
  const std::vector<trace::Record> b = replay("weight:TaintToleration=3");
  const diff::DiffResult d = diff::Diff(a, b, {});
  ASSERT_FALSE(d.divergences.empty());
  ASSERT_EQ(d.divergences.front().pod, "default/p1");
  ExplainRequest r{kWeights, "", "weight:TaintToleration=3", "w5.jsonl", "t3.jsonl"};
  r.baseline = "weight:NodeAffinity=5";
  auto text = ExplainFirstDivergence(r, a, d.divergences.front(), &b);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_NE(text->find("the cluster at t=1 as the baseline saw it before attempt 1"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("reference check: the reference (default profile) places pod default/p1 "
                       "on n2 (ties {n2}): agrees with the candidate\n"),
            std::string::npos)
      << *text;

  // The baseline's configuration, which the reference loads: NodeAffinity weight 5 as a file.
  const std::string config = Tmp("na5.config.yaml");
  Write(config, R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: NodeAffinity
        weight: 5
)");
  r.baseline = "weight:TaintToleration=3";
  r.baseline_config = config;
  text = ExplainFirstDivergence(r, a, d.divergences.front(), &b);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_NE(
      text->find("reference check: the reference with the baseline's configuration " + config +
                 " places pod default/p1 on n1 (ties {n1}): agrees with the "
                 "baseline\n"),
      std::string::npos)
      << *text;

  // An out-of-process baseline whose configuration names a plugin the reference does not have.
  const std::string foreign = Tmp("foreign.config.yaml");
  Write(foreign, R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: VendorTopology
)");
  r.baseline = "kube:1.27";
  r.baseline_config = foreign;
  ASSERT_EQ(::setenv("SCHEDCHECK_KUBE_ADAPTER_DIR", "/nonexistent", 1), 0);
  text = ExplainFirstDivergence(r, a, d.divergences.front(), &b);
  ASSERT_EQ(::unsetenv("SCHEDCHECK_KUBE_ADAPTER_DIR"), 0);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_NE(text->find("reference check: the reference cannot load the baseline's configuration " +
                       foreign + ", so which side it agrees with is not known: "),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("VendorTopology"), std::string::npos) << *text;

  // A side that is the reference itself: no check.
  r.baseline = "weight:NodeAffinity=5";
  r.baseline_config = "";
  r.candidate = "reference";
  text = ExplainFirstDivergence(r, a, d.divergences.front(), &b);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_EQ(text->find("reference check"), std::string::npos) << *text;
}

// `report` writes the check into the page; without --baseline the texts say "reference" as before.
TEST(DiffCommandTest, ReportShowsTheReferenceCheck) {
  auto trace = trace::LoadTrace(kWeights);
  ASSERT_TRUE(trace.ok()) << trace.message();
  for (const auto& [spec, file] : {std::pair{"weight:NodeAffinity=5", "rc-a.jsonl"},
                                   std::pair{"weight:TaintToleration=3", "rc-b.jsonl"}}) {
    auto c = candidates::MakeCandidate(spec, reference::DefaultConfiguration("1.27"));
    ASSERT_TRUE(c.ok());
    auto log = candidates::ReplayCandidate(*c, *trace);
    ASSERT_TRUE(log.ok()) << log.message();
    std::string text;
    for (const auto& rec : *log) text += replay::DecisionJsonLine(rec) + "\n";
    Write(Tmp(file), text);
  }
  ReportCommandOptions ro{
      .reference = Tmp("rc-a.jsonl"), .candidate_log = Tmp("rc-b.jsonl"), .output = Tmp("rc.html")};
  ro.trace = kWeights;
  ro.candidate = "weight:TaintToleration=3";
  ro.baseline = "weight:NodeAffinity=5";
  std::ostringstream out, err;
  ASSERT_EQ(RunReportCommand(ro, out, err), 0) << err.str();
  const std::string html = Read(Tmp("rc.html"));
  EXPECT_NE(html.find("agrees with the candidate"), std::string::npos);
  EXPECT_NE(html.find("as the baseline saw it"), std::string::npos);
  ro.baseline = "";
  ro.candidate = "weight:NodeAffinity=5";  // B's build, explained beside the reference's side
  ASSERT_EQ(RunReportCommand(ro, out, err), 0) << err.str();
  const std::string plain = Read(Tmp("rc.html"));
  EXPECT_NE(plain.find("as the reference saw it"), std::string::npos);
  EXPECT_EQ(plain.find("reference check"), std::string::npos);
}

// A candidate that only moves a placement (p1 to a feasible node outside the reference's ties)
// fails by default; --allow-soft accepts it; the old --soft-fails is noted and ignored.
TEST(DiffCommandTest, MovedPlacementFailsUnlessSoftIsAllowed) {
  const std::string a = Tmp("soft-a.jsonl"), b = Tmp("soft-b.jsonl");
  Write(
      a,
      R"({"t":1,"type":"attempt","pod":"default/p1","attempt":1,"result":"Scheduled","node":"n2","ties":["n2"]})"
      "\n"
      R"({"t":1,"type":"bind","pod":"default/p1","node":"n2"})"
      "\n");
  Write(
      b,
      R"({"t":1,"type":"attempt","pod":"default/p1","attempt":1,"result":"Scheduled","node":"n1","ties":["n1"]})"
      "\n"
      R"({"t":1,"type":"bind","pod":"default/p1","node":"n1"})"
      "\n");
  std::string out, err;
  DiffCommandOptions o = Opts(a, b);
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("placement [soft]"), std::string::npos) << out;
  EXPECT_NE(out.find("DIVERGENT"), std::string::npos) << out;
  o.allow_soft = true;
  EXPECT_EQ(RunDiff(o, &out, &err), 0) << out << err;
  EXPECT_NE(out.find("EQUIVALENT (soft divergences only, allowed by --allow-soft)"),
            std::string::npos)
      << out;
  o.allow_soft = false;
  o.soft_fails = true;
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(err.find("--soft-fails is ignored"), std::string::npos) << err;
  o.allow_soft = true;
  EXPECT_EQ(RunDiff(o, &out, &err), 2) << out << err;
}

TEST(DiffCommandTest, OutOfProcessCandidateIsNotExplainedPerPlugin) {
  auto trace = trace::LoadTrace(kWeights);
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto base = reference::DefaultConfiguration("1.27");
  for (const auto& [spec, file] :
       {std::pair{"reference", "a.jsonl"}, std::pair{"weight:NodeAffinity=5", "b.jsonl"}}) {
    auto c = candidates::MakeCandidate(spec, base);
    ASSERT_TRUE(c.ok());
    auto log = candidates::ReplayCandidate(*c, *trace);
    ASSERT_TRUE(log.ok()) << log.message();
    std::string text;
    for (const auto& r : *log) text += replay::DecisionJsonLine(r) + "\n";
    Write(Tmp(file), text);
  }
  // B stands for the decisions of the kube:1.27 adapter; the adapter need not be built for this.
  ASSERT_EQ(::setenv("SCHEDCHECK_KUBE_ADAPTER_DIR", "/nonexistent", 1), 0);
  std::string out, err;
  DiffCommandOptions o = Opts(Tmp("a.jsonl"), Tmp("b.jsonl"));
  o.cluster_trace = kWeights;
  o.candidate = "kube:1.27";
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("pod default/p1 at t=1 (attempt 1): placement [soft]"), std::string::npos)
      << out;
  EXPECT_NE(out.find("NodeAffinity 10/100/200"), std::string::npos) << out;  // the reference's side
  EXPECT_NE(out.find("candidate kube:1.27 (" + Tmp("b.jsonl") +
                     "):\n  per-plugin statuses are not available for "
                     "kube:1.27"),
            std::string::npos)
      << out;
  o.candidate = "kube:0.1";
  EXPECT_EQ(RunDiff(o, &out, &err), 2);
  EXPECT_NE(err.find("unknown kube-scheduler version \"0.1\""), std::string::npos) << err;
  ASSERT_EQ(::unsetenv("SCHEDCHECK_KUBE_ADAPTER_DIR"), 0);
}

// The explanation evaluates the cluster with the replays' --feature-gates: q asks 9 cpu at pod
// level (1 in its container) of n1's 8, so it fits only with PodLevelResources off. A gate that
// the trace's level does not take is bad input.
TEST(DiffCommandTest, ExplanationFollowsTheFeatureGates) {
  const std::string trace = Tmp("gates-trace.jsonl");
  Write(
      trace,
      R"({"header":{"formatVersion":1,"producer":"diff_command_test","compat":"1.37"}})"
      "\n"
      R"({"api":{"type":"ADDED","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"8","memory":"8Gi","pods":"10"}}}}})"
      "\n"
      R"({"timeNs":"1000000000","api":{"type":"ADDED","pod":{"metadata":{"name":"q","namespace":"default"},"spec":{"resources":{"requests":{"cpu":"9"}},"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}})"
      "\n");
  const std::string a = Tmp("gates-a.jsonl"), b = Tmp("gates-b.jsonl");
  Write(
      a,
      R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Scheduled","node":"n1","ties":["n1"]})"
      "\n"
      R"({"t":1,"type":"bind","pod":"default/q","node":"n1"})"
      "\n");
  Write(
      b,
      R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"x"})"
      "\n");
  std::string out, err;
  DiffCommandOptions o = Opts(a, b);
  o.cluster_trace = trace;
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("outcome: unschedulable by [NodeResourcesFit]"), std::string::npos) << out;
  // JSON Lines logs do not state their level: the trace's is used, and the user is told.
  EXPECT_NE(err.find("schedcheck diff: note: neither log states the level it was replayed at "
                     "(JSON Lines logs have no header); explanations run at the cluster trace's"),
            std::string::npos)
      << err;
  o.feature_gates = {{"PodLevelResources", false},
                     {"InPlacePodLevelResourcesVerticalScaling", false},
                     {"PodLevelResourcesFixDefaulting", false},
                     {"PodLevelResourcesFixKubeletQOSClass", false}};
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("outcome: bound to n1"), std::string::npos) << out;
  o.feature_gates = {{"PodLevelResources", false}};  // its dependants left on: upstream refuses
  EXPECT_EQ(RunDiff(o, &out, &err), 2) << out << err;
  EXPECT_NE(err.find("--feature-gates: feature gates PodLevelResources=false"), std::string::npos)
      << err;
}

// Explanations run at the level the logs were replayed at (their headers), not the cluster
// trace's (an import without --compat says 1.27); --compat overrides it with a warning.
TEST(DiffCommandTest, ExplanationsRunAtTheLogsLevel) {
  const std::string trace = Tmp("level-trace.jsonl");
  Write(
      trace,
      R"({"header":{"formatVersion":1,"producer":"diff_command_test","compat":"1.27"}})"
      "\n"
      R"({"api":{"type":"ADDED","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"8","memory":"8Gi","pods":"10"}}}}})"
      "\n"
      R"({"timeNs":"1000000000","api":{"type":"ADDED","pod":{"metadata":{"name":"q","namespace":"default"},"spec":{"resources":{"requests":{"cpu":"9"}},"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}})"
      "\n");
  auto write_log = [](const std::string& path, const std::vector<std::string>& lines) {
    replay::DecisionLog log;
    for (const std::string& line : lines) {
      auto r = replay::ParseDecisionJsonLine(line, path);
      ASSERT_TRUE(r.ok()) << r.message();
      log.Add(*r);
    }
    trace::Header header;
    header.set_producer("schedcheck replay");
    header.set_compat("1.37");
    ASSERT_TRUE(log.WriteTrace(path, header).ok());
  };
  const std::string a = Tmp("level-a.decisions"), b = Tmp("level-b.decisions");
  write_log(
      a,
      {R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Scheduled","node":"n1","ties":["n1"]})",
       R"({"t":1,"type":"bind","pod":"default/q","node":"n1"})"});
  write_log(
      b,
      {R"({"t":1,"type":"attempt","pod":"default/q","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"],"message":"x"})"});
  std::string out, err;
  DiffCommandOptions o = Opts(a, b);
  o.cluster_trace = trace;
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  // At 1.37 the pod-level request (cpu 9) counts; at 1.27 only the container's (cpu 1).
  EXPECT_NE(out.find("outcome: unschedulable by [NodeResourcesFit]"), std::string::npos) << out;
  EXPECT_EQ(err.find("warning"), std::string::npos) << err;
  EXPECT_EQ(err.find("note"), std::string::npos) << err;  // the logs state their level
  o.compat = "1.27";
  EXPECT_EQ(RunDiff(o, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("outcome: bound to n1"), std::string::npos) << out;
  EXPECT_NE(err.find("schedcheck diff: warning: --compat 1.27 differs from the logs' level 1.37; "
                     "explanations run at 1.27"),
            std::string::npos)
      << err;
  o.compat = "1.30";
  EXPECT_EQ(RunDiff(o, &out, &err), 2) << out << err;
  EXPECT_NE(err.find("--compat 1.30 is not implemented"), std::string::npos) << err;
}

TEST(GateCommandTest, FailingChildExitsTwoAndReportsTheTrace) {
  std::ostringstream out, err;
  GateCommandOptions o;
  o.candidate = "exec:exit 3";
  o.corpus = "harness/gate/testdata/corpus";
  o.junit = Tmp("child.xml");
  o.markdown = Tmp("child.md");
  EXPECT_EQ(RunGateCommand(o, out, err), 2) << out.str() << err.str();
  // The child may exit before or after the harness has written Hello: either way the request and
  // the exit status are named.
  EXPECT_NE(out.str().find("ERROR taint.jsonl: candidate exec:exit 3: scheduler command `exit 3`: "
                           "request 1 (Hello): "),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("the child exited with status 3"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0 of 2 traces passed"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("could not complete 2 of 2 trace(s)"), std::string::npos) << err.str();
  EXPECT_NE(Read(Tmp("child.xml")).find("failures=\"2\""), std::string::npos);
  EXPECT_NE(Read(Tmp("child.md")).find("| weights.jsonl | **FAIL** |"), std::string::npos)
      << Read(Tmp("child.md"));
  o.scheduler_timeout_seconds = 0;
  EXPECT_EQ(RunGateCommand(o, out, err), 2);
  EXPECT_NE(err.str().find("--scheduler-timeout"), std::string::npos) << err.str();
}

// Build against build: the JUnit suite and the Markdown title name both builds and
// configurations; a build that is not deterministic makes the gate exit 3.
TEST(GateCommandTest, BaselineReportsAndNondeterminism) {
  std::ostringstream out, err;
  GateCommandOptions o;
  o.candidate = "forget-events:TaintToleration";
  o.baseline = "forget-events:TaintToleration";
  o.corpus = "harness/gate/testdata/corpus";
  o.junit = Tmp("b.xml");
  o.markdown = Tmp("b.md");
  EXPECT_EQ(RunGateCommand(o, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find("2 of 2 traces passed (candidate forget-events:TaintToleration, "
                           "baseline forget-events:TaintToleration)"),
            std::string::npos)
      << out.str();
  const std::string both =
      "candidate forget-events:TaintToleration (the traces' configurations) vs baseline "
      "forget-events:TaintToleration (the traces' configurations)";
  EXPECT_NE(Read(Tmp("b.xml")).find("<testsuite name=\"schedcheck gate: " + both + "\""),
            std::string::npos)
      << Read(Tmp("b.xml"));
  EXPECT_NE(Read(Tmp("b.md")).find("# schedcheck gate: " + both + " on "), std::string::npos)
      << Read(Tmp("b.md"));

  // A child that serves the default profile from its 1st, 3rd, ... process, NodeAffinity weight 5
  // from the others: weights.jsonl diverges on the 2nd and agrees on the 3rd.
  const std::string weight5 = Tmp("weight5.yaml");
  std::ofstream(weight5) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                            "kind: KubeSchedulerConfiguration\nprofiles:\n"
                            "- schedulerName: default-scheduler\n  plugins:\n    score:\n"
                            "      enabled:\n      - name: NodeAffinity\n        weight: 5\n";
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const std::string serve =
      std::string(srcdir == nullptr ? "." : srcdir) + "/schedcheck/harness/cli/schedcheck serve";
  const std::string script = Tmp("flip.sh");
  std::ofstream(script) << "n=$(cat " << Tmp("flip.count") << " 2>/dev/null || echo 0)\n"
                        << "echo $((n + 1)) > " << Tmp("flip.count") << "\n"
                        << "if [ $((n % 2)) -eq 0 ]; then exec " << serve << "; fi\n"
                        << "exec " << serve << " --config " << weight5 << "\n";
  o.baseline = "reference";
  o.candidate = "exec:sh " + script;
  out.str("");
  EXPECT_EQ(RunGateCommand(o, out, err), 3) << out.str() << err.str();
  EXPECT_NE(out.str().find("NONDETERMINISTIC weights.jsonl: build exec:sh " + script +
                           " is not deterministic on trace weights.jsonl: first difference at "
                           "record "),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("PASS taint.jsonl"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("were not replayed deterministically"), std::string::npos) << err.str();
  EXPECT_NE(Read(Tmp("b.xml")).find("is not deterministic on trace weights.jsonl"),
            std::string::npos)
      << Read(Tmp("b.xml"));
}

TEST(GateCommandTest, ExitCodesAndReports) {
  std::ostringstream out, err;
  GateCommandOptions o;
  o.candidate = "forget-events:TaintToleration";
  o.corpus = "harness/gate/testdata/corpus";
  o.junit = Tmp("g.xml");
  o.markdown = Tmp("g.md");
  EXPECT_EQ(RunGateCommand(o, out, err), 1) << out.str() << err.str();
  EXPECT_NE(out.str().find("1 of 2 traces passed"), std::string::npos) << out.str();
  EXPECT_NE(
      Read(Tmp("g.xml")).find("<failure message=\"pod default/p at t=10: queue-path [requeue]"),
      std::string::npos);
  EXPECT_NE(Read(Tmp("g.md")).find("| taint.jsonl | **FAIL** | 0 | 1 | 0 |"), std::string::npos)
      << Read(Tmp("g.md"));
  o.candidate = "reference";
  EXPECT_EQ(RunGateCommand(o, out, err), 0) << out.str();
  o.candidate = "weight:NodeAffinity=x";
  EXPECT_EQ(RunGateCommand(o, out, err), 2);
  EXPECT_NE(err.str().find("weight \"x\""), std::string::npos) << err.str();
}

}  // namespace
}  // namespace schedcheck::cli
