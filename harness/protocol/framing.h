// Frames of the external-scheduler protocol (PROTOCOL.md "Framing"): a 4-byte little-endian
// length, then that many bytes of one serialized Request or Response. Reads and writes on file
// descriptors (pipes), with an optional real-time limit for the harness side; the child side
// waits forever (timeout_ms < 0) and never reads a clock.
#ifndef SCHEDCHECK_HARNESS_PROTOCOL_FRAMING_H_
#define SCHEDCHECK_HARNESS_PROTOCOL_FRAMING_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace schedcheck::protocol {

inline constexpr uint32_t kProtocolVersion = 1;
// A larger length is rejected as garbage before anything is allocated.
inline constexpr uint32_t kMaxFrameBytes = 64u << 20;

enum class IoCode {
  kOk,
  kEof,       // the other side closed its end (at a frame boundary when `partial_bytes` is 0)
  kTimeout,   // nothing (more) arrived / could be written within the limit
  kTooLarge,  // a length prefix above kMaxFrameBytes
  kError,     // an I/O error (errno text in `message`)
};

struct IoStatus {
  IoCode code = IoCode::kOk;
  std::string message;       // human-readable, without the request context
  size_t partial_bytes = 0;  // kEof/kTimeout: bytes of the current frame already read
  bool ok() const { return code == IoCode::kOk; }
};

// The frame bytes for one payload. REQUIRES: payload.size() <= kMaxFrameBytes.
std::string EncodeFrame(std::string_view payload);

// Reads one frame's payload. kEof with partial_bytes == 0 is a clean end between frames.
IoStatus ReadFrame(int fd, int64_t timeout_ms, std::string* payload);
// Writes one frame. A closed reader (EPIPE) is kEof. SIGPIPE must be ignored by the caller.
IoStatus WriteFrame(int fd, std::string_view payload, int64_t timeout_ms);

}  // namespace schedcheck::protocol

#endif  // SCHEDCHECK_HARNESS_PROTOCOL_FRAMING_H_
