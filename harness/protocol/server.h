// The child side of the external-scheduler protocol: the reference scheduler (replay::Replayer)
// behind PROTOCOL.md, as run by `schedcheck serve`. A Session turns requests into responses; Serve
// runs one session over two file descriptors (stdin/stdout). Logs go to the given stream only.
#ifndef SCHEDCHECK_HARNESS_PROTOCOL_SERVER_H_
#define SCHEDCHECK_HARNESS_PROTOCOL_SERVER_H_

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

#include "harness/protocol/protocol.pb.h"
#include "harness/replay/replayer.h"
#include "reference/base/result.h"
#include "traces/input_limits.h"

namespace schedcheck::protocol {

struct ServeOptions {
  // Non-empty: this KubeSchedulerConfiguration file, whatever Hello.config_yaml holds (the
  // configuration is part of the build under test).
  std::string config_path;
  std::string scheduler_name = "schedcheck-reference";
  std::string scheduler_version;
  // What one session accepts (`serve --limit`, harness/fuzz/README.md): objects in all its
  // Events (records), each object's strings, keys and maps, and the configuration's YAML.
  trace::InputLimits limits;
};

class Session {
 public:
  explicit Session(ServeOptions options);
  ~Session();

  // The response to one request (PROTOCOL.md "Ordering"). After an Error response every later
  // request is answered with an Error too.
  Response Handle(const Request& request);
  // True once Finish has been answered.
  bool finished() const { return finished_; }

 private:
  Response OnHello(const Hello& hello);
  Response OnEvents(const Events& events);
  Response OnFinish(const Finish& finish);
  Response Fail(std::string message);
  // The records and move requests produced since the previous answer.
  Response NewDecisions();

  ServeOptions options_;
  std::unique_ptr<replay::Replayer> replayer_;
  bool version_mismatch_ = false;
  bool failed_ = false;
  bool finished_ = false;
  int64_t events_received_ = 0;  // objects in this run's Events so far
  size_t sent_records_ = 0;
  size_t sent_moves_ = 0;
};

// Serves requests read from `in_fd`, answering on `out_fd`, until `in_fd` ends. OK for a clean end
// between frames; an error (already logged to `log`) for garbage input or a failed write.
Outcome Serve(int in_fd, int out_fd, const ServeOptions& options, std::ostream& log);

}  // namespace schedcheck::protocol

#endif  // SCHEDCHECK_HARNESS_PROTOCOL_SERVER_H_
