// --limit on the commands that read decision logs, manifests and case files
// (harness/fuzz/README.md): report, minimize, check and explain. For each, input just beyond a
// limit is an exit-2 error naming the file, the position, the field, the limit and the option,
// nothing is written, and the same input passes with the limit raised. YAML nested too deep, or
// whose aliases expand too far, is refused the same way and accepted with yaml-depth /
// yaml-alias-nodes raised.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/cli/check_command.h"
#include "harness/cli/explain_command.h"
#include "harness/cli/import_command.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/minimize_command.h"
#include "harness/cli/replay_command.h"
#include "harness/cli/report_command.h"
#include "traces/input_limits.h"
#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::FileExists;
using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

// "(raise it with --limit NAME=N)": the end of every limit error.
std::string Raise(const std::string& name) { return "(raise it with --limit " + name + "=N)"; }

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "want: " << (part) << "\n" << (text)

// report reads decision logs as diff does (LimitOptionTest.DiffNamesLineAndLimit).
TEST(LimitReadersTest, ReportNamesLineFieldAndLimitAndWritesNothing) {
  const std::string log = TempPath("report-decisions.jsonl");
  std::string text;
  for (const char* pod : {"default/a", "default/b", "default/c"}) {
    text += std::string(R"({"t":1,"type":"attempt","pod":")") + pod +
            R"(","attempt":1,"result":"Unschedulable","message":"m"})" + "\n";
  }
  WriteFileBytes(log, text);
  ReportCommandOptions o{.reference = log, .candidate_log = log, .output = TempPath("r.html")};
  o.limits = {"records=2"};
  std::ostringstream out, err;
  EXPECT_EQ(RunReportCommand(o, out, err), 2) << out.str();
  EXPECT_CONTAINS(err.str(), "schedcheck report: " + log +
                                 ":3: more than 2 records, the limit records=2 " +
                                 Raise("records"));
  EXPECT_FALSE(FileExists(o.output));
  o.limits = {"records=3", "string-bytes=8"};
  err.str("");
  EXPECT_EQ(RunReportCommand(o, out, err), 2);
  EXPECT_CONTAINS(err.str(), log +
                                 ":1: field attempt.pod: 9 bytes, more than the limit "
                                 "string-bytes=8 " +
                                 Raise("string-bytes"));
  EXPECT_FALSE(FileExists(o.output));
  o.limits = {"records=3", "string-bytes=9"};
  EXPECT_EQ(RunReportCommand(o, out, err), 0) << err.str();
  EXPECT_TRUE(FileExists(o.output));
  o.limits = {"bogus=1"};
  err.str("");
  EXPECT_EQ(RunReportCommand(o, out, err), 2);
  EXPECT_CONTAINS(err.str(), "--limit bogus=1: expected NAME=VALUE");
}

// A pod as `kubectl get -o json` writes it: `labels` labels "k0", "k1", ... ("k0" padded to `key`
// bytes), every value `value` long.
std::string PodJson(const std::string& name, int labels, size_t key = 2, size_t value = 1) {
  std::string out = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                    R"(","namespace":"default","labels":{)";
  for (int i = 0; i < labels; ++i) {
    std::string k = "k" + std::to_string(i);
    if (i == 0) k.resize(std::max(key, k.size()), 'x');
    out += (i > 0 ? "," : "") + ("\"" + k + "\":\"" + std::string(value, 'v') + "\"");
  }
  return out + R"(}},"spec":{"containers":[{"name":"c","image":"i"}]}})";
}

struct Case {
  std::string name;
  std::string tight, raised;      // --limit that the input exceeds, and one that accepts it
  std::vector<std::string> pods;  // the last one exceeds `tight` (or is one too many)
  std::string want;               // the error after the position and the field path's start
};

