#include "harness/cli/trace_commands.h"

#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::FileExists;
using trace::testing::ReadFileBytes;
using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string Sample(const std::string& name) {
  const std::string path = TempPath(name);
  std::ostringstream err;
  EXPECT_EQ(TraceSample(path, err), 0) << err.str();
  return path;
}

TEST(TraceCommandsTest, Version) {
  EXPECT_EQ(VersionString(),
            "schedcheck " + std::string(kSchedcheckVersion) + " (trace format 1, compat 1.27)");
}

TEST(TraceCommandsTest, InfoCountsSample) {
  const std::string path = Sample("info.trace");
  std::ostringstream out, err;
  ASSERT_EQ(TraceInfo(path, out, err), 0) << err.str();
  const std::string text = out.str();
  for (const char* want :
       {"producer: schedcheck trace sample\n", "compat: 1.27\n", "seed: 1\n",
        "label: source=sample\n", "frames: 1\n", "records: 18\n", "records.api: 8\n",
        "records.attempt: 2\n", "records.binding: 1\n", "records.queue: 7\n",
        "api: Node ADDED: 3\n", "api: Pod ADDED: 3\n", "api: Pod DELETED: 1\n",
        "api: Pod MODIFIED: 1\n", "time_span_s: 4.000 (first 0.000, last 4.000)\n"}) {
    EXPECT_TRUE(Contains(text, want)) << want << " not in:\n" << text;
  }
  EXPECT_TRUE(err.str().empty());
}

// Workloads, PodGroups and pods naming a group: JSON Lines in, counted by kind in `trace info`,
// printed back by `trace cat` with their Kubernetes names.
TEST(TraceCommandsTest, InfoCountsPodGroupsAndWorkloads) {
  const std::string jsonl = TempPath("gang.jsonl");
  WriteFileBytes(
      jsonl,
      "{\"header\": {\"compat\": \"1.37\"}}\n"
      "{\"timeNs\":\"0\",\"api\":{\"type\":\"ADDED\",\"workload\":{\"metadata\":{\"name\":\"w\","
      "\"namespace\":\"default\"},\"spec\":{\"podGroupTemplates\":[{\"name\":\"t\","
      "\"schedulingPolicy\":{\"gang\":{\"minCount\":2}}}]}}}}\n"
      "{\"timeNs\":\"0\",\"api\":{\"type\":\"ADDED\",\"podGroup\":{\"metadata\":{\"name\":\"g\","
      "\"namespace\":\"default\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":2}}}}}}\n"
      "{\"timeNs\":\"1000000000\",\"api\":{\"type\":\"MODIFIED\",\"podGroup\":{\"metadata\":{"
      "\"name\":\"g\","
      "\"namespace\":\"default\"},\"spec\":{\"schedulingPolicy\":{\"basic\":{}}}}}}\n"
      "{\"timeNs\":\"1000000000\",\"api\":{\"type\":\"ADDED\",\"pod\":{\"metadata\":{\"name\":"
      "\"p\"},"
      "\"spec\":{\"schedulingGroup\":{\"podGroupName\":\"g\"}}}}}\n");
  const std::string binary = TempPath("gang.trace");
  std::ostringstream out, err;
  ASSERT_EQ(TraceConvert(jsonl, binary, err), 0) << err.str();
  ASSERT_EQ(TraceInfo(binary, out, err), 0) << err.str();
  for (const char* want :
       {"records.api: 4\n", "api: Workload ADDED: 1\n", "api: PodGroup ADDED: 1\n",
        "api: PodGroup MODIFIED: 1\n", "api: Pod ADDED: 1\n"}) {
    EXPECT_TRUE(Contains(out.str(), want)) << want << " not in:\n" << out.str();
  }
  std::ostringstream cat;
  ASSERT_EQ(TraceCat(binary, cat, err), 0) << err.str();
  EXPECT_TRUE(Contains(cat.str(), "\"schedulingGroup\":{\"podGroupName\":\"g\"}")) << cat.str();
  EXPECT_TRUE(Contains(cat.str(), "\"schedulingPolicy\":{\"basic\":{}}")) << cat.str();
  // An absurd gang is a limit error naming the line and the field, and writes nothing.
  WriteFileBytes(
      jsonl,
      "{\"header\": {\"compat\": \"1.37\"}}\n"
      "{\"timeNs\":\"0\",\"api\":{\"type\":\"ADDED\",\"podGroup\":{\"metadata\":{\"name\":"
      "\"g\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":999999999}}}}}}\n");
  std::ostringstream bad_err;
  const std::string huge = TempPath("huge-gang.trace");
  EXPECT_EQ(TraceConvert(jsonl, huge, bad_err), 2);
  EXPECT_FALSE(FileExists(huge));
  EXPECT_TRUE(Contains(bad_err.str(), jsonl + ": line 2: field api.podGroup.spec.schedulingPolicy."
                                              "gang.minCount: 999999999 pods, more than the "
                                              "limit group-pods=100000"))
      << bad_err.str();
}

