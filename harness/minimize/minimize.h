// Minimization of a diverging trace, so that a divergence found on a large trace can be read: the
// smallest trace found on which the candidate still diverges from the reference in the same way —
// the first divergence has the same class (hard, requeue, soft) and the same pod as the input's
// first divergence.
//
// Rounds of ddmin passes (ddmin.h) over the units of trace_units.h, each pass starting from what
// the previous one left:
//   1. events, coarsely (at most 16 chunks): long irrelevant stretches go first, cheaply, so the
//      traces the next passes replay are small;
//   2. nodes, each with every pod the reference bound to it (or the trace binds to it) — a full
//      node and the pods filling it go together, where removing either alone would change which
//      pod diverges first;
//   3. objects: a node, a pod, ... with all of its events (which single-event removal cannot do
//      when an ADDED and its updates are only valid together);
//   4. events, to 1-minimality;
//   5. fields (labels, selectors, taints, tolerations, requests, affinity, spread constraints).
// A round that removes anything is followed by another (a removed field can make an event
// removable), until nothing changes, the round limit or the replay budget.
//
// Deterministic given a deterministic oracle. Every trace asked about is a sublist of the input's
// events with fields removed, so times and order stay those of the input.
#ifndef SCHEDCHECK_HARNESS_MINIMIZE_MINIMIZE_H_
#define SCHEDCHECK_HARNESS_MINIMIZE_MINIMIZE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/diff/diff.h"
#include "harness/minimize/trace_units.h"
#include "reference/base/result.h"
#include "traces/trace.pb.h"

namespace schedcheck::minimize {

// What the oracle says about one trace.
struct Verdict {
  diff::DiffResult diff;
  // Where the reference bound each pod ("ns/name" -> node) in this trace: pass 1's groups.
  std::map<std::string, std::string> reference_bindings;
};

// The verdict from the reference's decision log and the diff.
Verdict VerdictOf(const std::vector<trace::Record>& reference_log, diff::DiffResult diff);

// Replays a trace with the reference and the candidate and diffs them (PairReplay, or a fake in
// tests). An error means the trace could not be replayed to the end by one side.
using DiffOracle = std::function<Result<Verdict>(const std::vector<trace::Record>& records)>;

struct MinimizeOptions {
  int64_t max_replays =
      2000;  // oracle calls on reduced traces (the input's own not counted); < 0: no limit
  bool reduce_fields = true;
  int max_rounds = 4;
};

struct MinimizeStats {
  size_t events_before = 0, events_after = 0;
  size_t objects_before = 0, objects_after = 0;
  size_t fields_before = 0, fields_after = 0;
  int64_t replays = 0;          // oracle calls, the input's included
  int64_t failed_replays = 0;   // calls answered by an error (counted as not diverging)
  int64_t invalid_skipped = 0;  // reduced traces rejected as invalid without a replay
  int rounds = 0;
  bool budget_exhausted = false;  // the result need not be 1-minimal
};

struct MinimizeResult {
  // False: the input shows no divergence; nothing below is set.
  bool diverges = false;
  diff::Divergence target;                // the input's first divergence
  std::vector<trace::Record> records;     // the minimal trace (API events only)
  diff::DiffResult diff;                  // its diff, as the last successful test found it
  std::vector<FieldUnit> removed_fields;  // those of the objects still in `records`
  MinimizeStats stats;
};

// Whether `result`'s first divergence is `target`'s: same class, same pod.
bool SameDivergence(const diff::DiffResult& result, const diff::Divergence& target);

// Errors: the input cannot be replayed (the oracle's error on it).
Result<MinimizeResult> Minimize(const std::vector<trace::Record>& input, const DiffOracle& oracle,
                                const MinimizeOptions& options = {});

}  // namespace schedcheck::minimize

#endif  // SCHEDCHECK_HARNESS_MINIMIZE_MINIMIZE_H_
