#include "reference/plugins/default_preemption/default_preemption.h"

#include <algorithm>

#include <set>

#include "reference/framework/fit_error.h"

namespace schedcheck::reference {

// utilerrors.NewAggregate(...).Error(): one message as is, several (deduplicated) in brackets.
std::string AggregateMessage(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& e : errors) {
    if (seen.insert(e).second) unique.push_back(e);
  }
  if (unique.size() == 1) return unique[0];
  std::string out;
  for (size_t i = 0; i < unique.size(); ++i) out += (i ? ", " : "") + unique[i];
  return "[" + out + "]";
}

namespace {

Status AsError(const Status& s) { return Status::Error(s.Message()); }

Result<int32_t> ReadInt32(const nlohmann::json& v, const std::string& field) {
  if (!v.is_number_integer()) return Error{field + ": expected an integer"};
  int64_t n = v.get<int64_t>();
  if (n < INT32_MIN || n > INT32_MAX) return Error{field + ": out of int32 range"};
  return static_cast<int32_t>(n);
}

}  // namespace

bool PodTerminatingByPreemption(const Pod& pod) {
  if (!pod.terminating()) return false;
  // PodDisruptionConditions is on in v1.27 (beta): only a pod the scheduler itself is preempting
  // counts, as its first DisruptionTarget condition tells.
  for (const k8s::PodCondition& c : pod.obj.status().conditions()) {
    if (c.type() == "DisruptionTarget")
      return c.status() == "True" && c.reason() == "PreemptionByScheduler";
  }
  return false;
}

Result<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(const PluginArgs& args) {
  DefaultPreemptionArgs out;
  if (!args.is_null()) {
    if (!args.is_object()) return Error{"DefaultPreemptionArgs: expected an object"};
    for (const auto& [key, v] : args.items()) {
      if (key == "apiVersion" || key == "kind") continue;
      int32_t* target = key == "minCandidateNodesPercentage" ? &out.min_candidate_nodes_percentage
                        : key == "minCandidateNodesAbsolute" ? &out.min_candidate_nodes_absolute
                                                             : nullptr;
      if (target == nullptr) return Error{key + ": unknown field"};
      if (v.is_null()) continue;  // unset: keep the default
      Result<int32_t> n = ReadInt32(v, key);
      if (!n.ok()) return n.error();
      *target = *n;
    }
  }
  // ValidateDefaultPreemptionArgs.
  std::vector<std::string> errs;
  const int32_t pct = out.min_candidate_nodes_percentage, abs = out.min_candidate_nodes_absolute;
  if (pct < 0 || pct > 100) {
    errs.push_back("minCandidateNodesPercentage: Invalid value: " + std::to_string(pct) +
                   ": not in valid range [0, 100]");
  }
  if (abs < 0) {
    errs.push_back("minCandidateNodesAbsolute: Invalid value: " + std::to_string(abs) +
                   ": not in valid range [0, inf)");
  }
  if (pct == 0 && abs == 0) {
    errs.push_back(
        "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
        "minCandidateNodesAbsolute");
    errs.push_back(
        "minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as "
        "minCandidateNodesPercentage");
  }
  if (!errs.empty()) return Error{AggregateMessage(errs)};
  return out;
}

Result<std::unique_ptr<Plugin>> DefaultPreemption::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<DefaultPreemptionArgs> parsed = ParseDefaultPreemptionArgs(args);
  if (!parsed.ok()) return Error{"DefaultPreemption: " + parsed.message()};
  if (handle.features.default_preemption_pre_enqueue) {
    return std::unique_ptr<Plugin>(std::make_unique<DefaultPreemptionV1_37>(*parsed, handle));
  }
  return std::unique_ptr<Plugin>(std::make_unique<DefaultPreemption>(*parsed, handle));
}

Status DefaultPreemptionV1_37::PreEnqueue(const Pod& pod) {
  if (!handle_.features.scheduler_async_preemption || handle_.async_preemptions == nullptr ||
      handle_.async_preemptions->count(pod.uid()) == 0) {
    return Status();
  }
  return Status(Code::kUnschedulableAndUnresolvable, std::string(kWaiting));
}