TEST(TraceCommandsTest, CatThenConvertBackIsByteIdentical) {
  const std::string path = Sample("cat.trace");
  std::ostringstream out, err;
  ASSERT_EQ(TraceCat(path, out, err), 0) << err.str();
  const std::string jsonl = out.str();
  EXPECT_EQ(jsonl.rfind("{\"header\":{\"formatVersion\":1,", 0), 0u) << jsonl.substr(0, 80);
  EXPECT_TRUE(Contains(jsonl, "\"nodeName\":\"node-1\"")) << "Kubernetes JSON names";
  EXPECT_EQ(std::count(jsonl.begin(), jsonl.end(), '\n'), 19);

  const std::string jsonl_path = TempPath("cat.jsonl");
  WriteFileBytes(jsonl_path, jsonl);
  const std::string back = TempPath("back.trace");
  ASSERT_EQ(TraceConvert(jsonl_path, back, err), 0) << err.str();
  EXPECT_EQ(ReadFileBytes(back), ReadFileBytes(path));

  // binary -> JSON Lines through convert gives the same text as cat.
  const std::string converted = TempPath("converted.jsonl");
  ASSERT_EQ(TraceConvert(path, converted, err), 0) << err.str();
  EXPECT_EQ(ReadFileBytes(converted), jsonl);
}

TEST(TraceCommandsTest, ConvertWithoutHeaderLineUsesDefaultHeader) {
  const std::string in = TempPath("noheader.jsonl");
  WriteFileBytes(in, "\n{\"timeNs\":\"5\",\"binding\":{\"pod\":\"a/b\",\"node\":\"n\"}}\n");
  std::ostringstream err;
  const std::string out = TempPath("noheader.trace");
  ASSERT_EQ(TraceConvert(in, out, err), 0) << err.str();
  auto t = trace::ReadTrace(out);
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(t->records.size(), 1u);
  EXPECT_EQ(t->records[0].time_ns(), 5);
  EXPECT_EQ(t->header.producer(), "schedcheck trace convert");
}

TEST(TraceCommandsTest, ConvertRejectsTyposWithLineNumber) {
  const std::string in = TempPath("typo.jsonl");
  WriteFileBytes(in,
                 "{\"header\":{\"producer\":\"x\"}}\n"
                 "{\"timeNs\":\"1\",\"binding\":{\"pod\":\"a/b\"}}\n"
                 "{\"timeNs\":\"2\",\"binding\":{\"pod\":\"a/b\",\"nodeNmae\":\"n\"}}\n");
  const std::string out = TempPath("typo.trace");
  std::ostringstream err;
  EXPECT_EQ(TraceConvert(in, out, err), kExitBadInput);
  EXPECT_TRUE(Contains(err.str(), "typo.jsonl: line 3: invalid Record: ")) << err.str();
  EXPECT_TRUE(Contains(err.str(), "nodeNmae")) << err.str();
  EXPECT_FALSE(FileExists(out));

  WriteFileBytes(in, "{\"header\":{\"prodcer\":\"x\"}}\n");
  std::ostringstream err2;
  EXPECT_EQ(TraceConvert(in, out, err2), kExitBadInput);
  EXPECT_TRUE(Contains(err2.str(), "line 1: invalid header")) << err2.str();
  EXPECT_FALSE(FileExists(out));
}

TEST(TraceCommandsTest, DamagedTracePrintsReadablePartThenFails) {
  // Three frames of 6 records; cut inside the last one.
  const std::string full = TempPath("full.trace");
  ASSERT_TRUE(trace::WriteTrace(full, trace::MakeSampleTrace(), {.events_per_frame = 6}).ok());
  const std::string bytes = ReadFileBytes(full);
  const std::string cut = TempPath("damaged.trace");
  WriteFileBytes(cut, bytes.substr(0, bytes.size() - 3));

  std::ostringstream out, err;
  EXPECT_EQ(TraceCat(cut, out, err), kExitBadInput);
  const std::string printed = out.str();
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1 + 12);
  EXPECT_TRUE(Contains(err.str(), "(frame 2, event 12): truncated frame")) << err.str();

  std::ostringstream info_out, info_err;
  EXPECT_EQ(TraceInfo(cut, info_out, info_err), kExitBadInput);
  EXPECT_TRUE(Contains(info_out.str(), "records: 12\n")) << info_out.str();
  EXPECT_TRUE(Contains(info_out.str(), "damage: truncated\n")) << info_out.str();
  EXPECT_TRUE(Contains(info_err.str(), "truncated frame")) << info_err.str();

  const std::string jsonl = TempPath("damaged.jsonl");
  std::ostringstream conv_err;
  EXPECT_EQ(TraceConvert(cut, jsonl, conv_err), kExitBadInput);
  EXPECT_FALSE(FileExists(jsonl));

  std::ostringstream e;
  WriteFileBytes(TempPath("junk"), "not a trace");
  EXPECT_EQ(TraceCat(TempPath("junk"), out, e), kExitBadInput);
  EXPECT_TRUE(Contains(e.str(), "not a schedcheck trace")) << e.str();
}

TEST(TraceCommandsTest, CommandLineWiring) {
  int exit_code = -1;
  CLI::App app("schedcheck");
  AddTraceCommands(app, &exit_code);
  AddVersionCommand(app, &exit_code);
  const std::string path = TempPath("wired.trace");
  app.parse("trace sample " + path, false);
  EXPECT_EQ(exit_code, 0);
  EXPECT_TRUE(FileExists(path));

  CLI::App app2("schedcheck");
  AddTraceCommands(app2, &exit_code);
  app2.parse("trace info " + TempPath("missing.trace"), false);
  EXPECT_EQ(exit_code, kExitBadInput);

  CLI::App app3("schedcheck");
  AddTraceCommands(app3, &exit_code);
  EXPECT_THROW(app3.parse("trace convert --help", false), CLI::CallForHelp);
}

}  // namespace
}  // namespace schedcheck::cli
