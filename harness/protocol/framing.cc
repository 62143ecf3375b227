#include "harness/protocol/framing.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace schedcheck::protocol {
namespace {

// A real-time limit (the only clock use in the protocol, and only on the harness side).
class Deadline {
 public:
  explicit Deadline(int64_t timeout_ms) : forever_(timeout_ms < 0) {
    if (!forever_) end_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  }
  // Milliseconds left for poll(): -1 = forever, 0 = expired.
  int RemainingMs() const {
    if (forever_) return -1;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) return 0;
    return left.count() > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(left.count());
  }

 private:
  bool forever_;
  std::chrono::steady_clock::time_point end_;
};

// Waits until `fd` is ready for `events`. kOk, kTimeout or kError.
IoStatus WaitReady(int fd, short events, const Deadline& deadline) {
  while (true) {
    int ms = deadline.RemainingMs();
    pollfd p{fd, events, 0};
    int n = ms == 0 ? 0 : poll(&p, 1, ms);
    if (n > 0) return {};
    if (n == 0) return {IoCode::kTimeout, "timed out"};
    if (errno != EINTR) return {IoCode::kError, std::string("poll: ") + std::strerror(errno)};
  }
}

// Reads exactly `n` bytes into `out`; `already` bytes of the frame were read before.
IoStatus ReadExactly(int fd, char* out, size_t n, size_t already, const Deadline& deadline) {
  size_t got = 0;
  while (got < n) {
    IoStatus ready = WaitReady(fd, POLLIN, deadline);
    if (!ready.ok()) {
      ready.partial_bytes = already + got;
      return ready;
    }
    ssize_t r = read(fd, out + got, n - got);
    if (r == 0) return {IoCode::kEof, "end of stream", already + got};
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return {IoCode::kError, std::string("read: ") + std::strerror(errno), already + got};
    }
    got += static_cast<size_t>(r);
  }
  return {};
}

}  // namespace

std::string EncodeFrame(std::string_view payload) {
  const auto n = static_cast<uint32_t>(payload.size());
  std::string frame(4, '\0');
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  frame.append(payload);
  return frame;
}

IoStatus ReadFrame(int fd, int64_t timeout_ms, std::string* payload) {
  Deadline deadline(timeout_ms);
  unsigned char prefix[4];
  IoStatus s = ReadExactly(fd, reinterpret_cast<char*>(prefix), 4, 0, deadline);
  if (!s.ok()) return s;
  uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n |= static_cast<uint32_t>(prefix[i]) << (8 * i);
  if (n > kMaxFrameBytes) {
    return {IoCode::kTooLarge, "frame length " + std::to_string(n) + " exceeds the maximum of " +
                                   std::to_string(kMaxFrameBytes) +
                                   " bytes (not a protocol frame?)"};
  }
  payload->assign(n, '\0');
  return ReadExactly(fd, payload->data(), n, 4, deadline);
}

IoStatus WriteFrame(int fd, std::string_view payload, int64_t timeout_ms) {
  Deadline deadline(timeout_ms);
  const std::string frame = EncodeFrame(payload);
  size_t done = 0;
  while (done < frame.size()) {
    IoStatus ready = WaitReady(fd, POLLOUT, deadline);
    if (!ready.ok()) return ready;
    ssize_t w = write(fd, frame.data() + done, frame.size() - done);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == EPIPE) return {IoCode::kEof, "the reader closed its end"};
      return {IoCode::kError, std::string("write: ") + std::strerror(errno)};
    }
    done += static_cast<size_t>(w);
  }
  return {};
}

}  // namespace schedcheck::protocol
