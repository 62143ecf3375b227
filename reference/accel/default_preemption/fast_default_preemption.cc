#include "reference/accel/default_preemption/fast_default_preemption.h"

#include <algorithm>
#include <string>

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

}  // namespace schedcheck::reference
