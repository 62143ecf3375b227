#include "reference/scheduler/schedule_one.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>

#include "reference/scheduler/sorted_scored_nodes.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;

}  // namespace

int64_t PodScheduler::NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage,
                                             int32_t global_percentage, int64_t num_all_nodes) {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int64_t percentage = profile_percentage ? *profile_percentage : global_percentage;
  if (percentage == 0) {
    percentage = 50 - num_all_nodes / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind)
      percentage = kMinFeasibleNodesPercentageToFind;
  }
  int64_t n = num_all_nodes * percentage / 100;
  return n < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : n;
}

int64_t PodScheduler::NumNodesToFind(const Framework& fw, int64_t num_nodes) const {
  // v1.37: a profile that scores nothing (schedcheck has no extenders) takes the first feasible
  // node, since any would do.
  if (fw.handle().features.first_feasible_node_without_score_plugins && !fw.HasScorePlugins())
    return num_nodes == 0 ? 0 : 1;
  return NumFeasibleNodesToFind(fw.percentage_of_nodes_to_score(), percentage_, num_nodes);
}

Status PodScheduler::FindNodesThatPassFilters(const Framework& fw, const CycleState& state,
                                              const Pod& pod,
                                              const std::vector<const NodeInfo*>& nodes,
                                              Diagnosis* diagnosis,
                                              std::vector<const NodeInfo*>* feasible) {
  const int64_t n = static_cast<int64_t>(nodes.size());
  const int64_t num_to_find = NumNodesToFind(fw, n);
  if (!fw.HasFilterPlugins()) {
    for (int64_t i = 0; i < num_to_find; ++i)
      feasible->push_back(nodes[(next_start_node_index_ + i) % n]);
    return Status();
  }
  // checkNode with one worker: the search stops at the first feasible node past num_to_find
  // (its cancel), so nodes rejected before that one still count.
  for (int64_t i = 0; i < n; ++i) {
    const NodeInfo* node = nodes[(next_start_node_index_ + i) % n];
    Status s = fw.RunFilterPluginsWithNominatedPods(state, pod, *node);
    if (s.code() == Code::kError) return s;
    if (s.IsSuccess()) {
      if (static_cast<int64_t>(feasible->size()) == num_to_find) break;
      feasible->push_back(node);
    } else {
      diagnosis->unschedulable_plugins.insert(s.plugin());
      diagnosis->node_to_status.insert_or_assign(node->name(), std::move(s));
    }
  }
  return Status();
}

Status AbsentNodeStatusV1_37(const std::set<std::string>& unschedulable_plugins) {
  std::string list;
  for (const std::string& p : unschedulable_plugins) list += (list.empty() ? "" : " ") + p;
  return Status(Code::kUnschedulableAndUnresolvable,
                "node(s) didn't satisfy plugin(s) [" + list + "]");
}