// One input per limit, beyond it by one. `want` starts at the field's path below the object
// ("metadata...").
std::vector<Case> Cases() {
  return {
      {"records",
       "records=2",
       "records=3",
       {PodJson("a", 1), PodJson("b", 1), PodJson("c", 1)},
       "more than 2 records, the limit records=2 " + Raise("records")},
      {"string",
       "string-bytes=149",
       "string-bytes=150",
       {PodJson("a", 1), PodJson("b", 1, 2, 150)},
       "metadata.labels[\"k0\"]: 150 bytes, more than the limit string-bytes=149 " +
           Raise("string-bytes")},
      {"key",
       "key-bytes=49",
       "key-bytes=50",
       {PodJson("a", 1), PodJson("b", 2, 50)},
       "metadata.labels key: 50 bytes, more than the limit key-bytes=49 " + Raise("key-bytes")},
      // More than the 5 labels of an imported trace's header, which minimize reads first.
      {"entries",
       "map-entries=9",
       "map-entries=10",
       {PodJson("a", 9), PodJson("b", 10)},
       "metadata.labels: 10 entries, more than the limit map-entries=9 " + Raise("map-entries")},
  };
}

// minimize reads its trace under the limits (and its configurations and a child's decisions).
TEST(LimitReadersTest, MinimizeNamesByteFieldAndLimitAndWritesNothing) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    std::string watch;
    for (const std::string& pod : c.pods) watch += R"({"type":"ADDED","object":)" + pod + "}\n";
    const std::string input = TempPath("min-" + c.name + ".json");
    WriteFileBytes(input, watch);
    ImportCommandOptions io{.format = "watch",
                            .inputs = {input},
                            .output = TempPath("min-" + c.name + ".trace"),
                            .quiet = true};
    io.limits = {c.raised};
    std::ostringstream iout, ierr;
    ASSERT_EQ(RunImport(io, iout, ierr), 0) << ierr.str();

    MinimizeCommandOptions o{.trace = io.output,
                             .candidate = "reference",
                             .output = TempPath("min-" + c.name + ".min.trace")};
    o.limits = {c.tight};
    std::ostringstream out, err;
    EXPECT_EQ(RunMinimizeCommand(o, out, err), 2) << out.str();
    EXPECT_CONTAINS(err.str(), "schedcheck minimize: " + io.output + ": byte ");
    // A trace's records hold the object under api.pod.
    EXPECT_CONTAINS(err.str(), c.name == "records" ? c.want : "field api.pod." + c.want);
    EXPECT_FALSE(FileExists(o.output));
    o.limits = {c.raised};
    std::ostringstream out2, err2;
    // Read in full: the reference against itself shows no divergence (exit 1, nothing written).
    EXPECT_EQ(RunMinimizeCommand(o, out2, err2), 1) << err2.str();
    EXPECT_CONTAINS(out2.str(), "no divergence");
  }
}

// A conformance case (kind filter, NodeName on one node: passes) whose pod is `pod`.
std::string CaseJson(const std::string& id, const std::string& pod) {
  return R"({"id":")" + id +
         R"(","source":"limits","kind":"filter","plugins":["NodeName"],)"
         R"("nodes":[{"metadata":{"name":"n1"}}],"pod":)" +
         pod + R"(,"expect":{"n1":{"code":"Success"}}})";
}

int RunCheckWith(const std::string& path, const std::vector<std::string>& limits, std::string* out,
                 std::string* err) {
  std::ostringstream o, e;
  const int code = RunCheck({path}, false, reference::Engine::kPlain, limits, o, e);
  *out = o.str();
  *err = e.str();
  return code;
}

// check reads JSON Lines and YAML case files: the records limit bounds the cases, the byte and
// entry limits each case's objects, named by their field in the case.
TEST(LimitReadersTest, CheckNamesLineFieldAndLimitAndRunsNothing) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    std::string jsonl, yaml;
    for (size_t i = 0; i < c.pods.size(); ++i) {
      const std::string one = CaseJson(c.name + std::to_string(i), c.pods[i]);
      jsonl += one + "\n";
      yaml += "---\n" + one + "\n";  // JSON is YAML: each case its own document
    }
    const int last = static_cast<int>(c.pods.size());
    for (const auto& [path, text, line] :
         {std::tuple{TempPath("cases-" + c.name + ".jsonl"), jsonl, last},
          std::tuple{TempPath("cases-" + c.name + ".yaml"), yaml, 2 * last}}) {
      SCOPED_TRACE(path);
      WriteFileBytes(path, text);
      std::string out, err;
      EXPECT_EQ(RunCheckWith(path, {c.tight}, &out, &err), 2);
      EXPECT_CONTAINS(err, "schedcheck check: " + path + ": line " + std::to_string(line) + ": ");
      EXPECT_CONTAINS(err, c.name == "records" ? c.want : "field pod." + c.want);
      EXPECT_EQ(out, "");  // no case ran
      EXPECT_EQ(RunCheckWith(path, {c.raised}, &out, &err), 0) << err;
      EXPECT_CONTAINS(out, std::to_string(c.pods.size()) + " passed, 0 failed");
    }
  }
}

