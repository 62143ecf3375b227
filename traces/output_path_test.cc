// Outputs are replaced atomically only when they are regular files: a FIFO is written in place,
// a symlink is followed (and survives), "-" is standard output; an output that is an input, or
// named twice, is refused. Never a real device path here: a FIFO and symlinks in TEST_TMPDIR.
#include "traces/output_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "traces/atomic_file.h"
#include "traces/sample_trace.h"
#include "traces/trace_testing.h"
#include "traces/trace_writer.h"

namespace schedcheck::trace {
namespace {

using testing::ReadFileBytes;
using testing::TempPath;
using testing::WriteFileBytes;

bool IsFifo(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

bool IsSymlink(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// A FIFO with a reader already open (non-blocking, so the writer's open does not wait and the
// test cannot hang): Drain() returns what was written, up to the pipe's buffer.
class Fifo {
 public:
  explicit Fifo(const std::string& name) : path_(TempPath(name)) {
    std::remove(path_.c_str());
    EXPECT_EQ(::mkfifo(path_.c_str(), 0600), 0);
    fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
    EXPECT_GE(fd_, 0);
  }
  ~Fifo() {
    ::close(fd_);
    std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string Drain() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd_, buf, sizeof(buf))) > 0;)
      out.append(buf, static_cast<size_t>(n));
    return out;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

// Runs `write` with standard output redirected to a file; returns what it wrote there.
template <typename F>
std::string CaptureStdout(F write) {
  const std::string path = TempPath("stdout.bin");
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(fd, STDOUT_FILENO);
  ::close(fd);
  write();
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  return ReadFileBytes(path);
}

TEST(OutputPathTest, FifoIsWrittenInPlaceNotReplaced) {
  Fifo text("text.fifo");
  ASSERT_TRUE(WriteFileAtomically(text.path(), "line\n").ok());
  EXPECT_EQ(text.Drain(), "line\n");
  EXPECT_TRUE(IsFifo(text.path()));
  EXPECT_FALSE(testing::FileExists(text.path() + ".tmp." + std::to_string(::getpid())));

  Fifo binary("trace.fifo");
  Trace sample = MakeSampleTrace();
  sample.records.resize(3);  // within the pipe's buffer
  ASSERT_TRUE(WriteTrace(binary.path(), sample).ok());
  EXPECT_EQ(binary.Drain().substr(0, kFileMagic.size()), kFileMagic);
  EXPECT_TRUE(IsFifo(binary.path()));
}

TEST(OutputPathTest, SymlinkIsFollowedAndSurvives) {
  const std::string target = TempPath("target.txt"), link = TempPath("link.txt");
  WriteFileBytes(target, "keep");
  std::remove(link.c_str());
  ASSERT_EQ(::symlink("target.txt", link.c_str()), 0);  // relative to the link's directory
  ASSERT_TRUE(WriteFileAtomically(link, "new").ok());
  EXPECT_TRUE(IsSymlink(link));
  EXPECT_EQ(ReadFileBytes(target), "new");

  // A dangling link: the file it names is created, the link kept.
  const std::string dangling = TempPath("dangling.trace"), created = TempPath("created.trace");
  std::remove(dangling.c_str());
  std::remove(created.c_str());
  ASSERT_EQ(::symlink(created.c_str(), dangling.c_str()), 0);
  ASSERT_TRUE(WriteTrace(dangling, MakeSampleTrace()).ok());
  EXPECT_TRUE(IsSymlink(dangling));
  EXPECT_EQ(ReadFileBytes(created).substr(0, kFileMagic.size()), kFileMagic);
}

TEST(OutputPathTest, DashIsStandardOutput) {
  std::remove("-");
  EXPECT_EQ(CaptureStdout([] { ASSERT_TRUE(WriteFileAtomically("-", "to stdout\n").ok()); }),
            "to stdout\n");
  // Binary traces too, when standard output is not a terminal (here a file).
  const std::string bytes =
      CaptureStdout([] { ASSERT_TRUE(WriteTrace("-", MakeSampleTrace()).ok()); });
  EXPECT_EQ(bytes.substr(0, kFileMagic.size()), kFileMagic);
  EXPECT_FALSE(testing::FileExists("-"));
}

TEST(OutputPathTest, RegularFileIsStillReplacedAtomically) {
  const std::string path = TempPath("regular.txt");
  WriteFileBytes(path, "old");
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  EXPECT_EQ(ReadFileBytes(path), "new");
  EXPECT_FALSE(testing::FileExists(path + ".tmp." + std::to_string(::getpid())));
}

TEST(OutputPathTest, OutputThatIsAnInputOrNamedTwiceIsRefused) {
  const std::string in = TempPath("in.jsonl"), link = TempPath("in-link.jsonl");
  WriteFileBytes(in, "{}\n");
  std::remove(link.c_str());
  ASSERT_EQ(::symlink(in.c_str(), link.c_str()), 0);
  Outcome same = CheckOutputsDistinct({{"TRACE", in}}, {{"--jsonl", in}});
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.message(), in + ": --jsonl is also an input (TRACE); refusing to overwrite it");
  // Through a symlink, and by another spelling of the path.
  EXPECT_FALSE(CheckOutputsDistinct({{"IN", in}}, {{"OUT", link}}).ok());
  EXPECT_FALSE(CheckOutputsDistinct({{"IN", TempPath("./in.jsonl")}}, {{"OUT", in}}).ok());
  // Two outputs naming one new file, or "-" twice.
  const std::string both = TempPath("both.out");
  std::remove(both.c_str());
  Outcome twice = CheckOutputsDistinct({}, {{"-o", both}, {"--jsonl", TempPath("./both.out")}});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("given for both -o and --jsonl"), std::string::npos);
  EXPECT_FALSE(CheckOutputsDistinct({}, {{"-o", "-"}, {"--jsonl", "-"}}).ok());
  // Distinct files pass; empty (absent) options are ignored.
  EXPECT_TRUE(
      CheckOutputsDistinct({{"TRACE", in}}, {{"-o", TempPath("a.out")}, {"--jsonl", ""}}).ok());
}

}  // namespace
}  // namespace schedcheck::trace