Status PodScheduler::FindNodesThatFitPod(const Framework& fw, CycleState& state, const Pod& pod,
                                         const Snapshot& snapshot, ScheduleResult* result,
                                         std::vector<const NodeInfo*>* feasible) {
  Diagnosis& diagnosis = result->diagnosis;
  const std::vector<const NodeInfo*>& all_nodes = snapshot.node_infos();
  const bool every_node = fw.handle().features.diagnosis_covers_every_node;
  PreFilterResult pre_result;
  // v1.37: the plugins that narrowed the nodes start the diagnosis' rejecting plugins.
  Status s = fw.RunPreFilterPlugins(state, pod, &pre_result,
                                    every_node ? &diagnosis.unschedulable_plugins : nullptr);
  if (!s.IsSuccess()) {
    if (!s.IsRejected()) return s;
    // Every node gets the PreFilter status, so preemption sees it.
    for (const NodeInfo* node : all_nodes)
      diagnosis.node_to_status.insert_or_assign(node->name(), s);
    diagnosis.pre_filter_msg = s.Message();
    if (!s.plugin().empty()) diagnosis.unschedulable_plugins.insert(s.plugin());
    return Status();
  }
  // The node preemption made room on (or the batch's hint) is tried first; if it passes, it is
  // chosen unscored.
  const std::string first = NodeToTryFirst(fw, state, pod, snapshot);
  if (const NodeInfo* node = first.empty() ? nullptr : snapshot.Get(first)) {
    // An error here is logged upstream; the search goes on among all nodes.
    [[maybe_unused]] Status ignored =
        FindNodesThatPassFilters(fw, state, pod, {node}, &diagnosis, feasible);
    if (!feasible->empty()) {
      result->evaluated_nodes =
          static_cast<int>(feasible->size() + diagnosis.node_to_status.size());
      return Status();
    }
  }
  std::vector<const NodeInfo*> nodes;
  std::optional<Status> absent_status;
  if (pre_result.all_nodes) {
    nodes = all_nodes;
  } else {
    // Upstream ranges over a Go set (random order); we keep snapshot order (docs/DEVIATIONS.md).
    // v1.37 skips names that are not nodes; v1.27 fails.
    for (const std::string& name : pre_result.node_names) {
      if (!every_node && snapshot.Get(name) == nullptr)
        return Status::Error("nodeinfo not found for node name \"" + name + "\"");
    }
    for (const NodeInfo* node : all_nodes) {
      if (pre_result.node_names.count(node->name())) nodes.push_back(node);
    }
    if (every_node) absent_status = AbsentNodeStatusV1_37(diagnosis.unschedulable_plugins);
  }
  Status fs = FindNodesThatPassFilters(fw, state, pod, nodes, &diagnosis, feasible);
  const size_t processed = feasible->size() + diagnosis.node_to_status.size();
  // v1.37 rotates the start over all nodes, v1.27 over the nodes searched.
  const size_t rotation = every_node ? all_nodes.size() : nodes.size();
  if (rotation > 0) next_start_node_index_ = (next_start_node_index_ + processed) % rotation;
  result->evaluated_nodes = static_cast<int>(processed);
  if (absent_status && fs.IsSuccess() && feasible->empty()) {
    // The absent-node status, made explicit so that the message counts it and preemption sees
    // these nodes as UnschedulableAndUnresolvable (NodesForStatusCode).
    for (const NodeInfo* node : all_nodes) {
      if (!diagnosis.node_to_status.count(node->name()))
        diagnosis.node_to_status.insert_or_assign(node->name(), *absent_status);
    }
  }
  return fs;
}

std::string PodScheduler::NodeToTryFirst(const Framework& fw, const CycleState& state,
                                         const Pod& pod, const Snapshot& snapshot) {
  const std::string& nominated = pod.obj.status().nominated_node_name();
  // Upstream asks the batch even for a nominated pod; the batch then declines, changing nothing.
  if (!nominated.empty() || batch_ == nullptr) return nominated;
  hint_ = batch_->batch->GetNodeHint(fw, snapshot, pod, batch_->signature, state, batch_->cycle,
                                     batch_->now_ns);
  return hint_;
}

Status PodScheduler::PrioritizeNodes(const Framework& fw, CycleState& state, const Pod& pod,
                                     const std::vector<const NodeInfo*>& feasible,
                                     ScheduleResult* result, std::vector<int64_t>* totals) {
  std::vector<NodePluginScores> scores;
  if (!fw.HasScorePlugins()) {
    // Without score plugins every node scores 1.
    for (const NodeInfo* node : feasible) scores.push_back({node->name(), {}, 1});
  } else {
    Status s = fw.RunPreScorePlugins(state, pod, feasible);
    if (s.IsSuccess()) s = fw.RunScorePlugins(state, pod, feasible, &scores);
    if (!s.IsSuccess()) return s;
  }
  for (const NodePluginScores& node : scores) totals->push_back(node.total);
  if (record_scores_ > 0) result->top_scores = TopScores(scores, record_scores_);
  if (record_details_ || KeepScores()) result->scores = std::move(scores);
  return Status();
}

