// Replays a trace against a scheduler running as a child process (PROTOCOL.md): the same instants,
// in the same order, as replay::Replayer::Run gives the in-process reference, so the decision logs
// of the two compare byte for byte. Whatever goes wrong with the child, the decisions received
// before it are kept.
#ifndef SCHEDCHECK_HARNESS_PROTOCOL_EXTERNAL_REPLAY_H_
#define SCHEDCHECK_HARNESS_PROTOCOL_EXTERNAL_REPLAY_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "harness/protocol/protocol.pb.h"
#include "harness/replay/replayer.h"
#include "harness/replay/summary.h"
#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::protocol {

inline constexpr int64_t kDefaultTimeoutMs = 30'000;

struct ExternalReplayOptions {
  std::string command;                     // run as `/bin/sh -c command`
  int64_t timeout_ms = kDefaultTimeoutMs;  // real-time limit per request
  // Decision records accepted from the child in one run (`--limit records=N`; a child streaming
  // without end is an error, not an out-of-memory death).
  int64_t max_decisions = trace::InputLimits{}.records;
  // Everything but protocol_version (filled in). horizon_ns also sets Finish.end_ns.
  Hello hello;
  // Follow the cluster (harness/replay/follow_cluster.h), as ReplayOptions::follow_cluster does
  // in process: each observed binding becomes the follower's events, decided on the child's
  // decisions up to an instant 1 ns before it.
  bool follow_cluster = false;
};

struct ExternalReplay {
  // Bad input (the trace's times go backwards): no child was started, nothing was replayed.
  bool bad_input = false;
  // OK, or what went wrong naming the request: "request 4 (Events at t=12 s, trace records
  // 17-18): no answer within 30 s; the child was killed".
  Outcome status;
  int requests_answered = 0;
  HelloAck ack;
  std::vector<trace::Record> decisions;  // every decision received, in order
  replay::ClusterEventLog cluster_events;
  // Parallel to cluster_events, when the child gave every move's registrants (MoveRequest.
  // registrations_known); else registrants_known is false.
  std::vector<std::set<std::string>> event_registrants;
  bool registrants_known = true;
  replay::FollowReport follow;  // with ExternalReplayOptions::follow_cluster
};

// The Hello asking a child for the replay that `options` describe in process (compat, seed,
// latencies, epoch, horizon); the configuration goes as text (empty: the default profile).
Hello HelloFor(const replay::ReplayOptions& options, const std::string& config_yaml,
               const std::string& config_source);

// Checks one Decisions answer received before the time `limit_ns` (PROTOCOL.md): each record must
// be an attempt, queue or binding record at a time in [*last_time_ns, limit_ns]. Appends the
// records before the first bad one and the move requests to `out`; advances *last_time_ns. More
// than `max_decisions` records in `out` in all is an error naming the limit.
Outcome AcceptDecisions(const Decisions& decisions, int64_t limit_ns, int64_t* last_time_ns,
                        ExternalReplay* out, int64_t max_decisions = trace::InputLimits{}.records);

ExternalReplay RunExternalReplay(const std::vector<trace::Record>& records,
                                 const ExternalReplayOptions& options);

// The last line of the JSON Lines decision log of a run whose child failed (PROTOCOL.md,
// "Failures"):
//   {"t":12.5,"type":"incomplete","reason":"scheduler command `x`: request 4 (...):
//   ...","decisions":17}
// t is the time of the last decision received (0 without one), decisions how many were received.
// REQUIRES: !run.status.ok().
std::string IncompleteJsonLine(const ExternalReplay& run);

// Many replays through one child process (PROTOCOL.md, "One process, many runs"): after a run's
// Finish the next run starts with a new Hello, so a campaign of many small traces does not pay a
// process start per trace. A child that fails is killed, and the next run starts a new one.
class ReplaySession {
 public:
  // `max_decisions`: as ExternalReplayOptions's, per run.
  ReplaySession(std::string command, int64_t timeout_ms = kDefaultTimeoutMs,
                int64_t max_decisions = trace::InputLimits{}.records);
  ~ReplaySession();
  ReplaySession(const ReplaySession&) = delete;
  ReplaySession& operator=(const ReplaySession&) = delete;

  // One replay, as RunExternalReplay with `hello`, on the kept child.
  ExternalReplay Replay(const std::vector<trace::Record>& records, const Hello& hello);
  // Closes the child's stdin and waits for it: an error unless it exits with status 0.
  Outcome Close();
  // Replays completed on the child now running (0 after a failure or before the first).
  int runs_on_child() const { return runs_on_child_; }
  // CPU time of the children this session closed (Client::cpu_ns), for benchmarks.
  int64_t closed_children_cpu_ns() const { return closed_children_cpu_ns_; }

 private:
  std::string command_;
  int64_t timeout_ms_;
  int64_t max_decisions_;
  std::unique_ptr<class Client> client_;
  int runs_on_child_ = 0;
  int64_t closed_children_cpu_ns_ = 0;
};

}  // namespace schedcheck::protocol

#endif  // SCHEDCHECK_HARNESS_PROTOCOL_EXTERNAL_REPLAY_H_
