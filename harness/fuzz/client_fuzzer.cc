// The harness side of the protocol reading a child's answers, as `replay --scheduler-cmd`, `gate`
// and `--candidate exec:/kube:` do: frames read with the client's ReadFrame, parsed as Responses,
// Decisions checked by AcceptDecisions, then what the replay command does with the decisions
// received (the decision log as JSON Lines and as a trace, the summary).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "harness/fuzz/fuzz_util.h"
#include "harness/protocol/external_replay.h"
#include "harness/protocol/framing.h"
#include "harness/replay/decision_log.h"
#include "harness/replay/summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedcheck;
  int in = fuzz::InputFd(fuzz::Bytes(data, size));
  protocol::ExternalReplay out;
  int64_t last_time_ns = 0;
  for (int64_t limit_ns = 1'000'000'000;; limit_ns += 1'000'000'000) {
    std::string payload;
    protocol::IoStatus read = protocol::ReadFrame(in, 1000, &payload);
    if (!read.ok()) break;
    protocol::Response response;
    if (!response.ParseFromString(payload)) break;
    if (!response.has_decisions()) continue;
    if (!protocol::AcceptDecisions(response.decisions(), limit_ns, &last_time_ns, &out)) break;
  }
  close(in);
  replay::DecisionLog log;
  for (const trace::Record& r : out.decisions) log.Add(r);
  (void)log.ToJsonLines();
  (void)replay::Summarize(log.records(), out.cluster_events);
  trace::Header header;
  header.set_producer("schedcheck replay");
  (void)log.WriteTrace(fuzz::TempDir() + "/decisions.trace", header);
  return 0;
}