// `levels` nested flow sequences ([[[...]]]), each one YAML level.
std::string Nested(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

// A YAML case file 101 levels deep (the case's mapping, then 100 sequences under `notes`) is
// refused by default and accepted with yaml-depth raised; aliases are bounded by yaml-alias-nodes.
TEST(LimitReadersTest, CheckYamlDepthAndAliasNodesAreRaisable) {
  const std::string head =
      "id: limits\nsource: limits\nkind: filter\nplugins: [NodeName]\n"
      "nodes: [&n {metadata: {name: n1}}]\npod: {metadata: {name: p}}\n"
      "expect: {n1: {code: Success}}\n";
  const std::string deep = TempPath("deep-case.yaml");
  WriteFileBytes(deep, head + "notes: " + Nested(100) + "\n");
  std::string out, err;
  EXPECT_EQ(RunCheckWith(deep, {}, &out, &err), 2);
  EXPECT_CONTAINS(err, "schedcheck check: " + deep + ": line 8, column ");
  EXPECT_CONTAINS(
      err, "YAML nesting deeper than 100 levels, the limit yaml-depth=100 " + Raise("yaml-depth"));
  EXPECT_EQ(out, "");
  EXPECT_EQ(RunCheckWith(deep, {"yaml-depth=200"}, &out, &err), 0) << err;
  EXPECT_CONTAINS(out, "1 passed, 0 failed");

  // &n stands for 5 nodes (two mappings, "metadata", "name", "n1"): three aliases expand to 15.
  const std::string alias = TempPath("alias-case.yaml");
  WriteFileBytes(alias, head + "notes: [*n, *n, *n]\n");
  EXPECT_EQ(RunCheckWith(alias, {"yaml-alias-nodes=14"}, &out, &err), 2);
  EXPECT_CONTAINS(err, "schedcheck check: " + alias + ": line 8, column ");
  EXPECT_CONTAINS(err,
                  "aliases expand to more than 14 YAML nodes, the limit "
                  "yaml-alias-nodes=14 " +
                      Raise("yaml-alias-nodes"));
  EXPECT_EQ(out, "");
  EXPECT_EQ(RunCheckWith(alias, {"yaml-alias-nodes=15"}, &out, &err), 0) << err;
  EXPECT_EQ(RunCheckWith(alias, {}, &out, &err), 0) << err;
}

// explain reads manifests: the records limit bounds the objects of --cluster (and of --pod), the
// byte and entry limits each object; the YAML limits every YAML file.
TEST(LimitReadersTest, ExplainNamesLineFieldAndLimit) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    const std::string cluster = TempPath("explain-" + c.name + ".yaml");
    std::string text =
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n";
    for (const std::string& pod : c.pods) text += "---\n" + pod + "\n";
    WriteFileBytes(cluster, text);
    const std::string pod = TempPath("explain-pod.yaml");
    WriteFileBytes(pod, PodJson("p", 1) + "\n");
    ExplainOptions o{.cluster = {cluster}, .pod = pod};
    // The node counts as a record: the records case sets the limit one below the objects.
    o.limits = {c.name == "records" ? "records=3" : c.tight};
    auto e = Explain(o);
    ASSERT_FALSE(e.ok());
    EXPECT_CONTAINS(e.message(),
                    cluster + ": line " + std::to_string(4 + 2 * c.pods.size()) + ": ");
    EXPECT_CONTAINS(e.message(), c.name == "records" ? "more than 3 records, the limit records=3 " +
                                                           Raise("records")
                                                     : "field " + c.want);
    o.limits = {c.name == "records" ? "records=4" : c.raised};
    auto ok = Explain(o);
    EXPECT_TRUE(ok.ok()) << ok.message();
  }
}

