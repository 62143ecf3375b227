#include "reference/accel/default_preemption/fast_default_preemption.h"

#include <algorithm>
#include <map>
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
  NodeToStatus::iterator hint;
  if (unhelpful != nullptr) hint = unhelpful->end();
  for (size_t i : by_name) {
    const std::string& name = nodes[i]->name();
    while (it != statuses.end() && it->first < name) ++it;
    if (it == statuses.end() || it->first != name ||
        it->second.code() != Code::kUnschedulableAndUnresolvable)
      continue;
    unresolvable[i] = 1;
    if (unhelpful == nullptr) continue;
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

template <class Plain>
Result<std::unique_ptr<Plugin>> FastDefaultPreemptionOf<Plain>::New(const PluginArgs& args,
                                                                    const Handle& handle) {
  Result<DefaultPreemptionArgs> parsed = ParseDefaultPreemptionArgs(args);
  if (!parsed.ok()) return Error{"DefaultPreemption: " + parsed.message()};
  if (handle.features.default_preemption_pre_enqueue) {
    return std::unique_ptr<Plugin>(
        std::make_unique<FastDefaultPreemptionOf<DefaultPreemptionV1_37>>(*parsed, handle));
  }
  return std::unique_ptr<Plugin>(
      std::make_unique<FastDefaultPreemptionOf<DefaultPreemption>>(*parsed, handle));
}

template <class Plain>
NodeVictims FastDefaultPreemptionOf<Plain>::SelectVictimsOnNode(
    const CycleState& state, const Pod& pod, const NodeInfo& node,
    const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const {
  if (node.lowest_pod_priority() >= pod.priority) {
    // v1.37 reads every pod's start time first, and a read of a pod without one moves the clock
    // of later reads: the shortcut makes the same reads (without copying the node).
    if (this->reads_start_times_once()) {
      for (const PodInfoPtr& pi : node.pods()) this->ReadStartTimeV1_37(*pi->pod);
    }
    return {ConstantStatus<Code::kUnschedulableAndUnresolvable, DefaultPreemption::kNoVictims>(),
            {},
            0};
  }
  return DefaultPreemption::SelectVictimsOnNode(state, pod, node, pdbs);
}

template <class Plain>
std::vector<Candidate> FastDefaultPreemptionOf<Plain>::FindCandidatesOrFitError(
    const CycleState& state, const Pod& pod, const NodeToStatus& m, std::string* fit_error,
    std::string* error) const {
  const Handle& handle_ = this->handle_;
  if (handle_.snapshot == nullptr || handle_.snapshot->node_infos().empty()) {
    *error = "no nodes available";
    return {};
  }
  const std::vector<const NodeInfo*>& all_nodes = handle_.snapshot->node_infos();
  const std::vector<const NodeInfo*> potential =
      NodesWherePreemptionMightHelpInNameOrder(all_nodes, m, nullptr);
  // Every other node has the one "not helpful" status.
  const int num_unhelpful = static_cast<int>(all_nodes.size() - potential.size());
  std::vector<Candidate> candidates;
  ReasonCounter counter;
  int num_rejected = 0;
  if (!potential.empty()) {
    const auto [offset, num_candidates] =
        this->GetOffsetAndNumCandidates(static_cast<int32_t>(potential.size()));
    std::vector<std::string> errors;
    candidates = this->DryRunPreemption(
        state, pod, potential, this->GetPodDisruptionBudgets(), offset, num_candidates,
        [&](const NodeInfo&, Status status) {
          counter.Add(status);
          ++num_rejected;
        },
        &errors);
    if (!errors.empty()) *error = AggregateMessage(errors);
  }
  if (candidates.empty()) {
    std::map<std::string, int> reason_counts = counter.ReasonCounts();
    // v1.37 counts every node: one the dry run did not reach has the absent-node status.
    int num_all = num_rejected + num_unhelpful;
    const int not_reached = static_cast<int>(all_nodes.size()) - num_all;
    const bool every_node = handle_.features.diagnosis_covers_every_node;
    const int not_helpful = num_unhelpful + (every_node ? not_reached : 0);
    if (every_node) num_all = static_cast<int>(all_nodes.size());
    if (not_helpful > 0) reason_counts[std::string(kPreemptionNotHelpful)] += not_helpful;
    *fit_error = FitErrorMessageFromReasonCounts(num_all, reason_counts, "");
  }
  return candidates;
}

template class FastDefaultPreemptionOf<DefaultPreemption>;
template class FastDefaultPreemptionOf<DefaultPreemptionV1_37>;

}  // namespace schedcheck::reference
