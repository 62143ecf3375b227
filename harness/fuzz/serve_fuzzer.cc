// The external-scheduler protocol's child side as `schedcheck serve` reads its stdin: frames
// (4-byte length + Request) through Serve, answering into /dev/null. Replays whatever the requests
// describe, so it covers the reference's replay (Replayer) on hostile times and objects too.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <sstream>

#include "harness/fuzz/fuzz_util.h"
#include "harness/protocol/server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  int in = fuzz::InputFd(fuzz::Bytes(data, size));
  static int out = open("/dev/null", O_WRONLY | O_CLOEXEC);
  std::ostringstream log;
  (void)protocol::Serve(in, out, protocol::ServeOptions{}, log);
  close(in);
  return 0;
}
