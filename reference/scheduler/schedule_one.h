// Scheduling one pod against a snapshot (schedule_one.go v1.27): PreFilter, the nominated node
// first, Filter over nodes from the rotating start index until enough are feasible, then PreScore,
// Score, NormalizeScore and host selection. Sequential and seeded, so it is deterministic; the
// full set of top-scoring nodes is always reported because the real scheduler picks among them
// at random.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "reference/base/rand.h"
#include "reference/framework/fit_error.h"
#include "reference/runtime/framework.h"
#include "reference/scheduler/opportunistic_batch.h"
#include "reference/scheduler/tie_set.h"
#include "reference/scheduler/top_scores.h"

namespace schedcheck::reference {

// v1.37: the status of the nodes a PreFilterResult left out, "didn't satisfy plugin(s)" the
// rejecting plugins known by then (the narrowing ones, and any the nominated node's filters
// added: upstream shares the set).
Status AbsentNodeStatusV1_37(const std::set<std::string>& unschedulable_plugins);

inline constexpr std::string_view kNoNodesAvailableMsg = "no nodes available to schedule pods";

struct ScheduleResult {
  enum class Kind {
    kScheduled,  // node is set
    kFitError,   // no feasible node: diagnosis, num_all_nodes
    kNoNodes,    // the snapshot is empty
    kError,      // a plugin or internal error: error_status
  };
  Kind kind = Kind::kError;
  std::string node;  // the chosen host
  TieSet ties;       // every node with the top total score (in name order)
  // With set_record_scores(k): the top k of the score phase (empty when none ran).
  std::vector<TopScore> top_scores;
  // Filled only when the scheduler records details (the default; replay turns it off):
  std::vector<std::string> feasible;     // feasible nodes in evaluation order
  std::vector<NodePluginScores> scores;  // empty when no scoring ran (0 or 1 feasible node)
  int feasible_count = 0;
  int evaluated_nodes = 0;
  int num_all_nodes = 0;
  Diagnosis diagnosis;
  Status error_status;
};

// v1.37 OpportunisticBatching for one SchedulePod: the profile's batch, the pod's signature as
// the queue holds it, the scheduling cycle (the queue's pop count) and the replay's time.
struct BatchRequest {
  OpportunisticBatch* batch = nullptr;
  PodSignature signature;
  int64_t cycle = 0;
  int64_t now_ns = 0;
};

// Holds what persists between cycles: the rotating start index and the tie-break generator.
// This is the plain engine, step by step as schedule_one.go; the fast engine
// (accel/fast_pod_scheduler.h) overrides the three steps with the same results.
class PodScheduler {
 public:
  PodScheduler(uint64_t seed, int32_t percentage_of_nodes_to_score)
      : rng_(seed), percentage_(percentage_of_nodes_to_score) {}
  virtual ~PodScheduler() = default;

  // schedulePod: findNodesThatFitPod, then (for two or more feasible nodes) prioritizeNodes and
  // selectHost.
  // With `batch`, the batch may hint a node (tried first, as a nominated node) and learns the
  // result.
  ScheduleResult SchedulePod(const Framework& fw, CycleState& state, const Pod& pod,
                             const Snapshot& snapshot, const BatchRequest* batch = nullptr);

  // Whether results carry the feasible node names and per-plugin scores (explain, check, tests).
  // Decisions are the same either way.
  void set_record_details(bool on) { record_details_ = on; }
  // Whether results carry the top `k` nodes' scores (top_scores; 0: none, the default). Decisions
  // are the same either way.
  void set_record_scores(size_t k) { record_scores_ = k; }

  // numFeasibleNodesToFind (docs/SEMANTICS.md#filtering-and-numfeasiblenodestofind).
  static int64_t NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage,
                                        int32_t global_percentage, int64_t num_all_nodes);
  size_t next_start_node_index() const { return next_start_node_index_; }

  // FitErrorMessage for a kFitError result (the fast engine counts the reasons its own way).
  virtual std::string FitErrorText(int num_all_nodes, const Diagnosis& diagnosis) const {
    return FitErrorMessage(num_all_nodes, diagnosis);
  }

 protected:
  // findNodesThatFitPod: PreFilter, the nominated node, then the filters over the (narrowed)
  // nodes; moves the start index. Fills `result`'s diagnosis, evaluated_nodes and (with details)
  // feasible list; returns a non-Success only for an error.
  virtual Status FindNodesThatFitPod(const Framework& fw, CycleState& state, const Pod& pod,
                                     const Snapshot& snapshot, ScheduleResult* result,
                                     std::vector<const NodeInfo*>* feasible);
  // prioritizeNodes: every feasible node's total (and, with details, its per-plugin scores in
  // `result`).
  virtual Status PrioritizeNodes(const Framework& fw, CycleState& state, const Pod& pod,
                                 const std::vector<const NodeInfo*>& feasible,
                                 ScheduleResult* result, std::vector<int64_t>* totals);
  // selectHost: reservoir sampling over the top total (with the profile's
  // score_heap_picks_host: the first Pop of SortedScoredNodes, no random draw); `ties` gets every
  // top-scoring node.
  virtual std::string SelectHost(const Framework& fw, const Snapshot& snapshot,
                                 const std::vector<const NodeInfo*>& feasible,
                                 const std::vector<int64_t>& totals, TieSet* ties);

  // SchedulePod's steps, with batch_ set for their duration.
  ScheduleResult SchedulePodSteps(const Framework& fw, CycleState& state, const Pod& pod,
                                  const Snapshot& snapshot);
  // StoreScheduleResults after scoring: the scored nodes but the host go to the batch.
  void StoreBatchResults(ScheduleResult* result);

  // The node findNodesThatFitPod tries before the others (evaluateNominatedNode), asked right
  // after PreFilter passed: the pod's nominated node, else the batch's hint (noted in hint_), else
  // "".
  std::string NodeToTryFirst(const Framework& fw, const CycleState& state, const Pod& pod,
                             const Snapshot& snapshot);

  // How many feasible nodes findNodesThatPassFilters looks for among `num_nodes`
  // (numFeasibleNodesToFind; at v1.37 one when the profile has no scoring).
  int64_t NumNodesToFind(const Framework& fw, int64_t num_nodes) const;

  // findNodesThatPassFilters: nodes[(start + i) % n] in order until `num_to_find` are feasible.
  Status FindNodesThatPassFilters(const Framework& fw, const CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes, Diagnosis* diagnosis,
                                  std::vector<const NodeInfo*>* feasible);

  size_t next_start_node_index_ = 0;
  // The current SchedulePod's batch request (null without one), and the hint it gave.
  const BatchRequest* batch_ = nullptr;
  std::string hint_;
  // Whether PrioritizeNodes must leave every node's scores in the result: the batch keeps them
  // for a signed pod.
  bool KeepScores() const { return batch_ != nullptr && batch_->signature != nullptr; }
  Rand rng_;
  int32_t percentage_;
  bool record_details_ = true;
  size_t record_scores_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULE_ONE_H_
