// Import with a sink (`schedcheck import`: records written as they are finished, never all held
// parsed) gives what Import without one gives: the same records in the same order, labels,
// warnings and errors, and, written, the same bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "traces/importers/import_testing.h"
#include "traces/importers/importer.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

using testing::TestData;

struct Case {
  std::string name;
  std::string format;
  std::vector<std::string> inputs;
  ImportOptions options;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const std::vector<std::string> watch = {TestData("watch/capture.json"),
                                          TestData("watch/capture2.json")};
  cases.push_back({"watch", "watch", watch, {}});
  ImportOptions keep;
  keep.strip_bindings = false;
  cases.push_back({"watch keeping bindings", "watch", watch, keep});
  ImportOptions early;
  early.start_unix_ns = 0;
  cases.push_back({"watch from 1970", "watch", watch, early});
  ImportOptions late;
  late.start_unix_ns = int64_t{4'000'000'000} * 1'000'000'000;
  cases.push_back({"watch starting after its events", "watch", watch, late});
  ImportOptions few;
  few.limits.records = 3;
  cases.push_back({"watch beyond the records limit", "watch", watch, few});
  cases.push_back({"kss", "kss", {TestData("kss/record.jsonl")}, {}});
  cases.push_back({"kss with workloads", "kss", {TestData("kss/workloads.jsonl")}, {}});
  cases.push_back({"manifests", "manifests", {TestData("manifests/cluster.yaml")}, {}});
  cases.push_back({"watch storage", "watch", {TestData("watch/storage.json")}, {}});
  cases.push_back({"kss storage", "kss", {TestData("kss/storage.jsonl")}, {}});
  cases.push_back({"manifests storage", "manifests", {TestData("storage/storage.yaml")}, {}});
  const std::vector<std::string> openb = {TestData("openb/nodes.csv"), TestData("openb/pods.csv")};
  cases.push_back({"openb", "openb", openb, {}});
  // Importers that do not stream hand their records to the sink after the import, checked there.
  cases.push_back({"openb beyond the records limit", "openb", openb, few});
  ImportOptions short_strings;
  short_strings.limits.string_bytes = 8;
  short_strings.limits.key_bytes = 8;
  cases.push_back({"openb beyond the string limit", "openb", openb, short_strings});
  cases.push_back({"manifests beyond the records limit",
                   "manifests",
                   {TestData("manifests/cluster.yaml")},
                   few});
  return cases;
}

TEST(StreamingImportTest, SameRecordsLabelsWarningsAndErrors) {
  int errors = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    auto whole = Import(c.format, c.inputs, c.options);
    std::vector<Record> streamed_records;
    auto streamed = Import(c.format, c.inputs, c.options, [&](Record&& r) {
      streamed_records.push_back(std::move(r));
      return Outcome::Ok();
    });
    ASSERT_EQ(streamed.ok(), whole.ok()) << (whole.ok() ? streamed.message() : whole.message());
    if (!whole.ok()) {
      EXPECT_EQ(streamed.message(), whole.message());
      ++errors;
      continue;
    }
    EXPECT_TRUE(streamed->records.empty());
    ASSERT_GT(whole->records.size(), 2u);
    EXPECT_TRUE(testing::SameRecords(streamed_records, whole->records));
    EXPECT_EQ(streamed->labels, whole->labels);
    EXPECT_EQ(streamed->warnings, whole->warnings);
    EXPECT_EQ(streamed->start_unix_ns, whole->start_unix_ns);
  }
  EXPECT_EQ(errors, 5);  // the late start, three records limits and openb's string limit
}

TEST(StreamingImportTest, WrittenAsTheyComeGivesWriteImportedsBytes) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    auto whole = Import(c.format, c.inputs, c.options);
    if (!whole.ok()) continue;
    const std::string expected = testing::TempPath("whole.trace");
    ASSERT_TRUE(WriteImported(expected, c.format, *whole));
    const std::string path = testing::TempPath("streamed.trace");
    auto writer = TraceWriter::Open(path, Header(), {.header_last = true});
    ASSERT_TRUE(writer.ok()) << writer.message();
    auto streamed =
        Import(c.format, c.inputs, c.options, [&](Record&& r) { return (*writer)->Append(r); });
    ASSERT_TRUE(streamed.ok()) << streamed.message();
    ASSERT_TRUE((*writer)->FinishWithHeader(MakeImportHeader(c.format, *streamed)));
    EXPECT_EQ(testing::ReadFileBytes(path), testing::ReadFileBytes(expected));
  }
}

}  // namespace
}  // namespace schedcheck::trace
