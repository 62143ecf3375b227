#include "harness/protocol/child_stderr.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

namespace schedcheck::protocol {

ChildStderr::ChildStderr(int fd) : state_(std::make_shared<State>()) {
  std::thread([fd, state = state_] {
    char buf[4096];
    for (;;) {
      const ssize_t n = read(fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      // Ours is the child's stderr as before: pass everything on, whatever happens to it.
      for (ssize_t done = 0; done < n;) {
        const ssize_t w = write(2, buf + done, static_cast<size_t>(n - done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += w;
      }
      std::lock_guard<std::mutex> lock(state->mu);
      state->tail.append(buf, static_cast<size_t>(n));
      if (state->tail.size() > kMaxTailBytes) {
        state->tail.erase(0, state->tail.size() - kMaxTailBytes);
        state->trimmed = true;
      }
    }
    close(fd);
    std::lock_guard<std::mutex> lock(state->mu);
    state->ended = true;
    state->ended_cv.notify_all();
  }).detach();
}

std::string ChildStderr::Tail(int64_t wait_ms) const {
  std::unique_lock<std::mutex> lock(state_->mu);
  // Bounded: a descendant of the child may hold the pipe open after the child itself exited.
  state_->ended_cv.wait_for(lock, std::chrono::milliseconds(wait_ms),
                            [this] { return state_->ended; });
  const std::string& tail = state_->tail;
  const size_t cut = state_->trimmed ? tail.find('\n') : std::string::npos;
  return LastLines(cut == std::string::npos ? tail : tail.substr(cut + 1), kMaxTailLines);
}

std::string LastLines(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    const size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos) {
      line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
      lines.push_back(std::move(line));
    }
    start = end + 1;
  }
  std::string out;
  const size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
  for (size_t i = from; i < lines.size(); ++i) out += (out.empty() ? "" : " | ") + lines[i];
  return out;
}

}  // namespace schedcheck::protocol
