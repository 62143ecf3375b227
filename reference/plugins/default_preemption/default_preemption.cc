#include "reference/plugins/default_preemption/default_preemption.h"

#include <algorithm>

#include <set>

#include "reference/scheduler/schedule_one.h"

namespace schedcheck::reference {
namespace {

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
    if (c.type() == "DisruptionTarget") return c.status() == "True" && c.reason() == "PreemptionByScheduler";
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
    errs.push_back("minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
                   "minCandidateNodesAbsolute");
    errs.push_back("minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as "
                   "minCandidateNodesPercentage");
  }
  if (!errs.empty()) return Error{AggregateMessage(errs)};
  return out;
}

Result<std::unique_ptr<Plugin>> DefaultPreemption::New(const PluginArgs& args, const Handle& handle) {
  Result<DefaultPreemptionArgs> parsed = ParseDefaultPreemptionArgs(args);
  if (!parsed.ok()) return Error{"DefaultPreemption: " + parsed.message()};
  return std::unique_ptr<Plugin>(std::make_unique<DefaultPreemption>(*parsed, handle));
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  int32_t n = static_cast<int32_t>(static_cast<int64_t>(num_nodes) * args_.min_candidate_nodes_percentage / 100);
  if (n < args_.min_candidate_nodes_absolute) n = args_.min_candidate_nodes_absolute;
  if (n > num_nodes) n = num_nodes;
  return n;
}

std::pair<bool, std::string> DefaultPreemption::PodEligibleToPreemptOthers(const Pod& pod,
                                                                           const Status* nominated_status) const {
  const k8s::PodSpec& spec = pod.obj.spec();
  if (spec.has_preemption_policy() && spec.preemption_policy() == "Never") {
    return {false, std::string(kNeverPolicy)};
  }
  const std::string& nominated = pod.obj.status().nominated_node_name();
  if (!nominated.empty()) {
    // A nominated node the filters call unresolvable: preempting again is allowed.
    if (nominated_status != nullptr && nominated_status->code() == Code::kUnschedulableAndUnresolvable) {
      return {true, ""};
    }
    // Victims of an earlier preemption still terminating there: wait for them.
    if (const NodeInfo* node = handle_.snapshot ? handle_.snapshot->Get(nominated) : nullptr) {
      for (const PodInfoPtr& p : node->pods()) {
        if (p->pod->priority < pod.priority && PodTerminatingByPreemption(*p->pod)) {
          return {false, std::string(kTerminatingOnNominated)};
        }
      }
    }
  }
  return {true, ""};
}

