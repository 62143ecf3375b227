// The child's stderr, passed through to ours as it comes and its end kept (the last lines, at most
// kMaxTailBytes) so that a message about the child's death can quote what it said last. Read by a
// thread of its own: the child must never block on a full stderr pipe while we wait on its stdout.
#ifndef SCHEDCHECK_HARNESS_PROTOCOL_CHILD_STDERR_H_
#define SCHEDCHECK_HARNESS_PROTOCOL_CHILD_STDERR_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace schedcheck::protocol {

class ChildStderr {
 public:
  static constexpr size_t kMaxTailLines = 5;
  static constexpr size_t kMaxTailBytes = 2048;

  // Starts copying `fd` (the read end of the child's stderr pipe, owned from now on) to our fd 2.
  // The copying thread ends at end of file and outlives this object if it must.
  explicit ChildStderr(int fd);
  ChildStderr(const ChildStderr&) = delete;
  ChildStderr& operator=(const ChildStderr&) = delete;

  // The last lines written so far, each trimmed, joined with " | " ("" when it wrote nothing).
  // Waits up to `wait_ms` for the end of the stream first (the child has exited, but its last
  // bytes may still be in the pipe).
  std::string Tail(int64_t wait_ms) const;

 private:
  struct State {
    std::mutex mu;
    std::condition_variable ended_cv;
    bool ended = false;
    std::string tail;      // the last kMaxTailBytes bytes read
    bool trimmed = false;  // bytes before `tail` were dropped: its first line may be partial
  };
  std::shared_ptr<State> state_;
};

// The last `max_lines` non-empty lines of `text`, trimmed, joined with " | ".
std::string LastLines(const std::string& text, size_t max_lines);

}  // namespace schedcheck::protocol

#endif  // SCHEDCHECK_HARNESS_PROTOCOL_CHILD_STDERR_H_