std::vector<ClusterEventWithHint> DefaultPreemption::EventsToRegisterWithHints() const {
  // Without asynchronous preemption PreEnqueue never rejects, so nothing is registered.
  if (!handle_.features.scheduler_async_preemption) return {};
  // isPodSchedulableAfterAssignedPodDeletion.
  auto after_assigned_pod_deletion = [](const Pod&, const EventObjects&) -> Result<QueueingHint> {
    return QueueingHint::kQueueSkip;
  };
  return {
      {{std::string(resource::kAssignedPod), action::kDelete, ""}, after_assigned_pod_deletion}};
}

Status DefaultPreemption::PostFilter(CycleState& state, const Pod& pod,
                                     const NodeToStatus& statuses, PostFilterResult* result) {
  PreemptionOutcome out = Preempt(state, pod, statuses);
  *result = std::move(out.result);
  return out.status;
}

PreemptionOutcome DefaultPreemption::Preempt(const CycleState& state, const Pod& pod,
                                             const NodeToStatus& statuses) const {
  PreemptionOutcome out = EvaluatorPreempt(state, pod, statuses);
  if (std::string msg = out.status.Message(); !msg.empty()) {
    out.status = Status(out.status.code(), std::string(kPrefix) + msg);
  }
  return out;
}

PreemptionOutcome DefaultPreemption::EvaluatorPreempt(const CycleState& state, const Pod& pod_in,
                                                      const NodeToStatus& m) const {
  PreemptionOutcome out;
  // 0) The latest version of the preemptor from the informer (an update or a delete may have
  // arrived while the cycle ran); every later step uses it.
  PodPtr latest = handle_.pods != nullptr ? handle_.pods->Get(pod_in.key) : nullptr;
  if (handle_.pods != nullptr && latest == nullptr) {
    out.status = Status::Error("pod \"" + pod_in.name() + "\" not found");  // the lister's NotFound
    return out;
  }
  const Pod& pod = latest != nullptr ? *latest : pod_in;
  // 1) Ensure the preemptor is eligible to preempt other pods (the nomination is left as it is).
  auto nominated = m.find(pod.obj.status().nominated_node_name());
  if (auto [ok, msg] =
          PodEligibleToPreemptOthers(pod, nominated == m.end() ? nullptr : &nominated->second);
      !ok) {
    out.status = Status(Code::kUnschedulable, msg);
    return out;
  }
  // 2) Find all preemption candidates.
  std::string fit_error, error;
  out.candidates = FindCandidatesOrFitError(state, pod, m, &fit_error, &error);
  if (!error.empty() && out.candidates.empty()) {
    out.status = Status::Error(error);
    return out;
  }
  // A FitError only when no candidate fits the pod; the nomination is cleared.
  if (out.candidates.empty()) {
    out.status = Status(Code::kUnschedulable, fit_error);
    out.result.nominating_info = {NominatingInfo::Mode::kOverride, ""};
    return out;
  }
  // 3) No extenders. 4) Find the best candidate.
  out.best = SelectCandidate(out.candidates);
  if (out.best.empty() || out.best[0].node.empty()) {
    out.status = Status(Code::kUnschedulable, std::string(kNoCandidateNode));
    return out;
  }
  // 5) Prepare the chosen candidate and nominate it.
  PrepareCandidate(out.best[0], pod, &out.result);
  out.result.nominating_info = {NominatingInfo::Mode::kOverride, out.best[0].node};
  out.status = Status();
  if (handle_.features.reworded_messages) {
    // v1.37's Evaluator.Preempt says where it will place the pod (FitError's PostFilterMsg).
    out.status =
        Status(Code::kSuccess, "found a potential placement for pod on node " + out.best[0].node +
                                   ", preempting " + std::to_string(out.best[0].victims.size()) +
                                   " victims");
  }
  return out;
}

