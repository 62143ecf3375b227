#include "traces/trace_writer.h"

#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"
#include "traces/sample_trace.h"
#include "traces/trace_reader.h"
#include "traces/trace_testing.h"

namespace schedcheck::trace {
namespace {

using testing::FileExists;
using testing::ReadFileBytes;
using testing::SameRecords;
using testing::TempPath;

TEST(TraceWriterTest, DestroyedWithoutFinishLeavesNoFile) {
  const std::string path = TempPath("abandoned.trace");
  std::string temp;
  {
    auto writer = TraceWriter::Open(path, Header());
    ASSERT_TRUE(writer.ok()) << writer.message();
    temp = (*writer)->write_path();
    EXPECT_NE(temp, path);
    EXPECT_TRUE(FileExists(temp));
    for (const Record& r : MakeSampleTrace().records) ASSERT_TRUE((*writer)->Append(r).ok());
    ASSERT_TRUE((*writer)->Flush().ok());
  }
  EXPECT_FALSE(FileExists(path));
  EXPECT_FALSE(FileExists(temp));
}

TEST(TraceWriterTest, FinishRenamesAndRemovesTemp) {
  const std::string path = TempPath("finished.trace");
  const Trace sample = MakeSampleTrace();
  auto writer = TraceWriter::Open(path, sample.header, {.events_per_frame = 4});
  ASSERT_TRUE(writer.ok()) << writer.message();
  const std::string temp = (*writer)->write_path();
  for (const Record& r : sample.records) ASSERT_TRUE((*writer)->Append(r).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_TRUE(FileExists(path));
  EXPECT_FALSE(FileExists(temp));
  EXPECT_EQ((*writer)->frames_written(), static_cast<int64_t>((sample.records.size() + 3) / 4));
  auto back = ReadTrace(path);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_TRUE(SameRecords(back->records, sample.records));
  EXPECT_EQ(back->header.producer(), "schedcheck trace sample");
  EXPECT_EQ(back->header.format_version(), kFormatVersion);
}

TEST(TraceWriterTest, SameInputGivesIdenticalBytes) {
  Trace sample = MakeSampleTrace();
  for (int i = 0; i < 20; ++i) {  // many map entries: deterministic map serialization matters
    (*sample.header.mutable_labels())["k" + std::to_string(i)] = "v";
    (*sample.records[0]
          .mutable_api()
          ->mutable_node()
          ->mutable_metadata()
          ->mutable_labels())["l" + std::to_string(i)] = std::to_string(i);
  }
  const std::string a = TempPath("same_a.trace");
  const std::string b = TempPath("same_b.trace");
  ASSERT_TRUE(WriteTrace(a, sample, {.events_per_frame = 5}).ok());
  ASSERT_TRUE(WriteTrace(b, sample, {.events_per_frame = 5}).ok());
  const std::string bytes = ReadFileBytes(a);
  EXPECT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes, ReadFileBytes(b));
}

// A header given at the end gives the bytes a header given at Open gives; nothing is visible at
// the target before, and a header_last writer cannot Finish without its header.
TEST(TraceWriterTest, HeaderLastWritesTheSameBytes) {
  const Trace sample = MakeSampleTrace();
  const std::string a = TempPath("first.trace");
  ASSERT_TRUE(WriteTrace(a, sample, {.events_per_frame = 2}).ok());
  const std::string b = TempPath("last.trace");
  auto writer = TraceWriter::Open(b, Header(), {.events_per_frame = 2, .header_last = true});
  ASSERT_TRUE(writer.ok()) << writer.message();
  for (const Record& r : sample.records) ASSERT_TRUE((*writer)->Append(r).ok());
  EXPECT_GT((*writer)->frames_written(), 1);
  EXPECT_FALSE(FileExists(b));
  Outcome ok = (*writer)->FinishWithHeader(sample.header);
  ASSERT_TRUE(ok) << ok.message();
  EXPECT_EQ(ReadFileBytes(b), ReadFileBytes(a));

  const std::string c = TempPath("no_header.trace");
  auto headless = TraceWriter::Open(c, Header(), {.header_last = true});
  ASSERT_TRUE(headless.ok());
  ASSERT_TRUE((*headless)->Append(sample.records[0]).ok());
  EXPECT_FALSE((*headless)->Finish());
  EXPECT_FALSE(FileExists(c));

  // A recorder writes its target directly: header_last is refused before anything is created.
  const std::string d = TempPath("recorder_header_last.trace");
  EXPECT_FALSE(
      TraceWriter::Open(d, Header(), {.mode = WriterOptions::Mode::kRecorder, .header_last = true})
          .ok());
  EXPECT_FALSE(FileExists(d));
}

TEST(TraceWriterTest, RecorderModeFramesReadableWhileWriting) {
  const std::string path = TempPath("recorder.trace");
  const Trace sample = MakeSampleTrace();
  WriterOptions options{.mode = WriterOptions::Mode::kRecorder, .events_per_frame = 100};
  auto writer = TraceWriter::Open(path, sample.header, options);
  ASSERT_TRUE(writer.ok()) << writer.message();
  EXPECT_EQ((*writer)->write_path(), path);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*writer)->Append(sample.records[i]).ok());
  ASSERT_TRUE((*writer)->Flush().ok());
  ASSERT_TRUE((*writer)->Append(sample.records[3]).ok());  // pending, not yet on disk
  auto partial = ReadAll(path);
  ASSERT_TRUE(partial.ok()) << partial.message();
  EXPECT_EQ(partial->size(), 3u);
  writer->reset();  // recorder: destruction flushes and keeps the file
  auto all = ReadAll(path);
  ASSERT_TRUE(all.ok()) << all.message();
  EXPECT_EQ(all->size(), 4u);
}

// A recorder killed without running destructors leaves a temporary file whose complete frames
// (written every events_per_frame records) read back.
TEST(TraceWriterTest, KilledWriterLeavesReadableTempFile) {
  const std::string path = TempPath("killed.trace");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto writer = TraceWriter::Open(path, Header(), {.events_per_frame = 4});
    if (!writer.ok()) ::_exit(1);
    for (int i = 0; i < 10; ++i) {
      if (!(*writer)->Append(BindingRecord(i, "ns/p" + std::to_string(i), "n")).ok()) _exit(1);
    }
    ::_exit(0);  // no destructors, no Finish()
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(FileExists(path));
  const std::string temp = path + ".tmp." + std::to_string(child);
  ASSERT_TRUE(FileExists(temp));
  auto records = ReadAll(temp);
  ASSERT_TRUE(records.ok()) << records.message();
  ASSERT_EQ(records->size(), 8u);  // two complete frames of 4
  EXPECT_EQ((*records)[7].binding().pod(), "ns/p7");
}

TEST(TraceWriterTest, RejectsOversizedRecordAndBadPaths) {
  auto writer = TraceWriter::Open(TempPath("big.trace"), Header());
  ASSERT_TRUE(writer.ok());
  Record big;
  big.mutable_attempt()->set_message(std::string(kMaxRecordBytes + 1, 'x'));
  Outcome o = (*writer)->Append(big);
  EXPECT_FALSE(o.ok());
  EXPECT_NE(o.message().find("limit"), std::string::npos) << o.message();

  auto bad = TraceWriter::Open("/nonexistent-dir/x.trace", Header());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("/nonexistent-dir/x.trace"), std::string::npos);
  EXPECT_FALSE(TraceWriter::Open(TempPath("z.trace"), Header(), {.events_per_frame = 0}).ok());
}

}  // namespace
}  // namespace schedcheck::trace
