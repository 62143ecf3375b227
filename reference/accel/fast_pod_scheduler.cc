#include "reference/accel/fast_pod_scheduler.h"

#include <algorithm>
#include <cassert>
#include <optional>

#include "reference/scheduler/sorted_scored_nodes.h"

namespace schedcheck::reference {

Status FastPodScheduler::FilterBatches(const Framework& fw, const CycleState& state, const Pod& pod,
                                       const Snapshot& snapshot,
                                       const std::vector<const NodeInfo*>& nodes,
                                       std::set<std::string>* unschedulable_plugins,
                                       std::vector<const NodeInfo*>* feasible) {
  auto add = [&](const NodeInfo* node, uint32_t rank) {
    feasible->push_back(node);
    feasible_ranks_.push_back(rank);
  };
  const int64_t n = static_cast<int64_t>(nodes.size());
  const int64_t num_to_find = NumNodesToFind(fw, n);
  // `feasible` is a new vector each cycle (PodScheduler::SchedulePod): one allocation, not one
  // per doubling.
  feasible->reserve(feasible->size() + static_cast<size_t>(num_to_find));
  if (!fw.HasFilterPlugins()) {
    for (int64_t i = 0; i < num_to_find; ++i) {
      const NodeInfo* node = nodes[(next_start_node_index_ + i) % n];
      add(node, node->name_rank());
    }
    return Status();
  }
  if (n == 0) return Status();
  PlanFilters(fw, state, pod, &filter_plan_);
  const std::string* last_plugin = nullptr;  // plugin names are interned: compare addresses
  // Upstream's checkNode (with the replay conventions' parallelism 1) goes on past the
  // num_to_find-th feasible node: the rejected nodes after it are recorded (and count as
  // processed, so they move nextStartNodeIndex), and the next feasible node is evaluated but
  // dropped (it cancels the search and counts nowhere).
  bool overflow = false;
  auto add_feasible = [&](const NodeInfo* node, uint32_t rank) {
    if (static_cast<int64_t>(feasible->size()) < num_to_find) {
      add(node, rank);
    } else {
      overflow = true;
    }
  };
  auto record = [&](const NodeInfo* node, Status s) {
    if (s.IsSuccess()) {
      add_feasible(node, node->name_rank());
      return;
    }
    if (&s.plugin() != last_plugin) unschedulable_plugins->insert(s.plugin());
    last_plugin = &s.plugin();
    rejected_.emplace_back(node, std::move(s));
  };
  const PodNominator* nominator = fw.handle().nominator;
  const bool any_nominated = nominator != nullptr && nominator->HasNominatedPods();
  // Which nodes have nominated pods, by name rank: listed once rather than looked up per node.
  std::vector<std::string> nominated_names;
  const bool listed = any_nominated && nominator->ListNominatedNodes(&nominated_names);
  if (listed) {
    nominated_by_rank_.assign(snapshot.size(), 0);
    for (const std::string& name : nominated_names) {
      if (const NodeInfo* info = snapshot.Get(name);
          info != nullptr && info->name_rank() < snapshot.size()) {
        nominated_by_rank_[info->name_rank()] = 1;
      }
    }
  }
  auto has_nominated_pods = [&](const NodeInfo* node) {
    if (!any_nominated) return false;
    if (!listed) return !nominator->NominatedPodsForNode(node->name()).empty();
    // `nodes` are the snapshot's (FilterBatches' contract), so their ranks index the marks.
    const uint32_t rank = node->name_rank();
    assert(rank < nominated_by_rank_.size());
    return nominated_by_rank_[rank] != 0;
  };
  // The nodes' name ranks without reading the NodeInfos, when `nodes` are the snapshot's list.
  const uint32_t* ranks =
      &nodes == &snapshot.node_infos() && snapshot.ranks_by_position().size() == nodes.size()
          ? snapshot.ranks_by_position().data()
          : nullptr;
  // nodes[(start + i) % n] for i = 0, 1, ...: the position wraps instead of dividing per node.
  size_t at = static_cast<size_t>(next_start_node_index_ % n);
  int64_t evaluated = 0;
  while (evaluated < n && !overflow) {
    // The filters run over a batch of nodes at once (RunFilterPluginsOnNodes, fast_runner.h), sized
    // to what is still needed so that sampling (percentageOfNodesToScore) evaluates few extra
    // nodes; results are then taken in node order, exactly as node-by-node filtering would
    // produce them, up to the feasible node after the one that completes `num_to_find`.
    const int64_t still_needed = num_to_find - static_cast<int64_t>(feasible->size()) + 1;
    const int64_t size =
        std::min<int64_t>(n - evaluated, std::clamp<int64_t>(still_needed, 32, 256));
    filter_batch_.clear();
    filter_batch_ranks_.clear();
    for (int64_t k = 0; k < size; ++k) {
      filter_batch_.push_back(nodes[at]);
      filter_batch_ranks_.push_back(ranks != nullptr ? ranks[at] : nodes[at]->name_rank());
      at = at + 1 == static_cast<size_t>(n) ? 0 : at + 1;
    }
    const bool batched =
        RunFilterPluginsOnNodes(filter_plan_, state, pod, filter_batch_, &filter_batch_rejected_);
    size_t next_rejected = 0;
    for (size_t k = 0; k < filter_batch_.size() && !overflow; ++k) {
      const NodeInfo* node = filter_batch_[k];
      ++evaluated;
      const bool batch_rejected = batched && next_rejected < filter_batch_rejected_.size() &&
                                  filter_batch_rejected_[next_rejected].index == k;
      // Nodes with nominated pods need the two-pass filter; after a batch that met an error,
      // node by node finds which node gives it first.
      if (batched && !has_nominated_pods(node)) {
        if (batch_rejected) {
          record(node, std::move(filter_batch_rejected_[next_rejected++].status));
        } else {
          add_feasible(node, filter_batch_ranks_[k]);
        }
        continue;
      }
      if (batch_rejected) ++next_rejected;
      Status s = fw.RunFilterPluginsWithNominatedPods(state, pod, *node);
      if (s.code() == Code::kError) return s;
      record(node, std::move(s));
    }
  }
  return Status();
}

void FastPodScheduler::MoveRejectedInto(NodeToStatus* out) {
  // Name order through the name ranks, so every insertion goes to the end of the map; a node
  // rejected twice (the nominated node, then again among all nodes) keeps its later status, as
  // assigning into the map twice would. The ranks are counted out into a table (no sort); the
  // nodes come from one snapshot, so distinct nodes have distinct ranks.
  uint32_t end_rank = 0;
  for (const auto& [node, status] : rejected_) end_rank = std::max(end_rank, node->name_rank() + 1);
  latest_by_rank_.assign(end_rank, -1);
  for (size_t i = 0; i < rejected_.size(); ++i) {
    int32_t& latest = latest_by_rank_[rejected_[i].first->name_rank()];
    assert(latest < 0 || rejected_[latest].first == rejected_[i].first);
    latest = static_cast<int32_t>(i);
  }
  for (int32_t i : latest_by_rank_) {
    if (i < 0) continue;
    auto& [node, status] = rejected_[i];
    out->emplace_hint(out->end(), node->name(), std::move(status));
  }
  rejected_.clear();
}

Status FastPodScheduler::FindNodesThatFitPod(const Framework& fw, CycleState& state, const Pod& pod,
                                             const Snapshot& snapshot, ScheduleResult* result,
                                             std::vector<const NodeInfo*>* feasible) {
  const std::vector<const NodeInfo*>& all_nodes = snapshot.node_infos();
  const bool every_node = fw.handle().features.diagnosis_covers_every_node;
  PreFilterResult pre_result;
  // v1.37: the plugins that narrowed the nodes start the diagnosis' rejecting plugins.
  Status s = fw.RunPreFilterPlugins(
      state, pod, &pre_result, every_node ? &result->diagnosis.unschedulable_plugins : nullptr);
  if (!s.IsSuccess()) {
    if (!s.IsRejected()) {
      return s;
    }
    // Every node gets the PreFilter status, so preemption sees it.
    NodeToStatus& statuses = result->diagnosis.node_to_status;
    for (const std::string& name : *snapshot.names_by_rank())
      statuses.emplace_hint(statuses.end(), name, s);
    result->diagnosis.pre_filter_msg = s.Message();
    if (!s.plugin().empty()) result->diagnosis.unschedulable_plugins.insert(s.plugin());
    return Status();
  }

  rejected_.clear();
  feasible_ranks_.clear();
  std::set<std::string>& unschedulable_plugins = result->diagnosis.unschedulable_plugins;
  // The nominated node when its own pass rejected it: rejected again among all nodes, it counts
  // once.
  const NodeInfo* rejected_nominated = nullptr;
  const std::string first = NodeToTryFirst(fw, state, pod, snapshot);
  if (!first.empty()) {
    // The node preemption made room on (or the batch's hint) is tried first; if it passes, it is
    // chosen unscored.
    if (const NodeInfo* node = snapshot.Get(first)) {
      [[maybe_unused]] Status fs =
          FilterBatches(fw, state, pod, snapshot, {node}, &unschedulable_plugins, feasible);
      if (!rejected_.empty()) rejected_nominated = node;
    }
  }
  size_t rejected_count = rejected_.size();  // distinct rejected nodes

  std::optional<Status> absent_status;  // v1.37: the status of nodes PreFilter left out
  if (feasible->empty()) {
    std::vector<const NodeInfo*> narrowed;
    if (!pre_result.all_nodes) {
      // Upstream iterates a Go set (random order); we keep snapshot order. A name that is not in
      // the snapshot is an error in v1.27 and skipped in v1.37.
      for (const std::string& name : pre_result.node_names) {
        if (!every_node && !snapshot.Get(name)) {
          return Status::Error("nodeinfo not found for node name \"" + name + "\"");
        }
      }
      for (const NodeInfo* n : all_nodes) {
        if (pre_result.node_names.count(n->name())) narrowed.push_back(n);
      }
      if (every_node) absent_status = AbsentNodeStatusV1_37(unschedulable_plugins);
    }
    const std::vector<const NodeInfo*>& nodes = pre_result.all_nodes ? all_nodes : narrowed;
    Status fs = FilterBatches(fw, state, pod, snapshot, nodes, &unschedulable_plugins, feasible);
    rejected_count = rejected_.size();
    if (rejected_nominated != nullptr) {
      for (size_t i = 1; i < rejected_.size(); ++i) {
        if (rejected_[i].first == rejected_nominated) --rejected_count;
      }
    }
    size_t processed = feasible->size() + rejected_count;
    // v1.37 rotates the start over all nodes, v1.27 over the nodes searched.
    const size_t rotation = every_node ? all_nodes.size() : nodes.size();
    if (rotation > 0) next_start_node_index_ = (next_start_node_index_ + processed) % rotation;
    if (!fs.IsSuccess()) {
      result->evaluated_nodes = static_cast<int>(feasible->size() + rejected_count);
      MoveRejectedInto(&result->diagnosis.node_to_status);
      return fs;
    }
  }

  result->evaluated_nodes = static_cast<int>(feasible->size() + rejected_count);
  // The per-node statuses serve the failure (message, preemption) and the details; a scheduled
  // pod without details needs none of them.
  if (feasible->empty() || record_details_) {
    MoveRejectedInto(&result->diagnosis.node_to_status);
    if (absent_status && feasible->empty()) {
      // As the plain engine: the nodes left out get the absent-node status explicitly.
      NodeToStatus& statuses = result->diagnosis.node_to_status;
      for (const std::string& name : *snapshot.names_by_rank()) {
        if (!statuses.count(name)) statuses.emplace(name, *absent_status);
      }
    }
  } else {
    rejected_.clear();
    unschedulable_plugins.clear();
  }
  return Status();
}

Status FastPodScheduler::PrioritizeNodes(const Framework& fw, CycleState& state, const Pod& pod,
                                         const std::vector<const NodeInfo*>& feasible,
                                         ScheduleResult* result, std::vector<int64_t>* totals) {
  // The details (and the batch's raw scores) need every plugin's column, which the plain steps
  // produce.
  if (record_details_ || KeepScores() || !fw.HasScorePlugins()) {
    return PodScheduler::PrioritizeNodes(fw, state, pod, feasible, result, totals);
  }
  Status s = fw.RunPreScorePlugins(state, pod, feasible);
  // Recorded scores need every plugin's normalized column; otherwise only the totals are read.
  table_.keep_columns = record_scores_ > 0;
  if (s.IsSuccess()) s = RunScorePluginsIntoTable(fw, state, pod, feasible, &table_);
  if (!s.IsSuccess()) return s;
  if (record_scores_ > 0) result->top_scores = TopScoresOfTable(feasible);
  totals->swap(table_.totals);  // the table's totals are rebuilt next cycle
  return Status();
}

std::vector<TopScore> FastPodScheduler::TopScoresOfTable(
    const std::vector<const NodeInfo*>& feasible) const {
  const size_t n = feasible.size();
  std::vector<TopScore> top;
  for (size_t i : TopScorePositions(
           table_.totals, [&](size_t p) -> const std::string& { return feasible[p]->name(); },
           record_scores_)) {
    TopScore t{feasible[i]->name(), table_.totals[i], {}};
    for (size_t j = 0; j < table_.plugins.size(); ++j) {
      t.plugins.emplace_back(std::string(table_.plugins[j]),
                             table_.normalized[j * n + i] * table_.weights[j]);
    }
    SortPluginsByName(&t);
    top.push_back(std::move(t));
  }
  return top;
}

std::string FastPodScheduler::SelectHost(const Framework& fw, const Snapshot& snapshot,
                                         const std::vector<const NodeInfo*>& nodes,
                                         const std::vector<int64_t>& totals, TieSet* ties) {
  // v1.37: the first Pop of SortedScoredNodes. v1.27: reservoir sampling over the maximum, as
  // selectHost: each tied node ends up chosen with equal probability; the generator is ours and
  // seeded.
  size_t selected = 0;
  int64_t max_score = totals[0];
  if (fw.handle().features.score_heap_picks_host) {
    selected = FirstPopPosition(totals, &heap_scratch_);
    max_score = totals[selected];  // the heap's root holds a highest total
  } else {
    uint64_t count = 1;
    for (size_t i = 1; i < totals.size(); ++i) {
      if (totals[i] > max_score) {
        max_score = totals[i];
        selected = i;
        count = 1;
      } else if (totals[i] == max_score) {
        ++count;
        if (rng_.UniformIsZero(count, divisibility_)) selected = i;
      }
    }
  }
  // Every top-scoring node in name order: mark name ranks in a bitmap, which is then the tie set
  // (linear in the node count; no sort, no string compares).
  // The nodes belong to `snapshot` (FilterBatches' contract), so each rank is in range and
  // distinct nodes have distinct ranks.
  const std::vector<std::string>& names = *snapshot.names_by_rank();
  std::vector<uint64_t> top_ranks((names.size() + 63) / 64, 0);
  for (size_t i = 0; i < totals.size(); ++i) {
    if (totals[i] != max_score) continue;
    const uint32_t rank = feasible_ranks_[i];
    const uint64_t bit = uint64_t{1} << (rank % 64);
    assert(rank < names.size() && (top_ranks[rank / 64] & bit) == 0);
    top_ranks[rank / 64] |= bit;
  }
  *ties = TieSet(snapshot.names_by_rank(), std::move(top_ranks));
  return nodes[selected]->name();
}

}  // namespace schedcheck::reference