std::vector<Candidate> DefaultPreemption::FindCandidates(const CycleState& state, const Pod& pod,
                                                         const NodeToStatus& m,
                                                         NodeToStatus* node_statuses,
                                                         std::string* error) const {
  const std::vector<const NodeInfo*> no_nodes;
  const std::vector<const NodeInfo*>& all_nodes =
      handle_.snapshot ? handle_.snapshot->node_infos() : no_nodes;
  if (all_nodes.empty()) {
    *error = "no nodes available";
    return {};
  }
  NodeToStatus unschedulable_node_status;
  std::vector<const NodeInfo*> potential_nodes =
      NodesWherePreemptionMightHelp(all_nodes, m, &unschedulable_node_status);
  if (potential_nodes.empty()) {
    *node_statuses = std::move(unschedulable_node_status);
    return {};
  }
  const std::vector<const k8s::PodDisruptionBudget*> pdbs = GetPodDisruptionBudgets();
  auto [offset, num_candidates] =
      GetOffsetAndNumCandidates(static_cast<int32_t>(potential_nodes.size()));
  std::vector<std::string> errors;
  std::vector<Candidate> candidates = DryRunPreemption(
      state, pod, potential_nodes, pdbs, offset, num_candidates,
      [&](const NodeInfo& node, Status status) {
        (*node_statuses)[node.name()] = std::move(status);
      },
      &errors);
  for (auto& [node, status] : unschedulable_node_status) (*node_statuses)[node] = std::move(status);
  if (!errors.empty()) *error = AggregateMessage(errors);
  return candidates;
}

std::vector<Candidate> DefaultPreemption::FindCandidatesOrFitError(const CycleState& state,
                                                                   const Pod& pod,
                                                                   const NodeToStatus& m,
                                                                   std::string* fit_error,
                                                                   std::string* error) const {
  NodeToStatus node_statuses;
  std::vector<Candidate> candidates = FindCandidates(state, pod, m, &node_statuses, error);
  if (candidates.empty()) {
    // v1.27: framework.FitError{NumAllNodes: len(nodeStatuses), ...}. v1.37: NumAllNodes is every
    // node, and a node without a status (not tried) counts with the absent-node status
    // "Preemption is not helpful for scheduling".
    if (handle_.features.diagnosis_covers_every_node && handle_.snapshot != nullptr) {
      for (const NodeInfo* node : handle_.snapshot->node_infos()) {
        if (node_statuses.count(node->name()) == 0) {
          node_statuses[node->name()] =
              Status(Code::kUnschedulableAndUnresolvable, std::string(kPreemptionNotHelpful));
        }
      }
    }
    const int num_all_nodes = static_cast<int>(node_statuses.size());
    Diagnosis diagnosis;
    diagnosis.node_to_status = std::move(node_statuses);
    *fit_error = FitErrorMessage(num_all_nodes, diagnosis);
  }
  return candidates;
}

std::pair<bool, std::string> DefaultPreemption::PodEligibleToPreemptOthers(
    const Pod& pod, const Status* nominated_status) const {
  const k8s::PodSpec& spec = pod.obj.spec();
  if (spec.has_preemption_policy() && spec.preemption_policy() == "Never") {
    return {false, std::string(kNeverPolicy)};
  }
  const std::string& nom_node_name = pod.obj.status().nominated_node_name();
  if (!nom_node_name.empty()) {
    // A nominated node the filters call unresolvable: preempting again is allowed.
    if (nominated_status != nullptr &&
        nominated_status->code() == Code::kUnschedulableAndUnresolvable) {
      return {true, ""};
    }
    // Victims of an earlier preemption still terminating there: wait for them.
    if (const NodeInfo* node = handle_.snapshot ? handle_.snapshot->Get(nom_node_name) : nullptr) {
      for (const PodInfoPtr& p : node->pods()) {
        if (p->pod->priority < pod.priority && PodTerminatingByPreemption(*p->pod)) {
          return {false, std::string(kTerminatingOnNominated)};
        }
      }
    }
  }
  return {true, ""};
}

