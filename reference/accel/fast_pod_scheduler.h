// The fast engine's PodScheduler: the steps of schedule_one.go with the same results as the plain
// PodScheduler (reference/scheduler/schedule_one.h), computed over runs of nodes (fast_runner.h),
// with the per-cycle buffers kept between cycles, name ranks instead of name compares, and tie
// sets as rank bitmaps.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_FAST_POD_SCHEDULER_H_
#define SCHEDCHECK_REFERENCE_ACCEL_FAST_POD_SCHEDULER_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/accel/fast_runner.h"
#include "reference/accel/fit_error_text.h"
#include "reference/base/divisibility.h"
#include "reference/scheduler/schedule_one.h"

namespace schedcheck::reference {

class FastPodScheduler final : public PodScheduler {
 public:
  FastPodScheduler(uint64_t seed, int32_t percentage_of_nodes_to_score)
      : PodScheduler(seed, percentage_of_nodes_to_score) {
    table_.keep_columns = false;  // only the totals are read
  }

  std::string FitErrorText(int num_all_nodes, const Diagnosis& diagnosis) const override {
    return FastFitErrorMessage(num_all_nodes, diagnosis);
  }

 protected:
  Status FindNodesThatFitPod(const Framework& fw, CycleState& state, const Pod& pod,
                             const Snapshot& snapshot, ScheduleResult* result,
                             std::vector<const NodeInfo*>* feasible) override;
  Status PrioritizeNodes(const Framework& fw, CycleState& state, const Pod& pod,
                         const std::vector<const NodeInfo*>& feasible, ScheduleResult* result,
                         std::vector<int64_t>* totals) override;
  std::string SelectHost(const Framework& fw, const Snapshot& snapshot,
                         const std::vector<const NodeInfo*>& feasible,
                         const std::vector<int64_t>& totals, TieSet* ties) override;

 private:
  // Evaluates nodes[(start + i) % n] in order, as the plain FindNodesThatPassFilters, over
  // batches of nodes. REQUIRES: `nodes` belong to `snapshot`. Rejected nodes go to rejected_
  // (cheap: status copies share their reasons), their plugins to `unschedulable_plugins`; the
  // feasible nodes' name ranks to feasible_ranks_.
  Status FilterBatches(const Framework& fw, const CycleState& state, const Pod& pod,
                       const Snapshot& snapshot, const std::vector<const NodeInfo*>& nodes,
                       std::set<std::string>* unschedulable_plugins,
                       std::vector<const NodeInfo*>* feasible);
  // The recorded top scores (set_record_scores) of the table's cycle, over `feasible` (the
  // table's nodes). REQUIRES: table_.keep_columns was set for the cycle.
  std::vector<TopScore> TopScoresOfTable(const std::vector<const NodeInfo*>& feasible) const;
  // Empties rejected_ into a node-name -> status map.
  void MoveRejectedInto(NodeToStatus* out);

  DivisibilityTable divisibility_;  // SelectHost's remainder tests, one per tied node
  ScoreTable table_;                // reused across cycles
  std::vector<std::pair<const NodeInfo*, Status>> rejected_;  // this cycle's rejected nodes
  std::vector<uint32_t> feasible_ranks_;               // name ranks of this cycle's feasible nodes
  std::vector<int32_t> latest_by_rank_;                // MoveRejectedInto's scratch
  std::vector<uint8_t> nominated_by_rank_;             // FilterBatches' scratch
  FilterPlan filter_plan_;                             // FilterBatches' plugins, per call
  std::vector<const NodeInfo*> filter_batch_;          // FilterBatches' scratch
  std::vector<uint32_t> filter_batch_ranks_;           // the same: the batch's name ranks
  std::vector<BatchRejection> filter_batch_rejected_;  // the same
  std::vector<uint32_t> heap_scratch_;                 // SelectHost's at v1.37
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_FAST_POD_SCHEDULER_H_
