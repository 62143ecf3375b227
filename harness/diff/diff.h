// The decision-log diff: a pure checker that walks a reference log (A) and a candidate log (B),
// pod by pod, and classifies where they part, since not every difference is a regression:
//   hard    — a different outcome: bound where the reference found no node, unschedulable where
//             the reference bound, different rejecting plugins or message, different nomination
//             or victims, a pod only one side attempted;
//   soft    — bound to a node outside the reference's tied top-score set while the reference also
//             scheduled the pod (a feasible but lower-scoring node: a moved placement). It fails
//             like the others unless soft divergences are allowed (`--allow-soft`, for builds
//             that knowingly sample or randomise);
//   requeue — the same outcomes, but attempts at other times (beyond the tolerance), a different
//             number of attempts, or a different queue path (from, to, cause).
// Placement is tie-aware: B's node inside A's `ties` is equivalent. Only decision records are
// read (API records of a capture are ignored).
//
// Against a capture (a log holding observed decisions) only what a capture carries is compared:
// each pod's sequence of distinct outcomes — FailedScheduling messages, consecutive repeats folded
// into one (the events API aggregates repeated events, so a capture does not show every attempt)
// — the bound node (tie-aware), and the time each outcome first appeared; rejecting plugins,
// nomination and victims only if the capture's observed records carry them at all: on its
// attempts, or as Nomination and Preemption records (import --from watch), which are compared
// per pod (the sequence of nominated nodes, the set of victims the pod preempted) since a capture
// does not say which attempt they came with. What was not compared is listed in
// DiffResult::not_compared.
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
  int64_t t_ns = 0;       // the earlier of the two sides' times for the differing item
  int attempt = 0;        // the attempt concerned (1-based), 0 for a queue-path difference
  std::string what;       // "outcome", "placement", "victims", "nomination", "plugins",
                          // "message", "attempt-time", "attempt-count", "queue-path", "missing"
  std::string reference;  // what A did, one line
  std::string candidate;  // what B did, one line
  // The plugins concerned: the rejecting plugins of the attempt (hard) or of the reference's
  // attempt before the requeue (requeue: the plugins whose events should have moved the pod).
  std::vector<std::string> plugins;
  int64_t reference_record = -1;  // index in A of the attempt concerned (-1: none)
  int64_t candidate_record = -1;  // index in B of its counterpart (-1: none)
};

struct DiffOptions {
  int64_t time_tolerance_ns = 0;  // attempt and queue times within this are equal
};

// The tolerance `schedcheck diff` uses against a capture unless told otherwise: a capture's
// timestamps have whole-second resolution (creationTimestamp, lastTimestamp) and include the
// cluster's API latency.
inline constexpr int64_t kCaptureTimeToleranceNs = 2'000'000'000;

// True when the log holds observed decisions (an imported capture).
bool IsCapture(const std::vector<trace::Record>& log);

// The tolerance when none was asked for: kCaptureTimeToleranceNs when either log is a capture,
// else 0.
int64_t DefaultTimeToleranceNs(const std::vector<trace::Record>& a,
                               const std::vector<trace::Record>& b);

struct DiffResult {
  // At most one divergence per pod and class (the earliest of that class for the pod), ordered
  // by time, then class (hard, requeue, soft), then pod.
  std::vector<Divergence> divergences;
  size_t pods_compared = 0;
  // Against a capture: what could not be compared because the capture does not carry it, one
  // phrase each ("rejecting plugins (...)"); empty between two replays.
  std::vector<std::string> not_compared;
  size_t Count(DivergenceClass c) const;
  // True when some divergence fails the comparison: any, or only hard and requeue ones when
  // `allow_soft`.
  bool Fails(bool allow_soft = false) const;
};

DiffResult Diff(const std::vector<trace::Record>& reference,
                const std::vector<trace::Record>& candidate, const DiffOptions& options = {});

// How texts name the two sides: A is the reference unless a baseline build replayed it.
struct SideNames {
  std::string a = "reference";
  std::string b = "candidate";
};

// "pod default/p at t=10 (attempt 2): queue-path [requeue]: reference ... ; candidate ... ;
// plugins TaintToleration" — one line, the sides named by `names`.
std::string Describe(const Divergence& d, const SideNames& names = {});

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_DIFF_H_