std::pair<int32_t, int32_t> DefaultPreemption::GetOffsetAndNumCandidates(int32_t num_nodes) const {
  return {0, CalculateNumCandidates(num_nodes)};
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  int32_t n = static_cast<int32_t>(static_cast<int64_t>(num_nodes) *
                                   args_.min_candidate_nodes_percentage / 100);
  if (n < args_.min_candidate_nodes_absolute) n = args_.min_candidate_nodes_absolute;
  if (n > num_nodes) n = num_nodes;
  return n;
}

std::vector<Candidate> DefaultPreemption::DryRunPreemption(
    const CycleState& state, const Pod& pod, const std::vector<const NodeInfo*>& potential_nodes,
    const std::vector<const k8s::PodDisruptionBudget*>& pdbs, int32_t offset,
    int32_t num_candidates, const RejectNode& reject, std::vector<std::string>* errors) const {
  std::vector<Candidate> non_violating_candidates, violating_candidates;
  const size_t n = potential_nodes.size();
  for (size_t i = 0; i < n; ++i) {
    const NodeInfo& node = *potential_nodes[(static_cast<size_t>(offset) + i) % n];
    NodeVictims v = SelectVictimsOnNode(state, pod, node, pdbs);
    if (v.status.IsSuccess() && !v.victims.empty()) {
      auto& list = v.num_pdb_violations == 0 ? non_violating_candidates : violating_candidates;
      // Each list holds at most num_candidates (candidateList).
      if (list.size() < static_cast<size_t>(num_candidates)) {
        list.push_back({node.name(), std::move(v.victims), v.num_pdb_violations});
      }
      const size_t nvc_size = non_violating_candidates.size(),
                   vc_size = violating_candidates.size();
      if (nvc_size > 0 && nvc_size + vc_size >= static_cast<size_t>(num_candidates)) break;
      continue;
    }
    if (v.status.IsSuccess()) {
      v.status = Status::Error("expected at least one victim pod on node \"" + node.name() + "\"");
    }
    if (v.status.code() == Code::kError) errors->push_back(v.status.Message());
    reject(node, std::move(v.status));
  }
  non_violating_candidates.insert(non_violating_candidates.end(), violating_candidates.begin(),
                                  violating_candidates.end());
  return non_violating_candidates;
}

