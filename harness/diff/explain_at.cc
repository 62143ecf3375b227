#include "harness/diff/explain_at.h"

#include <map>
#include <optional>

#include "harness/check/cluster.h"
#include "harness/replay/decision_log.h"
#include "reference/scheduler/pod_signatures.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::diff {
namespace {

using reference::Status;

std::string PodKey(const k8s::ObjectMeta& m) {
  return (m.namespace_().empty() ? "default" : m.namespace_()) + "/" + m.name();
}

// The API objects at one moment, nodes in the order they first appeared.
struct State {
  std::vector<std::string> node_order;
  std::map<std::string, k8s::Node> nodes;
  std::vector<std::string> pod_order;
  std::map<std::string, k8s::Pod> pods;
  std::map<std::string, k8s::Namespace> namespaces;
  std::map<std::string, k8s::PodDisruptionBudget> pdbs;
  // Selector objects: PodTopologySpread's default constraints are built from them.
  std::map<std::string, k8s::Service> services;
  std::map<std::string, k8s::ReplicationController> replication_controllers;
  std::map<std::string, k8s::ReplicaSet> replica_sets;
  std::map<std::string, k8s::StatefulSet> stateful_sets;

  template <typename T>
  static void Apply(trace::EventType type, const std::string& key, const T& obj,
                    std::vector<std::string>* order, std::map<std::string, T>* objects) {
    if (type == trace::DELETED) {
      objects->erase(key);
      return;
    }
    if (!objects->count(key)) order->push_back(key);
    (*objects)[key] = obj;
  }

  void Apply(const trace::ApiEvent& e) {
    std::vector<std::string> ignored;
    if (e.has_node()) Apply(e.type(), e.node().metadata().name(), e.node(), &node_order, &nodes);
    if (e.has_pod()) Apply(e.type(), PodKey(e.pod().metadata()), e.pod(), &pod_order, &pods);
    if (e.has_namespace_())
      Apply(e.type(), e.namespace_().metadata().name(), e.namespace_(), &ignored, &namespaces);
    if (e.has_pod_disruption_budget()) {
      Apply(e.type(), PodKey(e.pod_disruption_budget().metadata()), e.pod_disruption_budget(),
            &ignored, &pdbs);
    }
    if (e.has_service())
      Apply(e.type(), PodKey(e.service().metadata()), e.service(), &ignored, &services);
    if (e.has_replication_controller()) {
      Apply(e.type(), PodKey(e.replication_controller().metadata()), e.replication_controller(),
            &ignored, &replication_controllers);
    }
    if (e.has_replica_set())
      Apply(e.type(), PodKey(e.replica_set().metadata()), e.replica_set(), &ignored, &replica_sets);
    if (e.has_stateful_set()) {
      Apply(e.type(), PodKey(e.stateful_set().metadata()), e.stateful_set(), &ignored,
            &stateful_sets);
    }
  }

