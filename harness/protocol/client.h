// The harness side of the external-scheduler protocol: a child process started with
// `/bin/sh -c COMMAND`, its stdin and stdout connected to pipes, its stderr passed through to ours
// (for its logs) and its last lines kept to quote when it dies (child_stderr.h), in a process
// group of its own so that a hung child and its descendants can be killed.
// Every wait is bounded by a real-time limit (the only clock use; outputs do not depend on it).
#ifndef SCHEDCHECK_HARNESS_PROTOCOL_CLIENT_H_
#define SCHEDCHECK_HARNESS_PROTOCOL_CLIENT_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "harness/protocol/child_stderr.h"
#include "harness/protocol/protocol.pb.h"
#include "reference/base/result.h"

namespace schedcheck::protocol {

class Client {
 public:
  // Starts the child. Ignores SIGPIPE in this process (writes to a dead child report EPIPE);
  // the child gets the default disposition back.
  static Result<std::unique_ptr<Client>> Spawn(const std::string& command, int64_t timeout_ms);
  // Kills the child's process group if the child still runs, and reaps it.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Sends one request and waits for its response. Errors say what happened without the request
  // context: "no answer within 30 s (child killed)", "the child exited with status 3 (<likely
  // cause>); its stderr ended with: <its last lines>", "the child
  // sent a frame length 1819043144 ...", "unparseable Response (7 bytes)".
  Result<Response> Call(const Request& request);
  // Closes the child's stdin and waits for it to exit: an error unless it exits with status 0.
  Outcome Close();
  // The CPU time (user and system, from the kernel) the child used, with the children it waited
  // for, once it has exited and been reaped (after Close); -1 before. For benchmarks only.
  int64_t cpu_ns() const { return cpu_ns_; }

 private:
  Client(pid_t pid, int to_child, int from_child, int64_t timeout_ms)
      : pid_(pid), to_child_(to_child), from_child_(from_child), timeout_ms_(timeout_ms) {}
  // How long Reap waits for the rest of a dead child's stderr.
  static constexpr int64_t kStderrWaitMs = 500;
  // Waits up to the time limit for the child to exit; describes how it ended (or that it did
  // not), with the likely cause and the last lines of its stderr.
  std::string Reap();
  void Kill();

  pid_t pid_;
  int to_child_;
  int from_child_;
  int64_t timeout_ms_;
  bool reaped_ = false;
  int status_ = 0;
  int64_t cpu_ns_ = -1;
  std::unique_ptr<ChildStderr> stderr_;
};

// "30 s", "0.5 s": a time limit for messages.
std::string DescribeMs(int64_t ms);

}  // namespace schedcheck::protocol

#endif  // SCHEDCHECK_HARNESS_PROTOCOL_CLIENT_H_