NodeVictims DefaultPreemption::SelectVictimsOnNode(
    const CycleState& state_in, const Pod& pod, const NodeInfo& node_in,
    const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const {
  const FrameworkRunner& fw = *handle_.framework;
  std::unique_ptr<CycleState> state = state_in.Clone();
  std::unique_ptr<NodeInfo> node = node_in.Clone();
  auto remove_pod = [&](const PodInfoPtr& pi) {
    node->RemovePod(*pi->pod);
    return fw.RunPreFilterExtensionRemovePod(*state, pod, *pi, *node);
  };
  // v1.37 (GetVictimsOnNode): every pod on the node becomes a victim with its start time read
  // once, in the node's pod order.
  std::vector<int64_t> potential_start_ns;
  std::map<const Pod*, int64_t> start_ns;
  if (reads_start_times_once()) {
    for (const PodInfoPtr& pi : node_in.pods())
      start_ns[pi->pod.get()] = ReadStartTimeV1_37(*pi->pod);
  }
  // First remove every lower-priority pod, in the node's pod order.
  std::vector<PodInfoPtr> potential_victims;
  for (const PodInfoPtr& pi : node_in.pods()) {
    if (pi->pod->priority >= pod.priority) continue;
    potential_victims.push_back(pi);
    if (reads_start_times_once()) potential_start_ns.push_back(start_ns[pi->pod.get()]);
    if (Status s = remove_pod(pi); !s.IsSuccess()) return {AsError(s), {}, 0};
  }
  if (potential_victims.empty())
    return {Status(Code::kUnschedulableAndUnresolvable, std::string(kNoVictims)), {}, 0};
  // Not fitting even with all of them gone: this node cannot help (inter-pod affinity to a victim
  // is deliberately not considered upstream).
  if (Status s = fw.RunFilterPluginsWithNominatedPods(*state, pod, *node); !s.IsSuccess())
    return {s, {}, 0};
  if (reads_start_times_once()) {
    SortVictimsByImportance(potential_victims, potential_start_ns);
  } else {
    SortByImportance(potential_victims, NowNs());
  }
  std::vector<PodInfoPtr> violating_victims, non_violating_victims;
  FilterPodsWithPdbViolation(potential_victims, pdbs, &violating_victims, &non_violating_victims);
  NodeVictims out;
  // Reprieve: put a pod back; if the preemptor no longer fits, it becomes a victim.
  auto reprieve_pod = [&](const PodInfoPtr& pi, bool* fits) -> Status {
    node->AddPod(pi);
    if (Status s = fw.RunPreFilterExtensionAddPod(*state, pod, *pi, *node); !s.IsSuccess())
      return AsError(s);
    *fits = fw.RunFilterPluginsWithNominatedPods(*state, pod, *node).IsSuccess();
    if (*fits) return Status();
    if (Status s = remove_pod(pi); !s.IsSuccess()) return AsError(s);
    out.victims.push_back(pi->pod);
    return Status();
  };
  for (const PodInfoPtr& pi : violating_victims) {
    bool fits = false;
    if (Status s = reprieve_pod(pi, &fits); !s.IsSuccess()) return {s, {}, 0};
    if (!fits) ++out.num_pdb_violations;
  }
  for (const PodInfoPtr& pi : non_violating_victims) {
    bool fits = false;
    if (Status s = reprieve_pod(pi, &fits); !s.IsSuccess()) return {s, {}, 0};
  }
  if (reads_start_times_once() && !violating_victims.empty() && !non_violating_victims.empty()) {
    // v1.37 sorts the victims again, from the most important.
    std::vector<PodInfoPtr> infos;
    std::vector<int64_t> times;
    for (const PodPtr& v : out.victims) {
      infos.push_back(MakePodInfo(v));
      times.push_back(start_ns[v.get()]);
    }
    SortVictimsByImportance(infos, times);
    out.victims.clear();
    for (const PodInfoPtr& pi : infos) out.victims.push_back(pi->pod);
  }
  return out;
}

std::vector<Candidate> DefaultPreemption::SelectCandidate(
    const std::vector<Candidate>& candidates) const {
  if (reads_start_times_once()) {
    return BestCandidatesV1_37(candidates,
                               [this](const Pod& pod) { return ReadStartTimeV1_37(pod); });
  }
  return BestCandidates(candidates, NowNs());
}

int64_t DefaultPreemption::ReadStartTimeV1_37(const Pod& pod) const {
  if (std::optional<int64_t> start = PodStartTimeNs(pod)) return *start;
  const int64_t now = NowNs();
  if (now != reads_at_) {
    reads_at_ = now;
    reads_ = 0;
  }
  return now + ++reads_;
}

void DefaultPreemption::PrepareCandidate(const Candidate& c, const Pod& pod,
                                         PostFilterResult* result) const {
  result->victims = c.victims;
  if (handle_.features.preemption_skips_terminating_victims) {
    // prepareCandidate(Async): victims already being deleted get no second delete. Async with
    // none left, nothing runs (no nomination is cleared) and the preemptor is not held back; the
    // synchronous form (SchedulerAsyncPreemption off) clears the nominations all the same.
    std::erase_if(result->victims, [](const PodPtr& v) { return v->terminating(); });
    const bool async = handle_.features.scheduler_async_preemption;
    if (result->victims.empty() && async) return;
    if (async && handle_.async_preemptions != nullptr) handle_.async_preemptions->insert(pod.uid());
  }
  if (handle_.nominator == nullptr) return;
  for (const PodInfoPtr& p : handle_.nominator->NominatedPodsForNode(c.node)) {
    if (p->pod->priority < pod.priority) result->clear_nomination.push_back(p->pod);
  }
}

std::vector<const k8s::PodDisruptionBudget*> DefaultPreemption::GetPodDisruptionBudgets() const {
  std::vector<const k8s::PodDisruptionBudget*> out;
  if (handle_.objects == nullptr) return out;
  for (const auto& [key, pdb] : handle_.objects->pdbs) out.push_back(&pdb);
  return out;
}

}  // namespace schedcheck::reference
