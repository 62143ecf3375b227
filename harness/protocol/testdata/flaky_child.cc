// Fake child for the protocol tests: serves the reference (protocol::Session) for N requests, then
// fails on the next one. `flaky_child N` exits with status 7 without answering; `flaky_child N
// truncate` writes the first half of the real answer's frame, then exits with status 7;
// `flaky_child N kill` answers N requests, then kills itself with SIGKILL (a child dying mid-run).
#include <unistd.h>

#include <csignal>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "harness/protocol/framing.h"
#include "harness/protocol/server.h"

int main(int argc, char** argv) {
  using namespace schedcheck::protocol;
  if (argc < 2) {
    std::cerr << "usage: flaky_child N [truncate|kill]\n";
    return 2;
  }
  const int answers = std::atoi(argv[1]);
  const bool truncate = argc > 2 && std::strcmp(argv[2], "truncate") == 0;
  const bool kill_self = argc > 2 && std::strcmp(argv[2], "kill") == 0;
  Session session{ServeOptions{}};
  for (int n = 0;; ++n) {
    std::string payload;
    if (!ReadFrame(STDIN_FILENO, -1, &payload).ok()) return 0;
    Request request;
    if (!request.ParseFromString(payload)) return 2;
    std::string bytes;
    session.Handle(request).SerializeToString(&bytes);
    if (n == answers && kill_self) std::raise(SIGKILL);
    if (n == answers) {
      if (truncate) {
        std::string frame = EncodeFrame(bytes);
        (void)!write(STDOUT_FILENO, frame.data(), frame.size() / 2);
      }
      std::cerr << "flaky_child: dying at request " << n + 1 << "\n";
      return 7;
    }
    if (!WriteFrame(STDOUT_FILENO, bytes, -1).ok()) return 2;
  }
}
