#include "reference/accel/default_preemption/fast_default_preemption.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "reference/accel/fast_runner.h"
#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"
#include "reference/runtime/framework.h"

namespace schedcheck::reference {

namespace {

// Filters whose status depends on the node alone (its labels, taints, name, spec), never on the
// pods bound or nominated to it.
bool ReadsOnlyTheNode(std::string_view name) {
  return name == "NodeUnschedulable" || name == "NodeName" || name == "TaintToleration" ||
         name == "NodeAffinity";
}

// Filters (and their PreFilter extensions) that pass every existing node for `pod` whatever its
// pods, by what the pod asks: NodePorts without host ports (container ports alone do not count),
// VolumeRestrictions without volumes (its state then counts no conflicting claim),
// PodTopologySpread without DoNotSchedule constraints.
bool BlindToPodsFor(const Plugin& plugin, const CycleState& state, const Pod& pod) {
  const std::string_view name = plugin.Name();
  if (name == "NodePorts") {
    // A container port without a host port never conflicts (HostPortInfo.CheckConflict).
    return std::none_of(pod.container_ports.begin(), pod.container_ports.end(),
                        [](const HostPort& p) { return p.port > 0; });
  }
  if (name == "VolumeRestrictions") return pod.obj.spec().volumes().empty();
  if (const auto* spread = dynamic_cast<const FastPodTopologySpread*>(&plugin)) {
    return spread->FilterIgnoresPods(state);
  }
  return false;
}

}  // namespace

FastDryRunPlan PlanFastDryRun(const Handle& handle, const CycleState& state, const Pod& pod) {
  FastDryRunPlan plan;
  const auto* fw = dynamic_cast<const Framework*>(handle.framework);
  if (fw == nullptr) return plan;
  // The PreFilter extensions the dry run would run must change nothing a filter reads.
  for (const std::string& name : fw->PluginNames(ExtensionPoint::kPreFilter)) {
    const auto* pl = dynamic_cast<const PreFilterPlugin*>(fw->GetPlugin(name));
    if (pl == nullptr) return plan;
    if (!pl->HasPreFilterExtensions() || state.skip_filter_plugins.count(name) > 0) continue;
    if (!BlindToPodsFor(*pl, state, pod)) return plan;
  }
  FilterPlan filters;
  PlanFilters(*fw, state, pod, &filters);
  bool has_fit = false;
  for (size_t i = 0; i < filters.plugins.size(); ++i) {
    if (filters.skipped[i]) continue;
    FilterPlugin* pl = filters.plugins[i];
    const std::string* name = &InternPluginName(pl->Name());
    if (ReadsOnlyTheNode(pl->Name())) {
      plan.steps.push_back({pl, nullptr, name});
    } else if (auto* fit = dynamic_cast<FastNodeResourcesFit*>(pl)) {
      plan.steps.push_back({pl, fit, name});
      has_fit = true;
    } else if (!BlindToPodsFor(*pl, state, pod)) {
      return plan;
    }
  }
  // NodeResourcesFit without its PreFilter state gives errors: the plain run words them.
  plan.usable = !has_fit || state.ReadAs<NodeResourcesFit::PreFilterState>(
                                NodeResourcesFit::kPreFilterStateKey) != nullptr;
  return plan;
}

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
  if (plan_state_ == &state && plan_pod_ == &pod && plan_.usable) {
    if (std::optional<NodeVictims> v = SelectVictimsWithoutCopies(plan_, state, pod, node, pdbs))
      return std::move(*v);
  }
  return DefaultPreemption::SelectVictimsOnNode(state, pod, node, pdbs);
}

