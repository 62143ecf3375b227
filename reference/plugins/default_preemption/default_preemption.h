// DefaultPreemption (plugins/defaultpreemption/default_preemption.go with the evaluator of
// framework/preemption/preemption.go, v1.27): when no node fits, find nodes where evicting
// lower-priority pods would let the pod fit, pick one, and report the nomination and the victims.
// The plugin only decides; the caller applies the API effects in PostFilterResult (delete victims,
// clear lower-priority nominations, set the preemptor's nominatedNodeName).
//
// Deterministic where upstream is random (docs/SEMANTICS.md#nondeterminism): the dry run visits
// potential nodes sequentially from offset 0 (upstream: rand.Int31n; with at most 100 potential
// nodes every node is visited anyway), and among candidates tied after the five criteria the first
// in dry-run order is chosen; Preempt() reports the whole tied set.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_DEFAULT_PREEMPTION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/fit_error.h"
#include "reference/framework/registry.h"
#include "reference/plugins/default_preemption/preemption.h"

namespace schedcheck::reference {

// DefaultPreemptionArgs (v1 defaults 10 and 100).
struct DefaultPreemptionArgs {
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
};
// null = defaults; validation as ValidateDefaultPreemptionArgs.
Result<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(const PluginArgs& args);

// Everything one preemption attempt decided.
struct PreemptionOutcome {
  Status status;                      // as PostFilter returns it ("preemption: " prefix included)
  PostFilterResult result;            // nomination and API effects
  std::vector<Candidate> candidates;  // from the dry run, non-violating first
  std::vector<Candidate> best;        // every candidate tied for the choice; empty without one
};

// The victims one node would need (SelectVictimsOnNode).
// utilerrors.NewAggregate(errors).Error(): one message as is, several (deduplicated, in first-seen
// order) comma-separated in brackets.
std::string AggregateMessage(const std::vector<std::string>& errors);

struct NodeVictims {
  Status status;  // Success, or why preemption cannot help on this node
  std::vector<PodPtr> victims;
  int num_pdb_violations = 0;
};

// podTerminatingByPreemption with PodDisruptionConditions on (v1.27's default): the pod is
// terminating (deletionTimestamp) and its first DisruptionTarget condition is True with reason
// PreemptionByScheduler, i.e. the scheduler is preempting it. A pod deleted for any other reason
// (a rollout, a drain, a Job's finalizer) does not hold back a nominated preemptor.
bool PodTerminatingByPreemption(const Pod& pod);

class DefaultPreemption : public PostFilterPlugin, public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "DefaultPreemption";
  static constexpr std::string_view kPrefix = "preemption: ";
  static constexpr std::string_view kNoVictims = "No preemption victims found for incoming pod";
  static constexpr std::string_view kNeverPolicy = "not eligible due to preemptionPolicy=Never.";
  static constexpr std::string_view kTerminatingOnNominated =
      "not eligible due to a terminating pod on the nominated node.";
  static constexpr std::string_view kNoCandidateNode = "no candidate node for preemption";

