// Replays one trace through two builds — a baseline and a candidate, each with its own scheduler
// configuration — and diffs the two decision logs: the question `gate` asks of every corpus trace
// and `minimize` of every reduced trace. Either side may be the reference, an in-process variant
// of it or an out-of-process build (exec:, kube:); the baseline is the reference unless told
// otherwise. An out-of-process side runs in one child process kept for every replay of this
// PairReplay (protocol::ReplaySession: a new Hello per run), so hundreds of reduced traces do not
// start hundreds of processes.
#ifndef SCHEDCHECK_HARNESS_GATE_PAIR_REPLAY_H_
#define SCHEDCHECK_HARNESS_GATE_PAIR_REPLAY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/candidates/candidate.h"
#include "harness/diff/diff.h"
#include "harness/protocol/external_replay.h"
#include "harness/replay/replayer.h"
#include "reference/base/result.h"
#include "reference/k8s/yaml_limits.h"
#include "traces/input_limits.h"
#include "traces/trace.pb.h"

namespace schedcheck::gate {

// One side of a pair: a build and the configuration it runs with.
struct PairSide {
  // Names the side in errors ("reference replay: ...", "baseline replay: ...").
  std::string name;
  // In process: `build.config` and `build.registry` are replayed. Out of process: `build.command`
  // is the child, sent `config_yaml` (empty: its default profile) named `config_source`.
  candidates::Candidate build;
  std::string config_yaml;
  std::string config_source;
};

// The reference with `config`, as a side named "reference" (the default baseline).
PairSide ReferenceSide(const reference::SchedulerConfiguration& config,
                       const std::string& config_yaml = "", const std::string& config_source = "");

// The side `spec` (candidates/candidate.h) with the KubeSchedulerConfiguration in the file
// `config_path` ("": the default profile at `compat`). An in-process spec is applied to the parsed
// configuration; an out-of-process build is sent the file's text unparsed, so its configuration
// may name plugins the reference does not have. Errors name the file or the spec.
Result<PairSide> LoadSide(const std::string& name, const std::string& spec,
                          const std::string& config_path, const std::string& compat,
                          const k8s::YamlLimits& yaml);

// How reports name a side: "<name> <spec>", then " with <config file>" when it has one, else
// " (default profile)" when `say_default`.
std::string SideLabel(const PairSide& side, bool say_default = true);

struct PairReplayOptions {
  // Both replays' options: compat, seed, horizon, latencies, epoch, feature gates, volume model.
  // Its `config` and `registry` are not used: each side brings its own.
  replay::ReplayOptions replay;
  PairSide baseline;
  PairSide candidate;
  int64_t timeout_ms = protocol::kDefaultTimeoutMs;  // per answer of a child
  // Decisions a child may send per replay (the records limit, `--limit records=N`).
  int64_t max_decisions = trace::InputLimits{}.records;
  diff::DiffOptions diff;
};

struct PairLogs {
  std::vector<trace::Record> baseline;
  std::vector<trace::Record> candidate;
  diff::DiffResult diff;  // baseline (A) vs candidate (B)
};

enum class Which { kBaseline, kCandidate };

class PairReplay {
 public:
  explicit PairReplay(PairReplayOptions options);
  ~PairReplay();
  PairReplay(const PairReplay&) = delete;
  PairReplay& operator=(const PairReplay&) = delete;

  // Both logs and their diff. Errors: "<side name> replay: ..." (an in-process replay failed, or
  // the child failed: it is killed and that side's next replay starts a new one).
  Result<PairLogs> Run(const std::vector<trace::Record>& records);
  // One side's log alone, e.g. to replay it again; its error is the replay's or child's own text.
  Result<std::vector<trace::Record>> Replay(Which which, const std::vector<trace::Record>& records);
  // Replays from now on with `replay` (another trace's seed, say), keeping the children: a
  // campaign replays every trace on the same two processes.
  void SetReplayOptions(const replay::ReplayOptions& replay);
  // Replays from now on with these sides (another trace's configurations), keeping the children.
  // REQUIRES: each side's build runs the same command as before (or runs in process as before).
  void SetSides(PairSide baseline, PairSide candidate);
  // Closes the children, if any: an error unless each exits with status 0.
  Outcome Close();
  // Child processes started so far by both sides (0 when both are in process).
  int children_started() const { return children_started_; }
  const PairReplayOptions& options() const { return options_; }
  const PairSide& side(Which which) const {
    return which == Which::kBaseline ? options_.baseline : options_.candidate;
  }

 private:
  struct Runner {
    replay::ReplayOptions in_process;  // options_.replay with the side's build
    protocol::Hello hello;             // out of process
    std::unique_ptr<protocol::ReplaySession> session;
  };
  Runner& runner(Which which) { return which == Which::kBaseline ? baseline_ : candidate_; }
  void Prepare(const PairSide& side, Runner* runner) const;

  PairReplayOptions options_;
  Runner baseline_, candidate_;
  int children_started_ = 0;
};

// Where two logs of one build on one trace first differ: empty when they are equal, else "record N:
// <first's JSON line> vs <second's>" (N from 1; "(none)" for a log that ended).
std::string FirstDifference(const std::vector<trace::Record>& first,
                            const std::vector<trace::Record>& second);

}  // namespace schedcheck::gate

#endif  // SCHEDCHECK_HARNESS_GATE_PAIR_REPLAY_H_
