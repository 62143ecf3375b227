// v1.37's OpportunisticBatching (framework/runtime/batch.go, gate on by default): after a pod with
// a signature is scheduled with scoring, the nodes it did not take stay sorted by score. The next
// pod, if it comes in the very next cycle of the same profile with the same signature and no
// nominated node, within 500 ms, gets the best remaining node as a hint; the scheduler tries that
// node first, as it does a nominated node, and takes it unscored when it passes the filters. The
// node the previous pod took is filtered again for the new pod and, if it still fits, rescored
// against the remaining nodes' old raw scores, so that it can win the hint back.
//
// Upstream keeps one batch per profile (frameworkImpl.batch); so does the replay.
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_OPPORTUNISTIC_BATCH_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_OPPORTUNISTIC_BATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/framework/snapshot.h"
#include "reference/runtime/framework.h"
#include "reference/scheduler/sorted_scored_nodes.h"

namespace schedcheck::reference {

// maxBatchAge.
inline constexpr int64_t kMaxBatchAgeNs = 500LL * 1000 * 1000;

class OpportunisticBatch {
 public:
  // `generic_workload`: the GenericWorkload gate (newOpportunisticBatch's argument). On, a pod of
  // the same scheduling cycle as the last one may use the batch too (the pods of one pod group
  // share a cycle; single pods never do).
  explicit OpportunisticBatch(bool generic_workload = false)
      : generic_workload_(generic_workload) {}

  // GetNodeHint: the hinted node's name, or "" when the batch cannot serve `pod` in scheduling
  // cycle `cycle` at `now_ns`. `state` is the pod's cycle state after PreFilter.
  std::string GetNodeHint(const Framework& fw, const Snapshot& snapshot, const Pod& pod,
                          const PodSignature& signature, const CycleState& state, int64_t cycle,
                          int64_t now_ns);

  // StoreScheduleResults: the pod of `cycle` was given `chosen_node` (after hint `hinted_node`,
  // "" for none); `other_nodes` are the scored nodes it did not take (none when it was not
  // scored).
  void StoreScheduleResults(const PodSignature& signature, const std::string& hinted_node,
                            const std::string& chosen_node,
                            std::optional<SortedScoredNodes> other_nodes, int64_t cycle,
                            int64_t now_ns);

  // Pods that took their hint (batchedPods).
  int64_t batched_pods() const { return batched_pods_; }
  // The nodes the batch keeps, best first (empty without a state); for tests.
  std::vector<std::string> RemainingNodes() const;

 private:
  struct BatchState {
    std::string signature;
    SortedScoredNodes sorted_nodes;
    int64_t creation_ns = 0;
  };
  struct SchedulingCycle {
    int64_t cycle_count = 0;
    std::string chosen_node;
    bool succeeded = false;
  };

  bool StateEmpty() const { return !state_ || state_->sorted_nodes.Len() == 0; }
  bool BatchStateCompatible(const Pod& pod, const PodSignature& signature, int64_t cycle,
                            int64_t now_ns) const;
  bool RefreshHintCandidates(const Framework& fw, const Snapshot& snapshot, const Pod& pod,
                             const CycleState& state);
  bool RescoreHintedNode(const Framework& fw, const Snapshot& snapshot, const Pod& pod,
                         const CycleState& state, const NodeInfo& last_chosen);

  bool generic_workload_;
  std::optional<BatchState> state_;
  SchedulingCycle last_cycle_;
  int64_t batched_pods_ = 0;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_OPPORTUNISTIC_BATCH_H_