NodeVictims DefaultPreemption::SelectVictimsOnNode(const CycleState& state_in, const Pod& pod,
                                                   const NodeInfo& node_in,
                                                   const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const {
  const FrameworkRunner& fw = *handle_.framework;
  // Same outcome as below with nothing to remove, without copying the node and the state.
  // One shared status for every node without victims (copies share it).
  static thread_local const Status* const no_victims = new Status(Code::kUnschedulableAndUnresolvable, std::string(kNoVictims));
  if (node_in.lowest_pod_priority() >= pod.priority) return {*no_victims, {}, 0};
  std::unique_ptr<CycleState> state = state_in.Clone();
  std::unique_ptr<NodeInfo> node = node_in.Clone();
  // First remove every lower-priority pod, in the node's pod order.
  std::vector<PodInfoPtr> potential;
  for (const PodInfoPtr& pi : node_in.pods()) {
    if (pi->pod->priority >= pod.priority) continue;
    potential.push_back(pi);
    node->RemovePod(*pi->pod);
    Status s = fw.RunPreFilterExtensionRemovePod(*state, pod, *pi, *node);
    if (!s.IsSuccess()) return {AsError(s), {}, 0};
  }
  if (potential.empty()) return {*no_victims, {}, 0};
  // Not fitting even with all of them gone: this node cannot help (inter-pod affinity to a victim
  // is deliberately not considered upstream).
  if (Status s = fw.RunFilterPluginsWithNominatedPods(*state, pod, *node); !s.IsSuccess()) return {s, {}, 0};

  SortByImportance(potential, NowNs());
  std::vector<PodInfoPtr> violating, non_violating;
  FilterPodsWithPdbViolation(potential, pdbs, &violating, &non_violating);
  NodeVictims out;
  // Reprieve: put a pod back; if the preemptor no longer fits, it becomes a victim.
  auto reprieve = [&](const PodInfoPtr& pi, bool* fits) -> Status {
    node->AddPod(pi);
    Status s = fw.RunPreFilterExtensionAddPod(*state, pod, *pi, *node);
    if (!s.IsSuccess()) return AsError(s);
    *fits = fw.RunFilterPluginsWithNominatedPods(*state, pod, *node).IsSuccess();
    if (!*fits) {
      node->RemovePod(*pi->pod);
      s = fw.RunPreFilterExtensionRemovePod(*state, pod, *pi, *node);
      if (!s.IsSuccess()) return AsError(s);
      out.victims.push_back(pi->pod);
    }
    return Status();
  };
  for (const PodInfoPtr& pi : violating) {
    bool fits = false;
    if (Status s = reprieve(pi, &fits); !s.IsSuccess()) return {s, {}, 0};
    if (!fits) ++out.num_pdb_violations;
  }
  for (const PodInfoPtr& pi : non_violating) {
    bool fits = false;
    if (Status s = reprieve(pi, &fits); !s.IsSuccess()) return {s, {}, 0};
  }
  return out;
}

std::vector<Candidate> DefaultPreemption::DryRunPreemption(const CycleState& state, const Pod& pod,
                                                           const std::vector<const NodeInfo*>& potential,
                                                           const std::vector<const k8s::PodDisruptionBudget*>& pdbs,
                                                           int32_t offset, int32_t num_candidates,
                                                           std::vector<std::pair<const NodeInfo*, Status>>* failed,
                                                           std::vector<std::string>* errors) const {
  std::vector<Candidate> non_violating, violating;
  const size_t n = potential.size();
  for (size_t i = 0; i < n; ++i) {
    const NodeInfo& node = *potential[(static_cast<size_t>(offset) + i) % n];
    NodeVictims v = SelectVictimsOnNode(state, pod, node, pdbs);
    if (v.status.IsSuccess() && !v.victims.empty()) {
      auto& list = v.num_pdb_violations == 0 ? non_violating : violating;
      // Each list holds at most num_candidates (candidateList).
      if (list.size() < static_cast<size_t>(num_candidates)) {
        list.push_back({node.name(), std::move(v.victims), v.num_pdb_violations});
      }
      if (!non_violating.empty() && non_violating.size() + violating.size() >= static_cast<size_t>(num_candidates)) {
        break;
      }
      continue;
    }
    if (v.status.IsSuccess()) {
      v.status = Status::Error("expected at least one victim pod on node \"" + node.name() + "\"");
    }
    if (v.status.code() == Code::kError) errors->push_back(v.status.Message());
    failed->emplace_back(&node, std::move(v.status));
  }
  non_violating.insert(non_violating.end(), violating.begin(), violating.end());
  return non_violating;
}

std::vector<const k8s::PodDisruptionBudget*> DefaultPreemption::Pdbs() const {
  std::vector<const k8s::PodDisruptionBudget*> out;
  if (handle_.objects == nullptr) return out;
  for (const auto& [key, pdb] : handle_.objects->pdbs) out.push_back(&pdb);
  return out;
}

PreemptionOutcome DefaultPreemption::Evaluate(const CycleState& state, const Pod& pod,
                                              const NodeToStatus& statuses) const {
  PreemptionOutcome out;
  auto nominated_it = statuses.find(pod.obj.status().nominated_node_name());
  auto [eligible, why] =
      PodEligibleToPreemptOthers(pod, nominated_it == statuses.end() ? nullptr : &nominated_it->second);
  if (!eligible) {
    out.status = Status(Code::kUnschedulable, why);  // nomination left as it is
    return out;
  }
  // findCandidates.
  const std::vector<const NodeInfo*> no_nodes;
  const std::vector<const NodeInfo*>& all = handle_.snapshot ? handle_.snapshot->node_infos() : no_nodes;
  if (all.empty()) {
    out.status = Status::Error("no nodes available");
    return out;
  }
  // The dry run's statuses: the nodes preemption cannot help, then the nodes it found no
  // candidate on (no node is in both). They only make the message when there is no candidate.
  NodeToStatus unhelpful;
  std::vector<const NodeInfo*> potential = NodesWherePreemptionMightHelp(all, statuses, &unhelpful);
  std::vector<std::pair<const NodeInfo*, Status>> failed;
  std::vector<std::string> errors;
  if (!potential.empty()) {
    const int32_t n = static_cast<int32_t>(potential.size());
    out.candidates = DryRunPreemption(state, pod, potential, Pdbs(), /*offset=*/0, CalculateNumCandidates(n),
                                      &failed, &errors);
  }
  if (!errors.empty() && out.candidates.empty()) {
    out.status = Status::Error(AggregateMessage(errors));
    return out;
  }
  if (out.candidates.empty()) {
    // A FitError over the dry-run statuses; the nomination is cleared.
    ReasonHistogram rejections;
    for (const auto& [node, status] : unhelpful) rejections.Add(status);
    for (const auto& [node, status] : failed) rejections.Add(status);
    const int num_nodes = static_cast<int>(unhelpful.size() + failed.size());
    out.status = Status(Code::kUnschedulable, FitErrorMessage(num_nodes, rejections, std::string()));
    out.result.nominating_info = {NominatingInfo::Mode::kOverride, ""};
    return out;
  }
  out.best = BestCandidates(out.candidates, NowNs());
  if (out.best.empty() || out.best[0].node.empty()) {
    out.status = Status(Code::kUnschedulable, std::string(kNoCandidateNode));
    return out;
  }
  const Candidate& chosen = out.best[0];
  out.result.nominating_info = {NominatingInfo::Mode::kOverride, chosen.node};
  out.result.victims = chosen.victims;
  // prepareCandidate: lower-priority pods nominated to the chosen node lose their nomination.
  if (handle_.nominator != nullptr) {
    for (const PodInfoPtr& p : handle_.nominator->NominatedPodsForNode(chosen.node)) {
      if (p->pod->priority < pod.priority) out.result.clear_nomination.push_back(p->pod);
    }
  }
  out.status = Status();
  return out;
}

PreemptionOutcome DefaultPreemption::Preempt(const CycleState& state, const Pod& pod,
                                             const NodeToStatus& statuses) const {
  // Evaluator.Preempt step 0: the latest version of the preemptor from the informer (an update
  // or a delete may have arrived while the cycle ran); every later step uses it.
  PodPtr latest;
  PreemptionOutcome out;
  if (handle_.pods != nullptr && (latest = handle_.pods->Get(pod.key)) == nullptr) {
    out.status = Status::Error("pod \"" + pod.name() + "\" not found");  // the lister's NotFound
  } else {
    out = Evaluate(state, latest != nullptr ? *latest : pod, statuses);
  }
  if (std::string msg = out.status.Message(); !msg.empty()) {
    out.status = Status(out.status.code(), std::string(kPrefix) + msg);
  }
  return out;
}

Status DefaultPreemption::PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                                     PostFilterResult* result) {
  PreemptionOutcome out = Preempt(state, pod, statuses);
  *result = std::move(out.result);
  return out.status;
}

}  // namespace schedcheck::reference
