#include "reference/accel/default_preemption/fast_default_preemption.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

namespace schedcheck::reference {

std::vector<const NodeInfo*> NodesWherePreemptionMightHelpInNameOrder(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful) {
  std::vector<size_t> by_name(nodes.size());
  std::vector<char> seen(nodes.size(), 0);
  bool ranks_ok = true;
  for (size_t i = 0; i < nodes.size() && ranks_ok; ++i) {
    const uint32_t rank = nodes[i]->name_rank();
    ranks_ok = rank < nodes.size() && !seen[rank];
    if (ranks_ok) {
      seen[rank] = 1;
      by_name[rank] = i;
    }
  }
  if (!ranks_ok) {
    for (size_t i = 0; i < nodes.size(); ++i) by_name[i] = i;
    std::sort(by_name.begin(), by_name.end(),
              [&](size_t a, size_t b) { return nodes[a]->name() < nodes[b]->name(); });
  }
  std::vector<char> unresolvable(nodes.size(), 0);
  auto it = statuses.begin();
  auto hint = unhelpful->end();
  for (size_t i : by_name) {
    const std::string& name = nodes[i]->name();
    while (it != statuses.end() && it->first < name) ++it;
    if (it == statuses.end() || it->first != name ||
        it->second.code() != Code::kUnschedulableAndUnresolvable)
      continue;
    unresolvable[i] = 1;
    hint = unhelpful->insert_or_assign(
        hint, name,
        Status(Code::kUnschedulableAndUnresolvable, std::string(kPreemptionNotHelpful)));
    ++hint;
  }
  std::vector<const NodeInfo*> potential;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!unresolvable[i]) potential.push_back(nodes[i]);
  }
  return potential;
}

Result<std::unique_ptr<Plugin>> FastDefaultPreemption::New(const PluginArgs& args,
                                                           const Handle& handle) {
  Result<DefaultPreemptionArgs> parsed = ParseDefaultPreemptionArgs(args);
  if (!parsed.ok()) return Error{"DefaultPreemption: " + parsed.message()};
  return std::unique_ptr<Plugin>(std::make_unique<FastDefaultPreemption>(*parsed, handle));
}

NodeVictims FastDefaultPreemption::SelectVictimsOnNode(
    const CycleState& state, const Pod& pod, const NodeInfo& node,
    const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const {
  if (node.lowest_pod_priority() >= pod.priority) {
    return {ConstantStatus<Code::kUnschedulableAndUnresolvable, kNoVictims>(), {}, 0};
  }
  return DefaultPreemption::SelectVictimsOnNode(state, pod, node, pdbs);
}

std::vector<const NodeInfo*> FastDefaultPreemption::PotentialNodes(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful) const {
  return NodesWherePreemptionMightHelpInNameOrder(nodes, statuses, unhelpful);
}

std::vector<Candidate> FastDefaultPreemption::FindCandidates(const CycleState& state,
                                                             const Pod& pod, const NodeToStatus& m,
                                                             NodeToStatus* node_statuses,
                                                             std::string* error) const {
  assert(node_statuses->empty());
  if (handle_.snapshot == nullptr || handle_.snapshot->node_infos().empty()) {
    *error = "no nodes available";
    return {};
  }
  NodeToStatus unhelpful;
  std::vector<const NodeInfo*> potential =
      PotentialNodes(handle_.snapshot->node_infos(), m, &unhelpful);
  if (potential.empty()) {
    *node_statuses = std::move(unhelpful);
    return {};
  }
  const std::vector<const k8s::PodDisruptionBudget*> pdbs = GetPodDisruptionBudgets();
  const auto [offset, num_candidates] =
      GetOffsetAndNumCandidates(static_cast<int32_t>(potential.size()));
  // The plain DryRunPreemption's loop, with the statuses listed instead of put into the map.
  std::vector<Candidate> non_violating, violating;
  std::vector<std::pair<const NodeInfo*, Status>> rejected;
  std::vector<std::string> errors;
  const size_t n = potential.size();
  for (size_t i = 0; i < n; ++i) {
    const NodeInfo& node = *potential[(static_cast<size_t>(offset) + i) % n];
    NodeVictims v = SelectVictimsOnNode(state, pod, node, pdbs);
    if (v.status.IsSuccess() && !v.victims.empty()) {
      auto& list = v.num_pdb_violations == 0 ? non_violating : violating;
      if (list.size() < static_cast<size_t>(num_candidates)) {
        list.push_back({node.name(), std::move(v.victims), v.num_pdb_violations});
      }
      if (!non_violating.empty() &&
          non_violating.size() + violating.size() >= static_cast<size_t>(num_candidates)) {
        break;
      }
      continue;
    }
    if (v.status.IsSuccess()) {
      v.status = Status::Error("expected at least one victim pod on node \"" + node.name() + "\"");
    }
    if (v.status.code() == Code::kError) errors.push_back(v.status.Message());
    rejected.emplace_back(&node, std::move(v.status));
  }
  if (!errors.empty()) *error = AggregateMessage(errors);
  if (!non_violating.empty() || !violating.empty()) {
    // EvaluatorPreempt reads the statuses only when there is no candidate (its FitError).
    non_violating.insert(non_violating.end(), std::make_move_iterator(violating.begin()),
                         std::make_move_iterator(violating.end()));
    return non_violating;
  }
  // The dry run's nodes and the unhelpful ones are disjoint: both go into the map in name order
  // (the snapshot's name ranks), each insertion at its end.
  std::vector<int32_t> by_rank(handle_.snapshot->size(), -1);  // counted out: no sort
  for (size_t i = 0; i < rejected.size(); ++i) {
    assert(rejected[i].first->name_rank() < by_rank.size());  // the snapshot's own nodes
    by_rank[rejected[i].first->name_rank()] = static_cast<int32_t>(i);
  }
  auto next_unhelpful = unhelpful.begin();
  auto move_unhelpful_before = [&](const std::string* name) {
    while (next_unhelpful != unhelpful.end() &&
           (name == nullptr || next_unhelpful->first < *name)) {
      node_statuses->emplace_hint(node_statuses->end(), next_unhelpful->first,
                                  std::move(next_unhelpful->second));
      ++next_unhelpful;
    }
  };
  for (int32_t i : by_rank) {
    if (i < 0) continue;
    auto& [node, status] = rejected[i];
    move_unhelpful_before(&node->name());
    node_statuses->emplace_hint(node_statuses->end(), node->name(), std::move(status));
  }
  move_unhelpful_before(nullptr);
  return {};
}

}  // namespace schedcheck::reference