  DefaultPreemption(DefaultPreemptionArgs args, const Handle& handle)
      : args_(args), handle_(handle) {}
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);

  std::string_view Name() const override { return kName; }
  Status PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                    PostFilterResult* result) override;
  // v1.37 (SchedulerAsyncPreemption on): AssignedPod Delete, whose hint always answers
  // QueueSkip. A pod this plugin blocked (PreEnqueue while its preemption runs) was also
  // rejected by the plugins the preemption helps; their hints decide when it is worth retrying.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // What PostFilter decides, with the candidates and the tie: Evaluator.Preempt plus the
  // plugin's message prefix.
  PreemptionOutcome Preempt(const CycleState& state, const Pod& pod,
                            const NodeToStatus& statuses) const;

  // PodEligibleToPreemptOthers: (eligible, reason when not). `nominated_status` is the status of
  // the pod's nominated node in the filter results (null when absent).
  std::pair<bool, std::string> PodEligibleToPreemptOthers(const Pod& pod,
                                                          const Status* nominated_status) const;
  // SelectVictimsOnNode on copies of `node` and `state` (DryRunPreemption's nodeInfoCopy and
  // stateCopy).
  virtual NodeVictims SelectVictimsOnNode(
      const CycleState& state, const Pod& pod, const NodeInfo& node,
      const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const;
  // A node the dry run found no candidate on, with its status (upstream: nodeStatuses.Set).
  using RejectNode = std::function<void(const NodeInfo& node, Status status)>;
  // DryRunPreemption, sequential: visits potential[(offset + i) % n]; stops once a non-violating
  // candidate exists and num_candidates were found. Returns the non-violating candidates, then
  // the violating ones (each list at most num_candidates long). The nodes without a candidate go
  // to `reject` with their status; the Error ones are also collected in `errors`.
  std::vector<Candidate> DryRunPreemption(const CycleState& state, const Pod& pod,
                                          const std::vector<const NodeInfo*>& potential_nodes,
                                          const std::vector<const k8s::PodDisruptionBudget*>& pdbs,
                                          int32_t offset, int32_t num_candidates,
                                          const RejectNode& reject,
                                          std::vector<std::string>* errors) const;
  // GetOffsetAndNumCandidates: the offset is 0 (upstream draws it at random; see above).
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t num_nodes) const;
  // calculateNumCandidates: n * percentage / 100, at least the absolute minimum, at most n.
  int32_t CalculateNumCandidates(int32_t num_nodes) const;

 protected:
  // findCandidates: the dry run over the nodes where preemption might help. `node_statuses` gets
  // the status of every node without a candidate; `*error` the aggregated errors ("" for none).
  std::vector<Candidate> FindCandidates(const CycleState& state, const Pod& pod,
                                        const NodeToStatus& m, NodeToStatus* node_statuses,
                                        std::string* error) const;
  // FindCandidates and, when it finds no candidate, the FitError text of the statuses it gave
  // (framework.FitError{NumAllNodes: len(nodeStatuses), ...}.Error()): all that EvaluatorPreempt
  // reads of them. A seam for the fast engine, which counts their reasons without the node map.
  virtual std::vector<Candidate> FindCandidatesOrFitError(const CycleState& state, const Pod& pod,
                                                          const NodeToStatus& m,
                                                          std::string* fit_error,
                                                          std::string* error) const;
  // getPodDisruptionBudgets.
  std::vector<const k8s::PodDisruptionBudget*> GetPodDisruptionBudgets() const;

  // The wall clock upstream's time.Now() reads (epoch + virtual time in a replay), or
  // kNowAfterEveryStart when the handle has no clock.
  int64_t NowNs() const {
    return handle_.clock != nullptr ? handle_.epoch_unix_ns + handle_.clock->NowNs()
                                    : kNowAfterEveryStart;
  }

  // v1.37's util.GetPodStartTime: a started pod's start, else the clock, which moves on by 1 ns per
  // such read within an instant (the replay conventions).
  int64_t ReadStartTimeV1_37(const Pod& pod) const;
  bool reads_start_times_once() const { return handle_.features.preemption_reads_start_times_once; }

  DefaultPreemptionArgs args_;
  const Handle& handle_;
  mutable int64_t reads_at_ = std::numeric_limits<int64_t>::min();  // the instant of reads_
  mutable int64_t reads_ = 0;

 private:
  // Evaluator.Preempt, without the prefix.
  PreemptionOutcome EvaluatorPreempt(const CycleState& state, const Pod& pod,
                                     const NodeToStatus& m) const;
  // SelectCandidate with pickOneNodeForPreemption's tie reported whole (BestCandidates).
  std::vector<Candidate> SelectCandidate(const std::vector<Candidate>& candidates) const;
  // prepareCandidate: the victims to delete and the lower-priority pods nominated to the chosen
  // node whose nomination is cleared (getLowerPriorityNominatedPods).
  void PrepareCandidate(const Candidate& c, const Pod& pod, PostFilterResult* result) const;
};

// DefaultPreemption with a PreEnqueue (Features::default_preemption_pre_enqueue), which, under
// SchedulerAsyncPreemption, holds back a preemptor while its asynchronous preemption runs.
class DefaultPreemptionV1_37 : public DefaultPreemption, public PreEnqueuePlugin {
 public:
  using DefaultPreemption::DefaultPreemption;
  static constexpr std::string_view kWaiting =
      "waiting for the preemption for this pod to be finished";
  std::string_view Name() const override { return kName; }
  Status PreEnqueue(const Pod& pod) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DEFAULT_PREEMPTION_DEFAULT_PREEMPTION_H_