std::string PodScheduler::SelectHost(const Framework& fw, [[maybe_unused]] const Snapshot& snapshot,
                                     const std::vector<const NodeInfo*>& feasible,
                                     const std::vector<int64_t>& totals, TieSet* ties) {
  if (fw.handle().features.score_heap_picks_host) {
    std::vector<ScoredNode> scored;
    scored.reserve(feasible.size());
    int64_t max_score = totals[0];
    for (size_t i = 0; i < feasible.size(); ++i) {
      scored.push_back({feasible[i]->name(), totals[i], {}});
      max_score = std::max(max_score, totals[i]);
    }
    std::vector<std::string> top;
    for (const ScoredNode& n : scored) {
      if (n.total == max_score) top.push_back(n.name);
    }
    std::sort(top.begin(), top.end());
    *ties = TieSet::FromNames(std::move(top));
    SortedScoredNodes sorted(std::move(scored));
    return sorted.Pop().name;
  }
  int64_t max_score = totals[0];
  size_t selected = 0;
  uint64_t count_of_max = 1;
  for (size_t i = 1; i < totals.size(); ++i) {
    if (totals[i] > max_score) {
      max_score = totals[i];
      selected = i;
      count_of_max = 1;
    } else if (totals[i] == max_score) {
      ++count_of_max;
      // Replace the candidate with probability 1/count_of_max (rand.Intn, our seeded generator).
      if (rng_.Uniform(count_of_max) == 0) selected = i;
    }
  }
  std::vector<std::string> top;
  for (size_t i = 0; i < totals.size(); ++i) {
    if (totals[i] == max_score) top.push_back(feasible[i]->name());
  }
  std::sort(top.begin(), top.end());
  *ties = TieSet::FromNames(std::move(top));
  return feasible[selected]->name();
}

ScheduleResult PodScheduler::SchedulePod(const Framework& fw, CycleState& state, const Pod& pod,
                                         const Snapshot& snapshot, const BatchRequest* batch) {
  batch_ = batch;
  hint_.clear();
  ScheduleResult result = SchedulePodSteps(fw, state, pod, snapshot);
  batch_ = nullptr;
  return result;
}

ScheduleResult PodScheduler::SchedulePodSteps(const Framework& fw, CycleState& state,
                                              const Pod& pod, const Snapshot& snapshot) {
  ScheduleResult result;
  result.num_all_nodes = static_cast<int>(snapshot.size());
  if (snapshot.size() == 0) {
    result.kind = ScheduleResult::Kind::kNoNodes;
    return result;
  }
  std::vector<const NodeInfo*> feasible;
  Status s = FindNodesThatFitPod(fw, state, pod, snapshot, &result, &feasible);
  if (!s.IsSuccess()) {
    result.error_status = s;
    return result;
  }
  result.feasible_count = static_cast<int>(feasible.size());
  if (record_details_) {
    for (const NodeInfo* node : feasible) result.feasible.push_back(node->name());
  }
  if (feasible.empty()) {
    result.kind = ScheduleResult::Kind::kFitError;
    return result;
  }
  if (feasible.size() == 1) {
    // When only one node passes, it is used without scoring.
    result.kind = ScheduleResult::Kind::kScheduled;
    result.node = feasible[0]->name();
    result.ties = TieSet::FromNames({result.node});
    if (batch_ != nullptr) {
      batch_->batch->StoreScheduleResults(batch_->signature, hint_, result.node, std::nullopt,
                                          batch_->cycle, batch_->now_ns);
    }
    return result;
  }
  std::vector<int64_t> totals;
  s = PrioritizeNodes(fw, state, pod, feasible, &result, &totals);
  if (!s.IsSuccess()) {
    result.error_status = s;
    return result;
  }
  result.kind = ScheduleResult::Kind::kScheduled;
  result.node = SelectHost(fw, snapshot, feasible, totals, &result.ties);
  if (batch_ != nullptr) StoreBatchResults(&result);
  return result;
}

void PodScheduler::StoreBatchResults(ScheduleResult* result) {
  std::optional<SortedScoredNodes> others;
  if (batch_->signature != nullptr) {
    // The same heap SelectHost popped the host from, now with the raw scores the batch keeps.
    std::vector<ScoredNode> scored;
    scored.reserve(result->scores.size());
    for (NodePluginScores& row : result->scores) {
      ScoredNode node{row.name, row.total, {}};
      for (const PluginScore& s : row.scores) node.raw.push_back({s.plugin, s.raw});
      scored.push_back(std::move(node));
    }
    others.emplace(std::move(scored));
    [[maybe_unused]] ScoredNode host = others->Pop();
    assert(host.name == result->node);
    if (!record_details_) result->scores.clear();
  }
  batch_->batch->StoreScheduleResults(batch_->signature, hint_, result->node, std::move(others),
                                      batch_->cycle, batch_->now_ns);
}

}  // namespace schedcheck::reference
