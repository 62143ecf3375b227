#include "traces/trace_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/k8s/k8s_json.h"
#include "traces/sample_trace.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

using testing::TempPath;

// The sample trace written in both forms: binary (WriteTrace) and the JSON Lines of `trace cat`.
std::vector<std::string> BothForms(const Trace& trace, const std::string& name) {
  const std::string binary = TempPath(name + ".trace");
  EXPECT_TRUE(WriteTrace(binary, trace).ok());
  std::string text = "{\"header\": " + k8s::ToJson(trace.header) + "}\n";
  for (const Record& r : trace.records) text += k8s::ToJson(r) + "\n";
  const std::string jsonl = TempPath(name + ".jsonl");
  testing::WriteFileBytes(jsonl, text);
  return {binary, jsonl};
}

TEST(StreamTraceTest, GivesTheHeaderAndEveryRecordInFileOrderAsLoadTraceDoes) {
  const Trace sample = MakeSampleTrace();
  ASSERT_GT(sample.records.size(), 3u);
  for (const std::string& path : BothForms(sample, "stream")) {
    SCOPED_TRACE(path);
    Header header;
    std::vector<Record> seen;
    Outcome ok = StreamTrace(path, {}, &header, [&seen](Record&& r) {
      seen.push_back(std::move(r));
      return Outcome::Ok();
    });
    ASSERT_TRUE(ok) << ok.message();
    EXPECT_EQ(header.compat(), sample.header.compat());
    EXPECT_EQ(header.producer(), sample.header.producer());
    EXPECT_TRUE(testing::SameRecords(seen, sample.records));
    auto loaded = LoadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    EXPECT_TRUE(testing::SameRecords(loaded->records, sample.records));
  }
}

TEST(StreamTraceTest, TheCallersErrorEndsTheReadAndIsReturned) {
  const Trace sample = MakeSampleTrace();
  for (const std::string& path : BothForms(sample, "stop")) {
    SCOPED_TRACE(path);
    Header header;
    size_t calls = 0;
    Outcome ok = StreamTrace(path, {}, &header, [&calls](Record&&) -> Outcome {
      if (++calls == 2) return Error{"enough"};
      return Outcome::Ok();
    });
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.message(), "enough");
    EXPECT_EQ(calls, 2u);
  }
}

TEST(StreamTraceTest, ReaderErrorsNameTheFile) {
  const std::string empty = TempPath("empty.jsonl");
  testing::WriteFileBytes(empty, "\n");
  Header header;
  Outcome ok = StreamTrace(empty, {}, &header, [](Record&&) { return Outcome::Ok(); });
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.message().find(empty + ": empty"), std::string::npos) << ok.message();
}

}  // namespace
}  // namespace schedcheck::trace
