// The CI gate, so that a scheduler change is refused before it merges: replays every trace of a
// corpus folder with a baseline build (the reference unless told otherwise) and a candidate build,
// each with its own configuration (pair_replay.h), diffs the decisions and explains each trace's
// first divergence on the baseline's snapshot, with the in-process sides' configurations. An
// out-of-process side (exec:, kube:) is run as one child process per trace; its side of an
// explanation is a note only.
//
// Determinism: a trace on which the pair diverges is replayed once more by each out-of-process
// side (with check_determinism, every trace is); a side whose second log differs from its first
// makes the trace's outcome "not deterministic" instead of a divergence. In-process sides are the
// reference's engine, deterministic by construction (ci/determinism.sh checks it).
#ifndef SCHEDCHECK_HARNESS_GATE_GATE_H_
#define SCHEDCHECK_HARNESS_GATE_GATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "harness/diff/report.h"
#include "harness/diff/score_drift.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "traces/input_limits.h"

namespace schedcheck::gate {

struct GateOptions {
  std::string corpus =
      "traces/corpus";                  // <name>.jsonl or <name>.trace, optional <name>.config.yaml
  std::string candidate = "reference";  // candidates/candidate.h spec
  std::string baseline = "reference";   // the other side's spec (`--baseline`)
  // Each side's KubeSchedulerConfiguration file (`--baseline-config`, `--candidate-config`); empty:
  // the trace's <name>.config.yaml, else the default profile.
  std::string baseline_config;
  std::string candidate_config;
  // Replay out-of-process sides twice on every trace, not only on divergent ones.
  bool check_determinism = false;
  diff::DiffOptions diff;
  int64_t timeout_ms =
      30'000;  // per answer of an out-of-process candidate (protocol::kDefaultTimeoutMs)
  trace::InputLimits limits;  // for reading each corpus trace (`--limit`)
  reference::Engine engine =
      reference::Engine::kFast;           // the in-process replays' engine (`--engine`)
  std::string compat = "1.27";            // the level both sides replay at (`--compat`)
  reference::FeatureGates feature_gates;  // both sides' `--feature-gates`
  bool volume_controllers = false;        // both sides' `--volume-controllers`
  int64_t volume_latency_ns = 0;          // both sides' `--volume-latency`
  // `--scores`: with report or fail both sides record the top kGateScoreTop nodes' scores and
  // each trace's score drift is compared (diff/score_drift.h); auto is fail when neither side is
  // the reference (two builds at the gate's one level), else off; off records nothing.
  diff::ScoresMode scores = diff::ScoresMode::kAuto;
};

inline constexpr uint32_t kGateScoreTop = 3;

// Whether the gate records and compares scores, and whether drift fails, for `options`.
bool GateComparesScores(const GateOptions& options);
bool GateScoreDriftFails(const GateOptions& options);

// The corpus traces, sorted by file name.
Result<std::vector<std::string>> CorpusTraces(const std::string& dir);

// One trace's outcome: its diff, or the child's error, or that a build is not deterministic on it.
struct GateTrace : diff::NamedDiff {
  // "build SPEC is not deterministic on trace NAME: first difference at record N: A vs B"; when
  // set, `result` is empty and `error` holds the same text (reports show it as not passing).
  std::string nondeterministic;
};

// One GateTrace per trace (named by file name). Errors (exit 2): an unreadable corpus, trace or
// configuration, a bad spec (a kube: adapter that is not built), an in-process replay that fails;
// each names the file. An out-of-process side whose child fails on a trace (dies, times out,
// writes garbage) does not stop the gate: that trace has the child's error text in `error`
// (RunGateCommand then exits 2).
Result<std::vector<GateTrace>> RunGate(const GateOptions& options);

// "baseline SPEC" / "candidate SPEC" plus their configurations when not both the trace's, for
// titles and report names; "candidate SPEC vs reference" when the baseline is the default one.
std::string GateTitle(const GateOptions& options);

}  // namespace schedcheck::gate

#endif  // SCHEDCHECK_HARNESS_GATE_GATE_H_
