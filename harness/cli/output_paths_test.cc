// Outputs of replay and trace convert: an output that is also an input, or named for two outputs,
// is bad input (exit 2) and leaves every file as it was; a FIFO output is written in place and a
// symlinked one through its link (traces/output_path.h). Only paths under TEST_TMPDIR: never a
// real device (an earlier run as root replaced /dev/null).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "harness/cli/replay_command.h"
#include "harness/cli/trace_commands.h"
#include "traces/trace_testing.h"

namespace schedcheck::cli {
namespace {

using trace::testing::FileExists;
using trace::testing::ReadFileBytes;
using trace::testing::TempPath;
using trace::testing::WriteSampleTrace;

#define EXPECT_CONTAINS(text, part)                                                           \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "missing: " << (part) << "\n" \
                                                             << (text)

int Replay(ReplayCommandOptions o, std::string* err) {
  o.quiet = true;
  o.no_progress = true;
  std::ostringstream out, e;
  const int code = RunReplay(o, out, e);
  *err = e.str();
  return code;
}

TEST(OutputPathsTest, ReplayRefusesToOverwriteItsInput) {
  const std::string in = WriteSampleTrace("replay-in.trace");
  ASSERT_FALSE(in.empty());
  const std::string before = ReadFileBytes(in);
  ReplayCommandOptions o;
  o.trace = in;
  o.jsonl = in;
  std::string err;
  EXPECT_EQ(Replay(o, &err), 2);
  EXPECT_CONTAINS(err, in + ": --jsonl is also an input (TRACE)");
  EXPECT_EQ(ReadFileBytes(in), before);
}

TEST(OutputPathsTest, ReplayRefusesOneFileForBothOutputs) {
  const std::string in = WriteSampleTrace("replay-both-in.trace");
  const std::string both = TempPath("both.out");
  std::remove(both.c_str());
  ReplayCommandOptions o;
  o.trace = in;
  o.output = both;
  o.jsonl = both;
  std::string err;
  EXPECT_EQ(Replay(o, &err), 2);
  EXPECT_CONTAINS(err, both + ": given for both -o and --jsonl");
  EXPECT_FALSE(FileExists(both));
}

// With --quiet and no --jsonl, -o is written as the replay goes (nothing else needs the log): the
// file is the one written from the whole log, byte for byte.
TEST(OutputPathsTest, ReplayStreamsItsOutputAsTheWholeLogWouldBe) {
  const std::string in = WriteSampleTrace("replay-stream-in.trace");
  const std::string streamed = TempPath("streamed.trace"), whole = TempPath("whole.trace");
  ReplayCommandOptions o;
  o.trace = in;
  o.output = streamed;
  std::string err;
  ASSERT_EQ(Replay(o, &err), 0) << err;  // --quiet: streamed
  o.output = whole;
  o.quiet = false;  // the summary needs the log: written from it
  o.no_progress = true;
  std::ostringstream out, e;
  ASSERT_EQ(RunReplay(o, out, e), 0) << e.str();
  EXPECT_CONTAINS(out.str(), "bound");
  const std::string bytes = ReadFileBytes(streamed);
  EXPECT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes, ReadFileBytes(whole));
}

TEST(OutputPathsTest, ConvertRefusesToOverwriteItsInput) {
  const std::string in = WriteSampleTrace("convert-in.trace");
  const std::string before = ReadFileBytes(in);
  std::ostringstream err;
  EXPECT_EQ(TraceConvert(in, in, err, {}), 2);
  EXPECT_CONTAINS(err.str(), in + ": OUT is also an input (IN)");
  EXPECT_EQ(ReadFileBytes(in), before);
}

TEST(OutputPathsTest, ReplayWritesThroughSymlinkAndIntoFifo) {
  const std::string in = WriteSampleTrace("replay-special-in.trace");
  const std::string target = TempPath("decisions.jsonl"), link = TempPath("decisions-link.jsonl");
  std::remove(target.c_str());
  std::remove(link.c_str());
  ASSERT_EQ(::symlink("decisions.jsonl", link.c_str()), 0);
  ReplayCommandOptions o;
  o.trace = in;
  o.jsonl = link;
  std::string err;
  ASSERT_EQ(Replay(o, &err), 0) << err;
  struct stat st;
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  const std::string log = ReadFileBytes(target);
  EXPECT_CONTAINS(log, "\"type\":");

  // The same log into a FIFO whose reader is open (non-blocking: the test cannot hang).
  const std::string fifo = TempPath("decisions.fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  ASSERT_LT(log.size(), 60000u);  // within the pipe's buffer
  o.jsonl = fifo;
  ASSERT_EQ(Replay(o, &err), 0) << err;
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(reader, buf, sizeof(buf))) > 0;) got.append(buf, n);
  ::close(reader);
  EXPECT_EQ(got, log);
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

}  // namespace
}  // namespace schedcheck::cli