  // A decision the reference made before the attempt explained.
  void Apply(const trace::Record& r) {
    if (r.has_binding()) {
      auto it = pods.find(r.binding().pod());
      if (it != pods.end()) it->second.mutable_spec()->set_node_name(r.binding().node());
    } else if (r.has_attempt()) {
      for (const std::string& v : r.attempt().victims()) pods.erase(v);
      auto it = pods.find(r.attempt().pod());
      if (it != pods.end() && !r.attempt().nominated_node().empty()) {
        it->second.mutable_status()->set_nominated_node_name(r.attempt().nominated_node());
      }
    }
  }
};

std::string StatusText(const Status& s) {
  std::string out(reference::CodeName(s.code()));
  for (size_t i = 0; i < s.reasons().size(); ++i) out += (i ? "; " : ": ") + s.reasons()[i];
  return out;
}

Result<reference::Profile> ProfileFor(const reference::SchedulerConfiguration& config,
                                      const std::string& name) {
  for (reference::Profile p : config.profiles) {
    if (p.scheduler_name != name) continue;
    if (!p.percentage_of_nodes_to_score && config.percentage_of_nodes_to_score != 0) {
      p.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
    }
    return p;
  }
  return Error{"no profile for schedulerName \"" + name + "\""};
}

std::string ScoresText(const reference::CycleOutcome& r, size_t max_nodes) {
  std::string out;
  size_t shown = 0;
  for (const reference::NodePluginScores& s : r.result.scores) {
    if (shown++ == max_nodes) {
      out += "    ... " + std::to_string(r.result.scores.size() - max_nodes) + " more node(s)\n";
      break;
    }
    out += "    " + s.name + " total " + std::to_string(s.total) + ":";
    for (const reference::PluginScore& p : s.scores) {
      out += " " + p.plugin + " " + std::to_string(p.raw) + "/" + std::to_string(p.normalized) +
             "/" + std::to_string(p.weighted);
    }
    out += "\n";
  }
  return out;
}

// The Scheduler one side is explained with: the plain rules, seed 1, the run's gates.
check::ClusterOptions ClusterOptionsFor(const ExplainOptions& o, const std::string& compat) {
  check::ClusterOptions options;
  options.compat = compat;
  options.engine = reference::Engine::kPlain;
  options.gates = o.feature_gates;
  options.seed = 1;
  return options;
}

Result<std::string> ExplainSideText(const check::ClusterInput& input, const reference::PodPtr& pod,
                                    const ExplainSide& side, const ExplainOptions& o,
                                    const std::string& compat) {
  auto profile = ProfileFor(side.config, pod->scheduler_name());
  if (!profile.ok()) return Error{side.label + ": " + profile.message()};
  auto cluster = check::Cluster::Build(input, *profile, ClusterOptionsFor(o, compat));
  if (!cluster.ok()) return Error{side.label + ": " + cluster.message()};
  (*cluster)->AddPendingPod(pod);
  const reference::Framework& fw = (*cluster)->framework();
  std::string out = side.label + " (profile " + pod->scheduler_name() + "):\n";
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  Status pre = fw.RunPreFilterPlugins(state, *pod, &pre_result);
  out += "  PreFilter: " + StatusText(pre) +
         (pre.plugin().empty() ? "" : " (" + pre.plugin() + ")") + "\n";
  size_t shown = 0;
  const auto& nodes = (*cluster)->snapshot().node_infos();
  for (const reference::NodeInfo* node : nodes) {
    if (!pre.IsSuccess()) break;
    if (shown++ == o.max_nodes) {
      out += "  ... " + std::to_string(nodes.size() - o.max_nodes) + " more node(s)\n";
      break;
    }
    std::string rejected;
    for (const auto& [name, s] : fw.RunEachFilterPlugin(state, *pod, *node)) {
      if (s.IsSuccess() || s.code() == reference::Code::kSkip) continue;
      rejected += (rejected.empty() ? "" : "; ") + name + " " + StatusText(s);
    }
    out += "  " + node->name() + ": " +
           (rejected.empty() ? "feasible" : "rejected by " + rejected) + "\n";
  }
  reference::CycleState cycle_state;
  reference::CycleOutcome r = (*cluster)->scheduler().SchedulingCycle(cycle_state, pod);
  if (!r.result.scores.empty())
    out += "  scores (raw/normalized/weighted):\n" + ScoresText(r, o.max_nodes);
  if (r.status.IsSuccess() || r.status.IsWait()) {
    std::string ties;
    for (const std::string& t : r.result.ties) ties += (ties.empty() ? "" : ",") + t;
    out += "  outcome: bound to " + r.result.node + " (ties {" + ties + "})\n";
  } else {
    std::string plugins;
    for (const std::string& p : r.unschedulable_plugins)
      plugins += (plugins.empty() ? "" : ",") + p;
    out += "  outcome: unschedulable by [" + plugins + "]: " + r.message + "\n";
  }
  if (compat == "1.37" &&
      reference::GateEnabled(o.feature_gates, reference::kOpportunisticBatching)) {
    const reference::PodSigner signer = reference::PodSigner::ForProfile(
        fw, *profile, reference::PodResourceGatesFrom(o.feature_gates));
    if (signer.Sign(*pod) != nullptr) {
      // The explanation scores afresh; the batch's state (the previous cycle's leftover nodes) is
      // not rebuilt here.
      out +=
          "  note: this profile signs the pod (OpportunisticBatching): when the previous cycle "
          "scheduled a pod with the same signature less than 500 ms earlier, the scheduler tried "
          "that pod's best leftover node first and took it unscored if it fit; the scores above "
          "are a fresh scoring\n";
    }
  }
  return out;
}

// What every side is evaluated on: the cluster just before the attempt, and the pending pod.
struct Snapshot {
  check::ClusterInput input;
  reference::PodPtr pod;
  std::string compat;
  int64_t t = 0;
  bool at_record = false;  // the divergence names an attempt of A
};

Result<Snapshot> SnapshotAt(const trace::Trace& cluster,
                            const std::vector<trace::Record>& reference_log, const Divergence& d,
                            const ExplainOptions& options) {
  Snapshot snap;
  snap.at_record =
      d.reference_record >= 0 && static_cast<size_t>(d.reference_record) < reference_log.size();
  const bool at_record = snap.at_record;
  const int64_t t = at_record ? reference_log[d.reference_record].time_ns() : d.t_ns;
  snap.t = t;
  State state;
  bool have_t0 = false;
  int64_t t0 = 0;
  for (const trace::Record& r : cluster.records) {
    if (!r.has_api()) continue;
    if (!have_t0) t0 = r.time_ns(), have_t0 = true;
    if (r.time_ns() - t0 > t) break;
    state.Apply(r.api());
  }
  for (size_t i = 0; i < reference_log.size(); ++i) {
    if (at_record ? static_cast<int64_t>(i) >= d.reference_record : reference_log[i].time_ns() >= t)
      break;
    state.Apply(reference_log[i]);
  }
  auto it = state.pods.find(d.pod);
  if (it == state.pods.end())
    return Error{"pod " + d.pod +
                 " does not exist in the cluster trace at t=" + replay::FormatSeconds(t)};
  k8s::Pod pending = it->second;
  pending.mutable_spec()->clear_node_name();
  pending.mutable_status()->clear_nominated_node_name();
  snap.compat = !options.compat.empty()            ? options.compat
                : !cluster.header.compat().empty() ? cluster.header.compat()
                                                   : "1.27";
  const std::optional<reference::CompatLevel> level = reference::ParseCompatLevel(snap.compat);
  if (!level)
    return Error{"compat " + snap.compat + " is not implemented (implemented: 1.27, 1.37)"};
  Result<reference::Features> features = reference::FeaturesFor(*level, options.feature_gates);
  if (!features.ok()) return features.error();
  auto pod = reference::BuildPod(pending, *features);
  if (!pod.ok()) return Error{"pod " + d.pod + ": " + pod.message()};
  snap.pod = *pod;
  check::ClusterInput& input = snap.input;
  for (const std::string& n : state.node_order) {
    if (state.nodes.count(n)) input.nodes.push_back(state.nodes.at(n));
  }
  for (const std::string& p : state.pod_order) {
    if (p != d.pod && state.pods.count(p)) input.pods.push_back(state.pods.at(p));
  }
  for (const auto& [name, ns] : state.namespaces) input.namespaces.push_back(ns);
  for (const auto& [name, pdb] : state.pdbs) input.pdbs.push_back(pdb);
  for (const auto& [name, s] : state.services) input.services.push_back(s);
  for (const auto& [name, rc] : state.replication_controllers)
    input.replication_controllers.push_back(rc);
  for (const auto& [name, rs] : state.replica_sets) input.replica_sets.push_back(rs);
  for (const auto& [name, ss] : state.stateful_sets) input.stateful_sets.push_back(ss);
  return snap;
}

}  // namespace

