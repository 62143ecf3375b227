#include "reference/scheduler/opportunistic_batch.h"

#include <utility>
#include <vector>

namespace schedcheck::reference {

std::string OpportunisticBatch::GetNodeHint(const Framework& fw, const Snapshot& snapshot,
                                            const Pod& pod, const PodSignature& signature,
                                            const CycleState& state, int64_t cycle,
                                            int64_t now_ns) {
  if (!BatchStateCompatible(pod, signature, cycle, now_ns)) return "";
  if (!RefreshHintCandidates(fw, snapshot, pod, state)) return "";
  return state_->sorted_nodes.Pop().name;
}

void OpportunisticBatch::StoreScheduleResults(const PodSignature& signature,
                                              const std::string& hinted_node,
                                              const std::string& chosen_node,
                                              std::optional<SortedScoredNodes> other_nodes,
                                              int64_t cycle, int64_t now_ns) {
  last_cycle_ = {cycle, chosen_node, true};
  if (hinted_node == chosen_node) {
    ++batched_pods_;  // the hint was used: the state, one node shorter, serves the next pod
    return;
  }
  if (signature != nullptr && other_nodes && other_nodes->Len() > 0) {
    state_ = BatchState{*signature, std::move(*other_nodes), now_ns};
  } else {
    state_.reset();
  }
}

std::vector<std::string> OpportunisticBatch::RemainingNodes() const {
  std::vector<std::string> out;
  if (!state_) return out;
  SortedScoredNodes copy = state_->sorted_nodes;
  while (copy.Len() > 0) out.push_back(copy.Pop().name);
  return out;
}

bool OpportunisticBatch::BatchStateCompatible(const Pod& pod, const PodSignature& signature,
                                              int64_t cycle, int64_t now_ns) const {
  if (StateEmpty()) return false;
  // Another pod (or another profile's pod) was popped in between.
  if (cycle != last_cycle_.cycle_count + 1 &&
      (!generic_workload_ || cycle != last_cycle_.cycle_count)) {
    return false;
  }
  if (!last_cycle_.succeeded) return false;
  if (!pod.obj.status().nominated_node_name().empty()) return false;
  if (signature == nullptr || *signature != state_->signature) return false;
  // time.Now().After(creationTime + maxBatchAge), on the replay's clock.
  if (now_ns > state_->creation_ns + kMaxBatchAgeNs) return false;
  return true;
}

bool OpportunisticBatch::RefreshHintCandidates(const Framework& fw, const Snapshot& snapshot,
                                               const Pod& pod, const CycleState& state) {
  const NodeInfo* last_chosen = snapshot.Get(last_cycle_.chosen_node);
  if (last_chosen == nullptr) return false;
  // Without the nominated pods' second pass, as upstream's RunFilterPlugins.
  Status s = fw.RunFilterPlugins(state, pod, *last_chosen);
  if (s.IsSuccess()) return RescoreHintedNode(fw, snapshot, pod, state, *last_chosen);
  return s.IsRejected();  // still rejected: the remaining nodes serve as they are
}

bool OpportunisticBatch::RescoreHintedNode(const Framework& fw, const Snapshot& snapshot,
                                           const Pod& pod, const CycleState& state,
                                           const NodeInfo& last_chosen) {
  // resolveCachedCandidates: the remaining nodes in the heap's own order, then the last chosen.
  std::vector<const NodeInfo*> nodes;
  std::vector<RawNodeScores> rows;
  for (const ScoredNode& cached : state_->sorted_nodes.unordered()) {
    const NodeInfo* node = snapshot.Get(cached.name);
    if (node == nullptr) return false;
    nodes.push_back(node);
    rows.push_back({cached.name, cached.raw});
  }
  nodes.push_back(&last_chosen);
  // PreScore sees every candidate; its writes stay in a copy of the pod's state.
  std::unique_ptr<CycleState> rescore_state = state.Clone();
  if (!fw.RunPreScorePlugins(*rescore_state, pod, nodes).IsSuccess()) return false;
  RawNodeScores fresh{last_chosen.name(), {}};
  if (!fw.RunRawScorePlugins(*rescore_state, pod, last_chosen, &fresh.scores).IsSuccess())
    return false;
  rows.push_back(std::move(fresh));
  std::vector<int64_t> totals;
  if (!fw.NormalizeScores(*rescore_state, pod, rows, &totals).IsSuccess()) return false;
  std::vector<ScoredNode> scored;
  scored.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    scored.push_back({std::move(rows[i].name), totals[i], std::move(rows[i].scores)});
  }
  state_->sorted_nodes = SortedScoredNodes(std::move(scored));
  return true;
}

}  // namespace schedcheck::reference
