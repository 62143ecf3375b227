#include "harness/protocol/client.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/protocol/child_stderr.h"
#include "harness/protocol/framing.h"

extern char** environ;

namespace schedcheck::protocol {
namespace {

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// "SIGSEGV" for the signals a dying child usually gets, else "signal N".
std::string SignalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGABRT:
      return "SIGABRT";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    default:
      return "signal " + std::to_string(sig);
  }
}

// How the child ended and the likely cause, for someone who sees only this line:
// "the child exited with status 1 (it stopped on an error of its own: ...)".
std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    std::string s = "the child exited with status " + std::to_string(code);
    if (code == 0) return s + " (it ended before answering: is the command a protocol server?)";
    if (code == 127) return s + " (the shell did not find the command)";
    if (code == 126) return s + " (the shell could not run the command: not executable?)";
    return s +
           " (it stopped on an error of its own, e.g. the adapter rejected an event or the "
           "scheduler failed: see its stderr)";
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    std::string s =
        "the child was killed by signal " + std::to_string(sig) + " (" + SignalName(sig) + ": ";
    switch (sig) {
      case SIGSEGV:
      case SIGBUS:
      case SIGABRT:
      case SIGILL:
      case SIGFPE:
        return s + "it crashed)";
      case SIGKILL:
        return s + "killed from outside, perhaps by the kernel for lack of memory)";
      default:
        return s + strsignal(sig) + ")";
    }
  }
  return "the child stopped (wait status " + std::to_string(status) + ")";
}

}  // namespace

std::string DescribeMs(int64_t ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g s", static_cast<double>(ms) / 1000);
  return buf;
}

Result<std::unique_ptr<Client>> Client::Spawn(const std::string& command, int64_t timeout_ms) {
  signal(SIGPIPE, SIG_IGN);
  int in_pipe[2], out_pipe[2], err_pipe[2];  // child's stdin, stdout, stderr
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return Error{Errno("pipe")};
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return Error{Errno("pipe")};
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return Error{Errno("pipe")};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return Error{std::string("cannot start /bin/sh: ") + std::strerror(rc)};
  }
  fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  auto client = std::unique_ptr<Client>(new Client(pid, in_pipe[1], out_pipe[0], timeout_ms));
  client->stderr_ = std::make_unique<ChildStderr>(err_pipe[0]);
  return client;
}

Client::~Client() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  if (!reaped_) {
    Kill();
    waitpid(pid_, &status_, 0);
  }
}

void Client::Kill() {
  if (reaped_) return;
  kill(-pid_, SIGKILL);  // the child's own process group (it is its leader)
  kill(pid_, SIGKILL);
}

std::string Client::Reap() {
  if (!reaped_) {
    // Poll for the exit in 10 ms steps up to the time limit (the child may still be flushing).
    for (int64_t waited_ms = 0;; waited_ms += 10) {
      rusage usage{};
      pid_t r = wait4(pid_, &status_, WNOHANG, &usage);
      if (r == pid_ || (r < 0 && errno != EINTR)) {
        reaped_ = r == pid_;
        if (reaped_) {
          auto ns = [](const timeval& t) {
            return t.tv_sec * 1'000'000'000LL + t.tv_usec * 1000LL;
          };
          cpu_ns_ = ns(usage.ru_utime) + ns(usage.ru_stime);
        }
        break;
      }
      if (waited_ms >= timeout_ms_) return "the child is still running";
      timespec ten_ms{0, 10'000'000};
      nanosleep(&ten_ms, nullptr);
    }
    if (!reaped_) return "the child's status is unknown";
  }
  std::string how = DescribeStatus(status_);
  // What it said last usually names the cause (a Go panic, klog's F line, the adapter's error).
  const std::string tail = stderr_ != nullptr ? stderr_->Tail(kStderrWaitMs) : "";
  if (!tail.empty()) how += "; its stderr ended with: " + tail;
  return how;
}

Result<Response> Client::Call(const Request& request) {
  std::string bytes;
  request.SerializeToString(&bytes);
  IoStatus w = WriteFrame(to_child_, bytes, timeout_ms_);
  if (w.code == IoCode::kTimeout) {
    Kill();
    return Error{"the child did not read its stdin within " + DescribeMs(timeout_ms_) +
                 " (killed)"};
  }
  if (w.code == IoCode::kEof) return Error{"the child closed its stdin: " + Reap()};
  if (!w.ok()) return Error{w.message};
  std::string payload;
  IoStatus r = ReadFrame(from_child_, timeout_ms_, &payload);
  switch (r.code) {
    case IoCode::kOk:
      break;
    case IoCode::kTimeout:
      Kill();
      return Error{"no answer within " + DescribeMs(timeout_ms_) +
                   (r.partial_bytes
                        ? " (" + std::to_string(r.partial_bytes) + " bytes of a frame arrived)"
                        : "") +
                   "; the child was killed"};
    case IoCode::kEof:
      if (r.partial_bytes > 0) {
        return Error{"truncated frame: stdout ended after " + std::to_string(r.partial_bytes) +
                     " bytes of it; " + Reap()};
      }
      return Error{"stdout ended before an answer; " + Reap()};
    case IoCode::kTooLarge:
      Kill();
      return Error{"garbage on stdout: " + r.message};
    case IoCode::kError:
      return Error{r.message};
  }
  Response response;
  if (!response.ParseFromString(payload)) {
    Kill();
    return Error{"garbage on stdout: unparseable Response (" + std::to_string(payload.size()) +
                 " bytes)"};
  }
  if (response.body_case() == Response::BODY_NOT_SET) {
    Kill();
    return Error{"a Response without a body (" + std::to_string(payload.size()) + " bytes)"};
  }
  return response;
}

Outcome Client::Close() {
  close(to_child_);
  to_child_ = -1;
  std::string how = Reap();
  if (reaped_ && WIFEXITED(status_) && WEXITSTATUS(status_) == 0) return Outcome::Ok();
  return Error{"after the last answer, " + how};
}

}  // namespace schedcheck::protocol
