#include "harness/cli/explain_command.h"

#include <iomanip>
#include <map>
#include <memory>
#include <optional>

#include "harness/check/cluster.h"
#include "harness/cli/engine_option.h"
#include "harness/cli/limit_option.h"
#include "harness/cli/seed_option.h"
#include "reference/plugins/default_preemption/default_preemption.h"
#include "reference/scheduler/scheduler.h"
#include "traces/input_limits.h"
#include "traces/manifests.h"

namespace schedcheck::cli {
namespace {

using reference::Status;

nlohmann::json StatusJson(const Status& s) {
  nlohmann::json j = {{"code", std::string(reference::CodeName(s.code()))}};
  if (!s.reasons().empty()) j["reasons"] = s.reasons();
  return j;
}

std::vector<std::string> Keys(const std::vector<reference::PodPtr>& pods) {
  std::vector<std::string> keys;
  for (const auto& p : pods) keys.push_back(p->key);
  return keys;
}

// DefaultPreemption's dry run: every candidate with its victims, and the tied best ones.
nlohmann::json PreemptionJson(const reference::PreemptionOutcome& o) {
  nlohmann::json j = {{"status", StatusJson(o.status)},
                      {"candidates", nlohmann::json::array()},
                      {"best", nlohmann::json::array()}};
  for (const auto& c : o.candidates) {
    j["candidates"].push_back(
        {{"node", c.node}, {"victims", Keys(c.victims)}, {"pdbViolations", c.num_pdb_violations}});
  }
  for (const auto& c : o.best) j["best"].push_back(c.node);
  if (o.result.nominating_info.mode == reference::NominatingInfo::Mode::kOverride) {
    j["nominatedNode"] = o.result.nominating_info.nominated_node_name;
  }
  return j;
}

Result<reference::Profile> ProfileFor(const ExplainOptions& o, const trace::InputLimits& limits,
                                      const std::string& scheduler_name) {
  if (o.config.empty()) {
    // The default profile, for whichever scheduler the pod names.
    reference::Profile p = reference::DefaultProfile(o.compat);
    p.scheduler_name = scheduler_name;
    return p;
  }
  auto config =
      reference::LoadSchedulerConfiguration(o.config, o.compat, trace::YamlLimitsOf(limits));
  if (!config.ok()) return config.error();
  for (reference::Profile& p : config->profiles) {
    if (p.scheduler_name == scheduler_name) {
      if (!p.percentage_of_nodes_to_score && config->percentage_of_nodes_to_score != 0) {
        p.percentage_of_nodes_to_score = config->percentage_of_nodes_to_score;
      }
      return p;
    }
  }
  return Error{o.config + ": no profile for schedulerName \"" + scheduler_name + "\""};
}

// The Scheduler explain builds: the engine's plugins and schedulePod, seeded --seed.
check::ClusterOptions ClusterOptionsFor(const ExplainOptions& o) {
  check::ClusterOptions options;
  options.compat = o.compat;
  options.engine = o.engine;
  options.seed = o.seed;
  options.config_source = o.config;
  return options;
}

}  // namespace

Result<nlohmann::json> Explain(const ExplainOptions& o) {
  trace::InputLimits limits;
  if (Outcome ok = trace::ParseInputLimits(o.limits, &limits); !ok) return ok.error();
  auto cluster_objects = trace::LoadManifests(o.cluster, limits);
  if (!cluster_objects.ok()) return cluster_objects.error();
  auto pod_objects = trace::LoadManifests({o.pod}, limits);
  if (!pod_objects.ok()) return pod_objects.error();
  if (pod_objects->pods.empty()) return Error{o.pod + ": no Pod object found"};
  const std::optional<reference::CompatLevel> level = reference::ParseCompatLevel(o.compat);
  if (!level) return Error{"--compat " + o.compat + ": not implemented (implemented: 1.27, 1.37)"};
  auto pod = reference::BuildPod(pod_objects->pods.front(), reference::FeaturesFor(*level));
  if (!pod.ok()) return Error{o.pod + ": " + pod.message()};
  auto profile = ProfileFor(o, limits, (*pod)->scheduler_name());
  if (!profile.ok()) return profile.error();

  check::ClusterInput input{cluster_objects->nodes,        cluster_objects->pods,
                            cluster_objects->namespaces,   cluster_objects->pdbs,
                            cluster_objects->services,     cluster_objects->replication_controllers,
                            cluster_objects->replica_sets, cluster_objects->stateful_sets};
  input.storage = {cluster_objects->persistent_volumes, cluster_objects->persistent_volume_claims,
                   cluster_objects->storage_classes,    cluster_objects->csi_nodes,
                   cluster_objects->csi_drivers,        cluster_objects->csi_storage_capacities};
  input.node_sources = cluster_objects->node_sources;
  input.pod_sources = cluster_objects->pod_sources;
  auto cluster = check::Cluster::Build(input, *profile, ClusterOptionsFor(o));
  if (!cluster.ok()) return cluster.error();
  (*cluster)->AddPendingPod(*pod);
  const reference::Framework& fw = (*cluster)->framework();
  const reference::Snapshot& snapshot = (*cluster)->snapshot();

  nlohmann::json out;
  out["pod"] = (*pod)->key;
  out["schedulerName"] = (*pod)->scheduler_name();
  out["seed"] = o.seed;
  out["filterPlugins"] = fw.PluginNames(reference::ExtensionPoint::kFilter);
  out["scorePlugins"] = nlohmann::json::array();
  for (const std::string& name : fw.PluginNames(reference::ExtensionPoint::kScore)) {
    out["scorePlugins"].push_back({{"name", name}, {"weight", fw.ScoreWeight(name)}});
  }

  // Every filter plugin on every node, without the short-circuit, for the table.
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  Status pre = fw.RunPreFilterPlugins(state, **pod, &pre_result);
  out["preFilter"] = StatusJson(pre);
  if (!pre.plugin().empty()) out["preFilter"]["plugin"] = pre.plugin();
  out["preFilter"]["skipped"] =
      std::vector<std::string>(state.skip_filter_plugins.begin(), state.skip_filter_plugins.end());
  if (!pre_result.all_nodes) out["preFilter"]["nodeNames"] = pre_result.node_names;
  out["nodes"] = nlohmann::json::array();
  for (const reference::NodeInfo* node : snapshot.node_infos()) {
    nlohmann::json n = {{"name", node->name()}};
    if (pre.IsSuccess()) {
      nlohmann::json plugins = nlohmann::json::object();
      for (const auto& [name, s] : fw.RunEachFilterPlugin(state, **pod, *node))
        plugins[name] = StatusJson(s);
      n["filters"] = plugins;
      n["status"] = StatusJson(fw.RunFilterPluginsWithNominatedPods(state, **pod, *node));
    } else {
      n["status"] = StatusJson(pre);
    }
    out["nodes"].push_back(n);
  }

  // The decision itself, exactly as a scheduling cycle makes it.
  reference::CycleState cycle_state;
  reference::CycleOutcome r = (*cluster)->scheduler().SchedulingCycle(cycle_state, *pod);
  out["evaluatedNodes"] = r.result.evaluated_nodes;
  out["feasibleNodes"] = r.result.feasible;
  out["scores"] = nlohmann::json::array();
  for (const reference::NodePluginScores& s : r.result.scores) {
    nlohmann::json row = {
        {"node", s.name}, {"total", s.total}, {"plugins", nlohmann::json::array()}};
    for (const reference::PluginScore& p : s.scores) {
      row["plugins"].push_back({{"name", p.plugin},
                                {"raw", p.raw},
                                {"normalized", p.normalized},
                                {"weighted", p.weighted}});
    }
    out["scores"].push_back(row);
  }
  if (r.status.IsSuccess() || r.status.IsWait()) {
    out["result"] = "Scheduled";
    out["node"] = r.result.node;
    out["ties"] = r.result.ties.Names();
  } else {
    out["result"] = r.status.code() == reference::Code::kError ? "Error" : "Unschedulable";
    out["message"] = r.message;
    out["unschedulablePlugins"] = r.unschedulable_plugins;
    if (r.result.kind == reference::ScheduleResult::Kind::kFitError) {
      if (auto* dp = dynamic_cast<const reference::DefaultPreemption*>(
              fw.GetPlugin("DefaultPreemption"))) {
        out["preemption"] =
            PreemptionJson(dp->Preempt(cycle_state, **pod, r.result.diagnosis.node_to_status));
      }
    }
  }
  return out;
}

void PrintExplanation(const nlohmann::json& e, std::ostream& out) {
  out << "pod " << e["pod"].get<std::string>() << " (profile "
      << e["schedulerName"].get<std::string>() << ")\n";
  out << "PreFilter: " << e["preFilter"]["code"].get<std::string>();
  if (e["preFilter"].contains("reasons")) out << ": " << e["preFilter"]["reasons"].dump();
  if (!e["preFilter"]["skipped"].empty())
    out << "  (skipped: " << e["preFilter"]["skipped"].dump() << ")";
  if (e["preFilter"].contains("nodeNames"))
    out << "  (nodes narrowed to " << e["preFilter"]["nodeNames"].dump() << ")";
  // A histogram first, so that thousands of nodes stay readable.
  std::map<std::string, int> histogram;
  int feasible = 0;
  for (const auto& n : e["nodes"]) {
    if (n["status"]["code"] == "Success") {
      ++feasible;
    } else if (n["status"].contains("reasons")) {
      for (const auto& r : n["status"]["reasons"]) ++histogram[r.get<std::string>()];
    }
  }
  out << "\n\nnodes: " << e["nodes"].size() << ", passing every filter: " << feasible << "\n";
  for (const auto& [reason, count] : histogram) out << "  " << count << " x " << reason << "\n";
  out << "\nFILTER\n";
  size_t width = 4;
  for (const auto& n : e["nodes"]) width = std::max(width, n["name"].get<std::string>().size());
  for (const auto& n : e["nodes"]) {
    out << "  " << std::left << std::setw(static_cast<int>(width)) << n["name"].get<std::string>()
        << "  ";
    const auto& status = n["status"];
    if (status["code"] == "Success") {
      out << "feasible";
    } else {
      out << status["code"].get<std::string>();
      if (status.contains("reasons")) out << ": " << status["reasons"].dump();
    }
    if (n.contains("filters")) {
      std::string failing;
      for (const auto& [plugin, s] : n["filters"].items()) {
        if (s["code"] != "Success" && s["code"] != "Skip")
          failing += (failing.empty() ? "" : ", ") + plugin;
      }
      if (!failing.empty()) out << "   [rejected by: " << failing << "]";
    }
    out << "\n";
  }
  if (!e["scores"].empty()) {
    out << "\nSCORE (raw/normalized/weighted)\n";
    for (const auto& row : e["scores"]) {
      out << "  " << std::left << std::setw(static_cast<int>(width))
          << row["node"].get<std::string>() << "  total " << std::setw(6)
          << row["total"].get<int64_t>();
      for (const auto& p : row["plugins"]) {
        out << "  " << p["name"].get<std::string>() << " " << p["raw"] << "/" << p["normalized"]
            << "/" << p["weighted"];
      }
      out << "\n";
    }
  }
  out << "\nevaluated " << e["evaluatedNodes"] << " node(s), " << e["feasibleNodes"].size()
      << " feasible\n";
  if (e["result"] == "Scheduled") {
    const auto& ties = e["ties"];
    std::string shown;
    for (size_t i = 0; i < ties.size() && i < 20; ++i)
      shown += (i ? ", " : "") + ties[i].get<std::string>();
    if (ties.size() > 20)
      shown += ", ... (" + std::to_string(ties.size()) + " in all; --json lists every one)";
    out << "RESULT: Scheduled on " << e["node"].get<std::string>() << "\n  top-score tie set ("
        << ties.size() << "): " << shown
        << "\n  (the real scheduler picks any of these at random; seed " << e["seed"] << ")\n";
  } else {
    out << "RESULT: " << e["result"].get<std::string>() << ": " << e["message"].get<std::string>()
        << "\n";
    if (e.contains("preemption")) {
      const auto& p = e["preemption"];
      out << "\nPREEMPTION (DefaultPreemption dry run; candidates are compared by: fewest PDB "
             "violations, lowest\n"
             "highest-victim priority, smallest priority sum, fewest victims, latest start of the "
             "top victim)\n";
      for (const auto& c : p["candidates"]) {
        out << "  " << c["node"].get<std::string>() << ": victims " << c["victims"].dump()
            << ", PDB violations " << c["pdbViolations"] << "\n";
      }
      if (p["candidates"].empty()) out << "  no candidate node\n";
      if (!p["best"].empty()) {
        out << "  best (tied after every criterion; upstream picks one): " << p["best"].dump()
            << "\n";
        if (p.contains("nominatedNode"))
          out << "  nominated: " << p["nominatedNode"].get<std::string>() << "\n";
      }
    }
  }
}

void AddExplainCommand(CLI::App& app, int* exit_code) {
  auto* cmd =
      app.add_subcommand("explain", "Explain how the reference schedules one pod on a cluster");
  auto o = std::make_shared<ExplainOptions>();
  cmd->add_option("--cluster", o->cluster,
                  "manifest files or folders: Nodes, Pods, Namespaces, PDBs, Lists")
      ->required();
  cmd->add_option("--pod", o->pod, "file holding the pod to schedule (the first Pod in it)")
      ->required();
  cmd->add_option("--config", o->config,
                  "KubeSchedulerConfiguration (default: kube-scheduler's default profile)");
  AddSeedOption(cmd, "--seed", &o->seed,
                "seed of the tie-break among top-scoring nodes (default 0)");
  AddEngineOption(cmd, &o->engine);
  cmd->add_option("--compat", o->compat, "compatibility level: 1.27 (default) or 1.37")
      ->check(CLI::IsMember({"1.27", "1.37"}));
  cmd->add_flag("--json", o->json, "print the explanation as one JSON document");
  AddLimitOption(cmd, &o->limits);
  cmd->callback([=] {
    auto e = Explain(*o);
    if (!e.ok()) {
      std::cerr << "schedcheck explain: " << e.message() << "\n";
      *exit_code = 2;
      return;
    }
    if (o->json) {
      std::cout << e->dump(2) << "\n";
    } else {
      PrintExplanation(*e, std::cout);
    }
    *exit_code = 0;
  });
}

}  // namespace schedcheck::cli
