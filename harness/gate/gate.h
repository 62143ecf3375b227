// The CI gate, so that a scheduler change is refused before it merges: replays every trace of a
// corpus folder with the reference and with a candidate build, diffs the decisions and explains
// each trace's first divergence on the reference's snapshot, with both sides' configurations. An
// out-of-process candidate (exec:, kube:) is run as one child process per trace; its side of an
// explanation is a note only.
#ifndef SCHEDCHECK_HARNESS_GATE_GATE_H_
#define SCHEDCHECK_HARNESS_GATE_GATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "harness/diff/report.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"
#include "reference/engine/engine.h"
#include "traces/input_limits.h"

namespace schedcheck::gate {

struct GateOptions {
  std::string corpus =
      "traces/corpus";                  // <name>.jsonl or <name>.trace, optional <name>.config.yaml
  std::string candidate = "reference";  // candidates/candidate.h spec
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
};

// The corpus traces, sorted by file name.
Result<std::vector<std::string>> CorpusTraces(const std::string& dir);

// One NamedDiff per trace (named by file name). Errors (exit 2): an unreadable corpus, trace or
// configuration, a bad candidate spec (a kube: adapter that is not built), a reference or
// in-process replay that fails; each names the file. An out-of-process candidate whose child fails
// on a trace (dies, times out, writes garbage) does not stop the gate: that trace's NamedDiff has
// the child's error text in `error` (RunGateCommand then exits 2).
Result<std::vector<diff::NamedDiff>> RunGate(const GateOptions& options);

}  // namespace schedcheck::gate

#endif  // SCHEDCHECK_HARNESS_GATE_GATE_H_