template <class Plain>
std::optional<NodeVictims> FastDefaultPreemptionOf<Plain>::SelectVictimsWithoutCopies(
    const FastDryRunPlan& plan, const CycleState& state, const Pod& pod, const NodeInfo& node,
    const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const {
  if (node.node() == nullptr) return std::nullopt;
  // The pod-blind filters' statuses on the node itself, up to the first that rejects (an error
  // goes to the plain run, which wraps it).
  std::vector<Status> blind(plan.steps.size());
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    if (plan.steps[i].fit != nullptr) continue;
    blind[i] = plan.steps[i].plugin->Filter(state, pod, node);
    if (blind[i].IsSuccess()) continue;
    if (!blind[i].IsRejected()) return std::nullopt;
    break;
  }
  // RunFilterPluginsWithNominatedPods: the pods of equal or higher priority nominated to the
  // node join it for the first pass. That pass passing, the second (without them) passes too:
  // the pod-blind filters give the same, and fewer pods leave more room.
  Resource nominated;
  int64_t num_nominated = 0;
  const Handle& handle = this->handle_;
  if (handle.nominator != nullptr && handle.nominator->HasNominatedPods()) {
    for (const PodInfoPtr& p : handle.nominator->NominatedPodsForNode(node.name())) {
      if (p->pod->priority < pod.priority || p->pod->uid() == pod.uid()) continue;
      nominated.Add(p->pod->requests);
      ++num_nominated;
    }
  }
  // v1.37 reads every pod's start time first, in the node's pod order.
  const bool v1_37 = this->reads_start_times_once();
  std::vector<PodInfoPtr> potential;
  std::vector<int64_t> potential_start_ns;
  std::vector<const Pod*> read_pods;
  std::vector<int64_t> read_ns;
  if (v1_37) {
    for (const PodInfoPtr& pi : node.pods()) {
      read_pods.push_back(pi->pod.get());
      read_ns.push_back(this->ReadStartTimeV1_37(*pi->pod));
    }
  }
  // Remove every lower-priority pod: only the requested resources and the count move.
  Resource requested = node.requested();
  int64_t num_pods = static_cast<int64_t>(node.pods().size());
  for (size_t i = 0; i < node.pods().size(); ++i) {
    const PodInfoPtr& pi = node.pods()[i];
    if (pi->pod->priority >= pod.priority) continue;
    potential.push_back(pi);
    if (v1_37) potential_start_ns.push_back(read_ns[i]);
    requested.Subtract(pi->pod->requests);
    --num_pods;
  }
  if (potential.empty()) {
    return NodeVictims{
        Status(Code::kUnschedulableAndUnresolvable, std::string(DefaultPreemption::kNoVictims)),
        {},
        0};
  }
  // NodeResourcesFit on the dry run's numbers with the nominated pods joined.
  auto fit = [&](const FastDryRunPlan::Step& step) {
    Resource with = requested;
    with.Add(nominated);
    return step.fit->FilterWithRequested(state, node, with, num_pods + num_nominated);
  };
  // With all of them gone: the filters in order, the first rejection is the node's status.
  const FastDryRunPlan::Step* fit_step = nullptr;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const FastDryRunPlan::Step& step = plan.steps[i];
    Status s = step.fit != nullptr ? fit(step) : blind[i];
    if (step.fit != nullptr) fit_step = &step;
    if (s.IsSuccess()) continue;
    s.WithInternedPlugin(*step.name);
    return NodeVictims{std::move(s), {}, 0};
  }
  // Every pod-blind filter passed; from here only NodeResourcesFit can change its answer.
  auto fits = [&] { return fit_step == nullptr || fit(*fit_step).IsSuccess(); };
  if (v1_37) {
    SortVictimsByImportance(potential, potential_start_ns);
  } else {
    SortByImportance(potential, this->NowNs());
  }
  std::vector<PodInfoPtr> violating_victims, non_violating_victims;
  FilterPodsWithPdbViolation(potential, pdbs, &violating_victims, &non_violating_victims);
  NodeVictims out;
  // Reprieve: put a pod back; if the preemptor no longer fits, it becomes a victim.
  auto reprieve = [&](const PodInfoPtr& pi) {
    requested.Add(pi->pod->requests);
    ++num_pods;
    if (fits()) return true;
    requested.Subtract(pi->pod->requests);
    --num_pods;
    out.victims.push_back(pi->pod);
    return false;
  };
  for (const PodInfoPtr& pi : violating_victims) {
    if (!reprieve(pi)) ++out.num_pdb_violations;
  }
  for (const PodInfoPtr& pi : non_violating_victims) reprieve(pi);
  if (v1_37 && !violating_victims.empty() && !non_violating_victims.empty()) {
    // v1.37 sorts the victims again, from the most important.
    std::vector<PodInfoPtr> infos;
    std::vector<int64_t> times;
    for (const PodPtr& v : out.victims) {
      infos.push_back(MakePodInfo(v));
      const size_t at = std::find(read_pods.begin(), read_pods.end(), v.get()) - read_pods.begin();
      times.push_back(read_ns[at]);
    }
    SortVictimsByImportance(infos, times);
    out.victims.clear();
    for (const PodInfoPtr& pi : infos) out.victims.push_back(pi->pod);
  }
  return out;
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
    plan_ = PlanFastDryRun(handle_, state, pod);
    plan_state_ = &state;
    plan_pod_ = &pod;
    candidates = this->DryRunPreemption(
        state, pod, potential, this->GetPodDisruptionBudgets(), offset, num_candidates,
        [&](const NodeInfo&, Status status) {
          counter.Add(status);
          ++num_rejected;
        },
        &errors);
    plan_state_ = nullptr;
    plan_pod_ = nullptr;
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