Result<std::string> ExplainAt(const trace::Trace& cluster,
                              const std::vector<trace::Record>& reference_log, const Divergence& d,
                              const std::vector<ExplainSide>& sides,
                              const ExplainOptions& options) {
  auto snap = SnapshotAt(cluster, reference_log, d, options);
  if (!snap.ok()) return snap.error();
  std::string out =
      "the cluster at t=" + replay::FormatSeconds(snap->t) + " as the " + options.snapshot_side +
      " saw it" +
      (snap->at_record ? " before attempt " +
                             std::to_string(reference_log[d.reference_record].attempt().attempt())
                       : "") +
      " (" + std::to_string(snap->input.nodes.size()) + " node(s), compat " + snap->compat + "):\n";
  for (const ExplainSide& side : sides) {
    auto text = ExplainSideText(snap->input, snap->pod, side, options, snap->compat);
    if (!text.ok()) return text.error();
    out += *text;
  }
  return out;
}

Outcome CheckConfiguration(const reference::SchedulerConfiguration& config,
                           const std::string& compat, const ExplainOptions& options) {
  for (reference::Profile p : config.profiles) {
    if (!p.percentage_of_nodes_to_score)
      p.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score;
    auto built = check::Cluster::Build({}, p, ClusterOptionsFor(options, compat));
    if (!built.ok()) return built.error();
  }
  return Outcome::Ok();
}

Result<Placement> PlaceAt(const trace::Trace& cluster,
                          const std::vector<trace::Record>& reference_log, const Divergence& d,
                          const reference::SchedulerConfiguration& config,
                          const ExplainOptions& options) {
  auto snap = SnapshotAt(cluster, reference_log, d, options);
  if (!snap.ok()) return snap.error();
  auto profile = ProfileFor(config, snap->pod->scheduler_name());
  if (!profile.ok()) return profile.error();
  auto built =
      check::Cluster::Build(snap->input, *profile, ClusterOptionsFor(options, snap->compat));
  if (!built.ok()) return built.error();
  (*built)->AddPendingPod(snap->pod);
  reference::CycleState state;
  reference::CycleOutcome r = (*built)->scheduler().SchedulingCycle(state, snap->pod);
  Placement p;
  p.bound = r.status.IsSuccess() || r.status.IsWait();
  if (p.bound) {
    p.node = r.result.node;
    for (const std::string& t : r.result.ties) p.ties.push_back(t);
  } else {
    p.plugins.assign(r.unschedulable_plugins.begin(), r.unschedulable_plugins.end());
  }
  return p;
}

}  // namespace schedcheck::diff
