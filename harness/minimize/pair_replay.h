// Replays one trace with the reference and with a candidate build and diffs the two decision logs:
// the question `schedcheck minimize` asks of every reduced trace. An out-of-process candidate
// (exec:, kube:) runs in one child process kept for every replay (protocol::ReplaySession: a new
// Hello per run), so hundreds of reduced traces do not start hundreds of processes.
#ifndef SCHEDCHECK_HARNESS_MINIMIZE_PAIR_REPLAY_H_
#define SCHEDCHECK_HARNESS_MINIMIZE_PAIR_REPLAY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/candidates/candidate.h"
#include "harness/diff/diff.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "reference/base/result.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::minimize {

struct PairReplayOptions {
  // The reference's replay: configuration, compat, seed, horizon, latencies, epoch. The candidate
  // replays with the same options except its configuration and plugin registry.
  replay::ReplayOptions reference;
  candidates::Candidate candidate;
  // Sent in Hello to an out-of-process candidate (empty: its default profile).
  std::string candidate_config_yaml;
  std::string candidate_config_source;
  int64_t timeout_ms = protocol::kDefaultTimeoutMs;  // per answer of the child
  // Decisions a child may send per replay (the records limit, `--limit records=N`).
  int64_t max_decisions = trace::InputLimits{}.records;
  diff::DiffOptions diff;
};

struct PairLogs {
  std::vector<trace::Record> reference;
  std::vector<trace::Record> candidate;
  diff::DiffResult diff;
};

class PairReplay {
 public:
  explicit PairReplay(PairReplayOptions options);
  ~PairReplay();
  PairReplay(const PairReplay&) = delete;
  PairReplay& operator=(const PairReplay&) = delete;

  // Both logs and their diff. Errors: "reference replay: ..." (the trace itself is bad) or
  // "candidate replay: ..." (an in-process build failed, or the child failed: it is killed and the
  // next replay starts a new one).
  Result<PairLogs> Run(const std::vector<trace::Record>& records);
  // Closes the child, if any: an error unless it exits with status 0.
  Outcome Close();
  // Child processes started so far (0 for an in-process candidate).
  int children_started() const { return children_started_; }

 private:
  Result<std::vector<trace::Record>> ReplayInProcess(
      const replay::ReplayOptions& options, const std::vector<trace::Record>& records) const;

  PairReplayOptions options_;
  replay::ReplayOptions
      candidate_options_;  // in process: options_.reference with the candidate's build
  protocol::Hello hello_;  // out of process
  std::unique_ptr<protocol::ReplaySession> session_;
  int children_started_ = 0;
};

}  // namespace schedcheck::minimize

#endif  // SCHEDCHECK_HARNESS_MINIMIZE_PAIR_REPLAY_H_
