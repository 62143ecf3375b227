// The node- and victim-ranking rules of kube-scheduler's preemption evaluator, v1.27
// (framework/preemption/preemption.go, scheduler/util/utils.go, and the PDB split of
// plugins/defaultpreemption/default_preemption.go). Pure functions; DefaultPreemption drives them.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_PREEMPTION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_PREEMPTION_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// A node preemption could free for the preemptor, with the pods to evict there (v1.27 order:
// PDB-violating victims first, then the others, each most important first).
struct Candidate {
  std::string node;
  std::vector<PodPtr> victims;
  int64_t num_pdb_violations = 0;
};

// status.startTime in nanoseconds since the Unix epoch; nullopt when unset or unparsable (upstream
// then uses time.Now()).
std::optional<int64_t> PodStartTimeNs(const Pod& pod);

// The "now" preemption compares start times with when no clock is known (plugin tests, `check`):
// later than any recorded start, as the wall clock is in a live cluster.
inline constexpr int64_t kNowAfterEveryStart = std::numeric_limits<int64_t>::max() / 2;

// util.MoreImportantPod: higher priority first; at equal priority the earlier start time. A pod
// without a start time stands for "now" (GetPodStartTime's time.Now(); the replay's wall clock,
// epoch + virtual time, in `now_ns`), read after `now_ns`: upstream evaluates time.Now() for `a`
// before `b`, so two such pods compare as a-before-b (true); a pod started before now is more
// important than an unstarted one, and an unstarted one more important than a pod whose recorded
// start is later than now (a trace whose epoch precedes its start times).
bool MoreImportantPod(const Pod& a, const Pod& b, int64_t now_ns = kNowAfterEveryStart);

// sort.Slice(victims, MoreImportantPod) as Go 1.20 runs it for slices of at most 12 elements: an
// insertion sort swapping while less(v[j], v[j-1]). With the "now" rule above this reverses runs
// of equal-priority unstarted pods. Longer slices use pdqsort upstream (not emulated: we keep the
// insertion sort, so orders of equally important victims may differ there).
void SortByImportance(std::vector<PodInfoPtr>& pods, int64_t now_ns = kNowAfterEveryStart);

// filterPodsWithPDBViolation: walks `pods` in order with a per-PDB budget starting at
// status.disruptionsAllowed; a pod decrements every PDB of its namespace whose (valid, non-empty)
// selector matches its labels and which does not list it in status.disruptedPods; it is violating
// when any budget drops below 0. Order is preserved within each group.
void FilterPodsWithPdbViolation(const std::vector<PodInfoPtr>& pods,
                                const std::vector<const k8s::PodDisruptionBudget*>& pdbs,
                                std::vector<PodInfoPtr>* violating,
                                std::vector<PodInfoPtr>* non_violating);

// nodesWherePreemptionMightHelp: every node (snapshot order) whose status is not
// UnschedulableAndUnresolvable (no status counts as helpful); the others get
// UAU "Preemption is not helpful for scheduling" in `unhelpful`.
inline constexpr std::string_view kPreemptionNotHelpful =
    "Preemption is not helpful for scheduling";
std::vector<const NodeInfo*> NodesWherePreemptionMightHelp(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful);

// pickOneNodeForPreemption without its final coin toss: every candidate still tied after the five
// criteria (fewest PDB violations; lowest priority of victims[0]; smallest sum of priority + 2^31;
// fewest victims; latest earliest start among the highest-priority victims), in input order. The
// real scheduler walks the candidates in Go map order; the replay conventions walk them in input
// order (the kube adapters are patched to do the same). Victims that have not started count as
// starting when the criterion looks at them (upstream: time.Now()), so among candidates decided by
// such victims the one looked at last wins; `now_ns` is the wall clock before the first look.
// REQUIRES: every candidate has at least one victim.
std::vector<Candidate> BestCandidates(const std::vector<Candidate>& candidates,
                                      int64_t now_ns = kNowAfterEveryStart);

// The earliest start time among the victims of the highest priority (GetEarliestPodStartTime);
// a pod that has not started counts as starting at `now`. REQUIRES: !victims.empty().
int64_t EarliestStartOfHighestPriorityVictims(const std::vector<PodPtr>& victims, int64_t now);

// --- v1.37 ---
// v1.37 reads each start time once, where upstream calls util.GetPodStartTime: a pod that has
// not started reads the clock, and in a replay the clock moves on by 1 ns per such read within an
// instant (the kube adapters' util.SchedcheckNow), so the reader is stateful.
using StartTimeReader = std::function<int64_t(const Pod&)>;

// sort.Slice(potentialVictims, MoreImportantVictim) of v1.37 for single-pod victims: higher
// priority first, then the earlier start time as read when the victim was made (`start_ns`,
// indexed like `pods`); the same insertion sort as SortByImportance.
void SortVictimsByImportance(std::vector<PodInfoPtr>& pods, std::vector<int64_t>& start_ns);

// BestCandidates with v1.37's last criterion: GetEarliestPodStartTime reads victims[0]'s start,
// then every victim's again in order (one read each), per candidate still tied, in input order.
std::vector<Candidate> BestCandidatesV1_37(const std::vector<Candidate>& candidates,
                                           const StartTimeReader& read);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_PREEMPTION_H_
