// The decision-log diff: a pure checker that walks a reference log (A) and a candidate log (B),
// pod by pod, and classifies where they part (issue 6 item 1):
//   hard    — a different outcome: bound where the reference found no node, unschedulable where
//             the reference bound, different rejecting plugins or message, different nomination
//             or victims, a pod only one side attempted;
//   soft    — bound to a node outside the reference's tied top-score set while the reference also
//             scheduled the pod (a feasible but lower-scoring node);
//   requeue — the same outcomes, but attempts at other times (beyond the tolerance), a different
//             number of attempts, or a different queue path (from, to, cause).
// Placement is tie-aware: B's node inside A's `ties` is equivalent. Only decision records are
// read (API records of a capture are ignored). When a log holds observed decisions (a capture),
// only those are compared and, as captures carry no queue transitions, queue paths are compared
// only where both sides have them.
#ifndef SCHEDCHECK_HARNESS_DIFF_DIFF_H_
#define SCHEDCHECK_HARNESS_DIFF_DIFF_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/trace.pb.h"

namespace schedcheck::diff {

enum class DivergenceClass { kHard, kRequeue, kSoft };
std::string_view ClassName(DivergenceClass c);  // "hard", "requeue", "soft"

struct Divergence {
  DivergenceClass cls = DivergenceClass::kHard;
  std::string pod;
  int64_t t_ns = 0;         // the earlier of the two sides' times for the differing item
  int attempt = 0;          // the attempt concerned (1-based), 0 for a queue-path difference
  std::string what;         // "outcome", "placement", "victims", "nomination", "plugins",
                            // "message", "attempt-time", "attempt-count", "queue-path", "missing"
  std::string reference;    // what A did, one line
  std::string candidate;    // what B did, one line
  // The plugins concerned: the rejecting plugins of the attempt (hard) or of the reference's
  // attempt before the requeue (requeue: the plugins whose events should have moved the pod).
  std::vector<std::string> plugins;
  int64_t reference_record = -1;  // index in A of the attempt concerned (-1: none)
};

struct DiffOptions {
  int64_t time_tolerance_ns = 0;  // attempt and queue times within this are equal
};

struct DiffResult {
  // At most one divergence per pod and class (the earliest of that class for the pod), ordered
  // by time, then class (hard, requeue, soft), then pod.
  std::vector<Divergence> divergences;
  size_t pods_compared = 0;
  size_t Count(DivergenceClass c) const;
  // True when some divergence fails the comparison: hard or requeue; soft only if `soft_fails`.
  bool Fails(bool soft_fails) const;
};

DiffResult Diff(const std::vector<trace::Record>& reference, const std::vector<trace::Record>& candidate,
                const DiffOptions& options = {});

// "pod default/p at t=10 (attempt 2): queue-path [requeue]: reference ... ; candidate ... ;
// plugins TaintToleration" — one line.
std::string Describe(const Divergence& d);

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_DIFF_H_