TEST(LimitReadersTest, ExplainYamlDepthIsRaisable) {
  const std::string cluster = TempPath("explain-deep.yaml");
  // Unknown fields are dropped by the decoder, but the YAML reader sees them first.
  WriteFileBytes(cluster,
                 "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
                 "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\nextra: " +
                     Nested(100) + "\n");
  const std::string pod = TempPath("explain-deep-pod.yaml");
  WriteFileBytes(pod, PodJson("p", 1) + "\n");
  ExplainOptions o{.cluster = {cluster}, .pod = pod};
  auto refused = Explain(o);
  ASSERT_FALSE(refused.ok());
  EXPECT_CONTAINS(refused.message(), cluster + ": line 5, column ");
  EXPECT_CONTAINS(
      refused.message(),
      "YAML nesting deeper than 100 levels, the limit yaml-depth=100 " + Raise("yaml-depth"));
  o.limits = {"yaml-depth=200"};
  auto accepted = Explain(o);
  EXPECT_TRUE(accepted.ok()) << accepted.message();
}

// Scheduler configurations go through the same YAML reader: replay --config and a candidate's
// config:FILE get the command's YAML limits.
TEST(LimitReadersTest, ReplayConfigAndCandidateConfigTakeTheYamlLimits) {
  const std::string watch = TempPath("config-pods.json");
  WriteFileBytes(watch, R"({"type":"ADDED","object":)" + PodJson("a", 1) + "}\n");
  ImportCommandOptions io{
      .format = "watch", .inputs = {watch}, .output = TempPath("config.trace"), .quiet = true};
  std::ostringstream iout, ierr;
  ASSERT_EQ(RunImport(io, iout, ierr), 0) << ierr.str();
  // Two aliases of a one-node scalar: 2 alias nodes.
  const std::string config = TempPath("aliased.config.yaml");
  WriteFileBytes(config,
                 "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                 "percentageOfNodesToScore: &n 50\npodInitialBackoffSeconds: *n\n"
                 "podMaxBackoffSeconds: *n\n");
  for (const bool as_candidate : {false, true}) {
    SCOPED_TRACE(as_candidate ? "--candidate config:FILE" : "--config FILE");
    ReplayCommandOptions o{.trace = io.output, .jsonl = TempPath("config-d.jsonl"), .quiet = true};
    if (as_candidate) {
      o.candidate = "config:" + config;
    } else {
      o.config = config;
    }
    o.limits = {"yaml-alias-nodes=1"};
    std::ostringstream out, err;
    EXPECT_EQ(RunReplay(o, out, err), 2);
    EXPECT_CONTAINS(err.str(), config + ": line 5, column ");
    EXPECT_CONTAINS(err.str(),
                    "aliases expand to more than 1 YAML nodes, the limit yaml-alias-nodes=1 " +
                        Raise("yaml-alias-nodes"));
    EXPECT_FALSE(FileExists(o.jsonl));
    o.limits = {"yaml-alias-nodes=2"};
    std::ostringstream out2, err2;
    EXPECT_EQ(RunReplay(o, out2, err2), 0) << err2.str();
    EXPECT_TRUE(FileExists(o.jsonl));
    std::remove(o.jsonl.c_str());
  }
}

// `--help` of every command with --limit names each limit and its default.
TEST(LimitReadersTest, HelpNamesEveryLimitAndItsDefault) {
  CLI::App app;
  std::vector<std::string> specs;
  AddLimitOption(&app, &specs);
  const std::string help = app.help();
  for (const std::string& name : trace::InputLimitNames()) EXPECT_CONTAINS(help, name + " (");
  EXPECT_CONTAINS(help, "yaml-depth (YAML nesting, 100)");
  EXPECT_CONTAINS(help, "expand to, 1000000)");
}

}  // namespace
}  // namespace schedcheck::cli
