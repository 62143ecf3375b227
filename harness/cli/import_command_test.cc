#include "harness/cli/import_command.h"

#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "harness/cli/trace_commands.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::FileExists;
using trace::testing::TempPath;
using trace::testing::WriteFileBytes;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string TestData(const std::string& name) { return "traces/importers/testdata/" + name; }

TEST(ImportCommandTest, WatchCaptureThenTraceInfoSaysWhatWasDropped) {
  ImportCommandOptions o;
  o.format = "watch";
  o.inputs = {TestData("watch/capture.json"), TestData("watch/capture2.json")};
  o.output = TempPath("watch.trace");
  std::ostringstream out, err;
  ASSERT_EQ(RunImport(o, out, err), 0) << err.str();
  EXPECT_TRUE(Contains(out.str(), "observed bindings 1; observed attempts 1")) << out.str();
  EXPECT_TRUE(Contains(err.str(), "warning: ")) << "skipped kinds and unknown nodes are reported";
  EXPECT_TRUE(Contains(err.str(), "node-zz")) << err.str();

  auto t = trace::ReadTrace(o.output);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(t->header.producer(), "schedcheck import --from watch");
  EXPECT_EQ(t->header.compat(), "1.27");
  EXPECT_EQ(t->records.size(), 8u);

  std::ostringstream info, info_err;
  ASSERT_EQ(TraceInfo(o.output, info, info_err), 0) << info_err.str();
  for (const char* want :
       {"label: redacted.annotations=1\n", "label: skipped.kinds=ConfigMap=1\n",
        "label: start_time=2024-03-01T10:00:00Z\n", "label: observed.bindings=1\n"}) {
    EXPECT_TRUE(Contains(info.str(), want)) << want << " not in:\n" << info.str();
  }
  std::ostringstream cat, cat_err;
  ASSERT_EQ(TraceCat(o.output, cat, cat_err), 0) << cat_err.str();
  EXPECT_FALSE(Contains(cat.str(), "hunter2"));
  EXPECT_TRUE(Contains(cat.str(), "\"observed\":true"));
}

TEST(ImportCommandTest, BadInputExitsTwoAndWritesNothing) {
  const std::string bad = TempPath("bad.csv");
  WriteFileBytes(bad, "sn,cpu_milli,memory_mib,gpu,model\nn1,1000,x,0,\n");
  ImportCommandOptions o;
  o.format = "openb";
  o.inputs = {bad};
  o.output = TempPath("never.trace");
  std::ostringstream out, err;
  EXPECT_EQ(RunImport(o, out, err), 2);
  EXPECT_TRUE(Contains(err.str(), "bad.csv: line 2: field memory_mib")) << err.str();
  EXPECT_FALSE(FileExists(o.output));
}

TEST(ImportCommandTest, OptionErrorsExitTwo) {
  std::ostringstream out, err;
  ImportCommandOptions o;
  o.format = "watch";
  o.inputs = {TestData("watch/capture.json")};
  o.output = TempPath("x.trace");
  o.shuffle_seed = 3;
  EXPECT_EQ(RunImport(o, out, err), 2);
  EXPECT_TRUE(Contains(err.str(), "apply to --from openb only")) << err.str();
  o.shuffle_seed.reset();
  o.start_time = "2030-01-01T00:00:00Z";  // after the capture's first event
  EXPECT_EQ(RunImport(o, out, err), 2);
  EXPECT_TRUE(Contains(err.str(), "is after the earliest event")) << err.str();
  o.start_time = "tomorrow";
  EXPECT_EQ(RunImport(o, out, err), 2);
  EXPECT_FALSE(FileExists(o.output));
}

TEST(ImportCommandTest, OpenbAndManifestsAndKss) {
  for (const auto& [format, input] : std::vector<std::pair<std::string, std::string>>{
           {"openb", "openb"}, {"manifests", "manifests"}, {"kss", "kss/record.jsonl"}}) {
    ImportCommandOptions o;
    o.format = format;
    o.inputs = {TestData(input)};
    o.output = TempPath(format + ".trace");
    std::ostringstream out, err;
    ASSERT_EQ(RunImport(o, out, err), 0) << format << ": " << err.str();
    auto t = trace::ReadTrace(o.output);
    ASSERT_TRUE(t.ok()) << t.message();
    EXPECT_EQ(t->header.producer(), "schedcheck import --from " + format);
    EXPECT_EQ(t->header.labels().count("start_time"), 1u);
  }
}

}  // namespace
}  // namespace schedcheck::cli
