#include "harness/protocol/framing.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>

namespace schedcheck::protocol {
namespace {

class Pipe {
 public:
  Pipe() { EXPECT_EQ(pipe(fds_), 0); }
  ~Pipe() {
    CloseRead();
    CloseWrite();
  }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void Write(const std::string& bytes) {
    ASSERT_EQ(write(fds_[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }
  void CloseRead() {
    if (fds_[0] >= 0) close(fds_[0]);
    fds_[0] = -1;
  }
  void CloseWrite() {
    if (fds_[1] >= 0) close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(FramingTest, LengthIsFourBytesLittleEndian) {
  EXPECT_EQ(EncodeFrame("abc"), std::string("\x03\x00\x00\x00"
                                            "abc",
                                            7));
  EXPECT_EQ(EncodeFrame(std::string(258, 'x')).substr(0, 4), std::string("\x02\x01\x00\x00", 4));
}

TEST(FramingTest, RoundTripsFramesThenReportsACleanEnd) {
  Pipe p;
  ASSERT_TRUE(WriteFrame(p.write_fd(), "first", 1000).ok());
  ASSERT_TRUE(WriteFrame(p.write_fd(), "", 1000).ok());
  p.CloseWrite();
  std::string payload;
  ASSERT_TRUE(ReadFrame(p.read_fd(), 1000, &payload).ok());
  EXPECT_EQ(payload, "first");
  ASSERT_TRUE(ReadFrame(p.read_fd(), -1, &payload).ok());
  EXPECT_EQ(payload, "");
  IoStatus end = ReadFrame(p.read_fd(), 1000, &payload);
  EXPECT_EQ(end.code, IoCode::kEof);
  EXPECT_EQ(end.partial_bytes, 0u);
}

TEST(FramingTest, TruncatedFrameCountsTheBytesRead) {
  Pipe p;
  p.Write(
      std::string("\x0a\x00\x00\x00"
                  "abc",
                  7));  // announces 10 bytes, sends 3
  p.CloseWrite();
  std::string payload;
  IoStatus s = ReadFrame(p.read_fd(), 1000, &payload);
  EXPECT_EQ(s.code, IoCode::kEof);
  EXPECT_EQ(s.partial_bytes, 7u);
}

TEST(FramingTest, RejectsALengthAboveTheMaximum) {
  Pipe p;
  p.Write("hello");
  std::string payload;
  IoStatus s = ReadFrame(p.read_fd(), 1000, &payload);
  EXPECT_EQ(s.code, IoCode::kTooLarge);
  EXPECT_NE(s.message.find("frame length 1819043176 exceeds the maximum of 67108864 bytes"),
            std::string::npos)
      << s.message;
  // Exactly the maximum is accepted as a length (the payload then times out here).
  Pipe q;
  q.Write(EncodeFrame("").replace(0, 4, std::string("\x00\x00\x00\x04", 4)));
  EXPECT_EQ(ReadFrame(q.read_fd(), 50, &payload).code, IoCode::kTimeout);
}

TEST(FramingTest, TimesOutWhenNothingArrives) {
  Pipe p;
  std::string payload;
  IoStatus s = ReadFrame(p.read_fd(), 50, &payload);
  EXPECT_EQ(s.code, IoCode::kTimeout);
  EXPECT_EQ(s.partial_bytes, 0u);
  p.Write(std::string("\x05\x00", 2));
  s = ReadFrame(p.read_fd(), 50, &payload);
  EXPECT_EQ(s.code, IoCode::kTimeout);
  EXPECT_EQ(s.partial_bytes, 2u);
}

TEST(FramingTest, WritingToAClosedReaderIsEof) {
  signal(SIGPIPE, SIG_IGN);
  Pipe p;
  p.CloseRead();
  IoStatus s = WriteFrame(p.write_fd(), "x", 1000);
  EXPECT_EQ(s.code, IoCode::kEof) << s.message;
}

}  // namespace
}  // namespace schedcheck::protocol
