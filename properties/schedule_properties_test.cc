// Properties of one scheduling decision (SchedulePod with the default v1.27 profile) on generated
// clusters: filtering against independent oracles, scoring arithmetic, tie sets, determinism and
// metamorphic relations (node order, an extra infeasible node, an extra pod).
#include <algorithm>
#include <map>
#include <set>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/accel/batch_plugin.h"
#include "reference/accel/fast_runner.h"

namespace schedcheck::properties {
namespace {

using reference::Engine;
using reference::ScheduleResult;

std::set<std::string> AsSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ",") + s;
  return "{" + out + "}";
}

// Every node is evaluated (at most 5 nodes, far below the 100-node minimum of
// numFeasibleNodesToFind), so the feasible set is exactly the nodes every oracle accepts.
RC_GTEST_PROP(ScheduleProperties, FeasibleSetEqualsOracle, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  ScheduleResult r = ScheduleOnce(loaded, 1);
  RC_PRE(r.kind != ScheduleResult::Kind::kError);
  const std::set<std::string> feasible = AsSet(r.feasible);
  for (const k8s::Node& n : c.nodes) {
    const std::string& name = n.metadata().name();
    std::string why = OracleAllFilters(StateOf(c), c.pod, name);
    PROP_REQUIRE(feasible.count(name) == static_cast<size_t>(why.empty()),
                 "FeasibleSetEqualsOracle", CaseAsTrace(c),
                 "node " + name + ": reference feasible=" + std::to_string(feasible.count(name)) +
                     ", oracle says " + (why.empty() ? "fits" : why));
  }
}

// Each Filter plugin's own verdict (explain's view, without short-circuit) agrees with its oracle.
RC_GTEST_PROP(ScheduleProperties, EachFilterPluginAgreesWithOracle, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  const reference::Framework& fw = loaded.cluster->framework();
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  reference::Status pre = fw.RunPreFilterPlugins(state, *loaded.pod, &pre_result);
  PROP_REQUIRE(pre.IsSuccess(), "EachFilterPluginAgreesWithOracle", CaseAsTrace(c),
               "PreFilter: " + pre.DebugString());
  for (const reference::NodeInfo* node : loaded.cluster->snapshot().node_infos()) {
    for (const auto& [plugin, status] : fw.RunEachFilterPlugin(state, *loaded.pod, *node)) {
      if (status.IsSkip()) continue;
      std::string why = OracleFilter(plugin, StateOf(c), c.pod, node->name());
      PROP_REQUIRE(status.IsSuccess() == why.empty(), "EachFilterPluginAgreesWithOracle",
                   CaseAsTrace(c),
                   plugin + " on " + node->name() + ": reference " + status.DebugString() +
                       ", oracle " + (why.empty() ? "fits" : why));
    }
  }
}

// The chosen node passes the default profile's PreFilter + Filter when re-run from scratch.
RC_GTEST_PROP(ScheduleProperties, ChosenNodePassesEveryFilter, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  ScheduleResult r = ScheduleOnce(loaded, 7);
  RC_CLASSIFY(r.kind == ScheduleResult::Kind::kScheduled, "scheduled");
  if (r.kind != ScheduleResult::Kind::kScheduled) return;
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  const reference::Framework& fw = loaded.cluster->framework();
  RC_ASSERT(fw.RunPreFilterPlugins(state, *loaded.pod, &pre_result).IsSuccess());
  RC_ASSERT(pre_result.all_nodes || pre_result.node_names.count(r.node) > 0);
  reference::Status s =
      fw.RunFilterPlugins(state, *loaded.pod, *loaded.cluster->snapshot().Get(r.node));
  PROP_REQUIRE(s.IsSuccess(), "ChosenNodePassesEveryFilter", CaseAsTrace(c),
               r.node + ": " + s.DebugString());
}

// A fit error names every node, each with a rejecting status, and the message counts them all.
RC_GTEST_PROP(ScheduleProperties, FitErrorDiagnosesEveryNode, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  ScheduleResult r = ScheduleOnce(loaded, 1);
  RC_ASSERT(r.num_all_nodes == static_cast<int>(c.nodes.size()));
  RC_ASSERT((r.kind == ScheduleResult::Kind::kFitError) == r.feasible.empty());
  if (r.kind != ScheduleResult::Kind::kFitError) return;
  RC_ASSERT(r.diagnosis.node_to_status.size() == c.nodes.size());
  std::set<std::string> plugins;
  for (const auto& [node, status] : r.diagnosis.node_to_status) {
    RC_ASSERT(status.IsRejected());
    plugins.insert(status.plugin());
  }
  RC_ASSERT(plugins == r.diagnosis.unschedulable_plugins);
  const std::string msg = reference::FitErrorMessage(r.num_all_nodes, r.diagnosis);
  const std::string prefix = "0/" + std::to_string(c.nodes.size()) + " nodes are available: ";
  PROP_REQUIRE(msg.rfind(prefix, 0) == 0, "FitErrorDiagnosesEveryNode", CaseAsTrace(c), msg);
}

// Normalized scores lie in [0, 100]; weighted = normalized * the profile weight; total = sum.
RC_GTEST_PROP(ScheduleProperties, ScoresAreNormalizedAndWeighted, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  ScheduleResult r = ScheduleOnce(loaded, 1);
  const reference::Framework& fw = loaded.cluster->framework();
  for (const reference::NodePluginScores& ns : r.scores) {
    int64_t sum = 0;
    for (const reference::PluginScore& ps : ns.scores) {
      PROP_REQUIRE(ps.normalized >= 0 && ps.normalized <= 100, "ScoresAreNormalizedAndWeighted",
                   CaseAsTrace(c),
                   ns.name + " " + ps.plugin + " normalized " + std::to_string(ps.normalized));
      PROP_REQUIRE(ps.weighted == ps.normalized * fw.ScoreWeight(ps.plugin),
                   "ScoresAreNormalizedAndWeighted", CaseAsTrace(c),
                   ns.name + " " + ps.plugin + " weighted " + std::to_string(ps.weighted));
      sum += ps.weighted;
    }
    RC_ASSERT(ns.total == sum);
  }
}

// Scores cover exactly the feasible nodes; ties are exactly the top scorers; the choice is a tie.
RC_GTEST_PROP(ScheduleProperties, ChoiceIsInTheTopScoringTieSet, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  ScheduleResult r = ScheduleOnce(loaded, *rc::gen::inRange<uint64_t>(0, 1000));
  RC_CLASSIFY(r.kind == ScheduleResult::Kind::kScheduled, "scheduled");
  RC_CLASSIFY(r.ties.size() > 1, "tie");
  if (r.kind != ScheduleResult::Kind::kScheduled) return;
  if (r.feasible.size() == 1) {
    RC_ASSERT(r.node == r.feasible[0]);
    return;
  }
  std::set<std::string> scored;
  int64_t top = INT64_MIN;
  for (const auto& ns : r.scores) {
    scored.insert(ns.name);
    top = std::max(top, ns.total);
  }
  RC_ASSERT(scored == AsSet(r.feasible));
  std::vector<std::string> want;
  for (const auto& ns : r.scores) {
    if (ns.total == top) want.push_back(ns.name);
  }
  std::sort(want.begin(), want.end());
  PROP_REQUIRE(r.ties.Names() == want, "ChoiceIsInTheTopScoringTieSet", CaseAsTrace(c),
               "ties " + Join(r.ties.Names()) + " want " + Join(want));
  RC_ASSERT(std::find(r.ties.begin(), r.ties.end(), r.node) != r.ties.end());
}

// Same cluster, same seed: the same decision, scores included.
RC_GTEST_PROP(ScheduleProperties, SameSeedSameDecision, ()) {
  const ClusterCase c = *ClusterCaseGen();
  const uint64_t seed = *rc::gen::inRange<uint64_t>(0, 1u << 30);
  ScheduleResult a = ScheduleOnce(Load(c), seed);
  ScheduleResult b = ScheduleOnce(Load(c), seed);
  RC_ASSERT(a.node == b.node);
  RC_ASSERT(a.ties.Names() == b.ties.Names());
  RC_ASSERT(a.feasible == b.feasible);
  RC_ASSERT(a.scores.size() == b.scores.size());
  for (size_t i = 0; i < a.scores.size(); ++i) RC_ASSERT(a.scores[i].total == b.scores[i].total);
}

// Plugins keep results across cycles: PodTopologySpread's domain sums (from the snapshot's change
// log) and match counts, InterPodAffinity's per-node contributions, NodeResourcesFit's verdicts
// and room, all by NodeInfo generation. A cluster that has scheduled before and then changed
// (pods bound and removed, nodes replaced) must decide exactly as one loaded fresh in that state.
RC_GTEST_PROP(ScheduleProperties, KeptStateDecidesAsAFreshCluster, ()) {
  ClusterCase c = *ClusterCaseGen();
  // Without images: a node's image spread counts the nodes that had the image when the node was
  // added (upstream v1.27), which depends on the order of history, not on the state.
  for (k8s::Node& n : c.nodes) n.mutable_status()->clear_images();
  // Half the time the pod spreads its own replicas (placed below) with maxSkew 1, so that kept
  // spread counts decide.
  if (*rc::gen::arbitrary<bool>()) {
    (*c.pod.mutable_metadata()->mutable_labels())[kAppKey] = "spread";
    k8s::TopologySpreadConstraint* spread = c.pod.mutable_spec()->add_topology_spread_constraints();
    spread->set_max_skew(1);
    spread->set_topology_key(*rc::gen::element<std::string>(kZoneKey, kHostnameKey));
    spread->set_when_unsatisfiable(
        *rc::gen::element<std::string>("DoNotSchedule", "ScheduleAnyway"));
    (*spread->mutable_label_selector()->mutable_match_labels())[kAppKey] = "spread";
  }
  // The kept cluster runs the fast engine (its caches live across cycles); the fresh one the
  // plain rules, which keep nothing: every cache's invalidation is checked against them.
  const Engine kept_engine = Engine::kFast;
  LoadedCase kept = Load(c, kept_engine);
  ClusterCase now = c;  // the kept cluster's state, to load fresh
  [[maybe_unused]] const ScheduleResult warm =
      ScheduleOnce(kept, 1, kept_engine);  // fills what the plugins keep
  const int steps = *rc::gen::inRange(1, 9);
  for (int step = 0; step < steps; ++step) {
    const int op = *rc::gen::inRange(0, 5);
    reference::Scheduler& scheduler = kept.cluster->scheduler();
    std::string change;
    if (op <= 2 || now.bound.empty()) {
      // A pod lands on a node: a replica of the pod to schedule (its own spread constraints and
      // affinity terms select it), or another generated pod.
      k8s::Pod pod = op <= 1 ? c.pod : *PodGen("kept-" + std::to_string(step));
      pod.mutable_metadata()->set_name("kept-" + std::to_string(step));
      pod.mutable_metadata()->set_uid(pod.metadata().namespace_() + "/" + pod.metadata().name());
      pod.mutable_spec()->set_node_name(now.nodes[step % now.nodes.size()].metadata().name());
      auto built = reference::BuildPod(pod, reference::FeaturesFor(reference::CompatLevel::kV1_27));
      RC_PRE(built.ok());
      scheduler.OnPod(reference::WatchEvent::kAdded, *built);
      now.bound.push_back(pod);
      change = "pod " + pod.metadata().name() + " bound to " + pod.spec().node_name();
    } else if (op == 3) {
      // A bound pod goes away.
      const k8s::Pod gone = now.bound.front();
      auto built =
          reference::BuildPod(gone, reference::FeaturesFor(reference::CompatLevel::kV1_27));
      RC_ASSERT(built.ok());
      RC_ASSERT(scheduler.GetPod((*built)->key) != nullptr);
      scheduler.OnPod(reference::WatchEvent::kDeleted, *built);
      now.bound.erase(now.bound.begin());
      change = "pod " + gone.metadata().name() + " removed";
    } else {
      // A node is replaced by another of the same name (labels, taints, allocatable may change).
      // Its zone stays, as the node tree keeps the old order until nodes are added or removed
      // (upstream), and it has no images (above).
      k8s::Node& node = now.nodes[step % now.nodes.size()];
      const k8s::Node before = node;
      node = *NodeGen(node.metadata().name());
      node.mutable_status()->clear_images();
      for (const char* key :
           {"topology.kubernetes.io/zone", "topology.kubernetes.io/region",
            "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region"}) {
        auto& labels = *node.mutable_metadata()->mutable_labels();
        labels.erase(key);
        if (auto it = before.metadata().labels().find(key); it != before.metadata().labels().end())
          labels[key] = it->second;
      }
      auto built = reference::BuildNode(node);
      RC_PRE(built.ok());
      RC_ASSERT(scheduler.GetNode((*built)->name()) != nullptr);
      scheduler.OnNode(reference::WatchEvent::kModified, *built);
      change = "node " + node.metadata().name() + " replaced";
    }
    kept.cluster->Refresh();
    const ScheduleResult a = ScheduleOnce(kept, 1, kept_engine);
    const ScheduleResult b = ScheduleOnce(Load(now, Engine::kPlain), 1, Engine::kPlain);
    std::string diff;
    if (a.kind != b.kind) diff = "result kind";
    if (a.node != b.node) diff += " node (" + a.node + " vs " + b.node + ")";
    if (AsSet(a.feasible) != AsSet(b.feasible))
      diff += " feasible " + Join(a.feasible) + " vs " + Join(b.feasible);
    if (a.ties.Names() != b.ties.Names()) diff += " ties";
    // Scores by node: a zone relabelling leaves the kept node order as it was until nodes are
    // added or removed (upstream's node tree), where a fresh cluster orders by the new zones.
    auto by_node = [](const ScheduleResult& r) {
      std::map<std::string, std::string> out;
      for (const auto& n : r.scores) {
        std::string text = std::to_string(n.total) + " =";
        for (const auto& p : n.scores)
          text += " " + p.plugin + ":" + std::to_string(p.raw) + "/" + std::to_string(p.normalized);
        out[n.name] = text;
      }
      return out;
    };
    const auto scores_a = by_node(a), scores_b = by_node(b);
    for (const auto& [name, text] : scores_a) {
      auto it = scores_b.find(name);
      if (it == scores_b.end() || it->second != text) {
        diff += " score of " + name + " (" + text + " vs " +
                (it == scores_b.end() ? "none" : it->second) + ")";
      }
    }
    if (scores_a.size() != scores_b.size()) diff += " score count";
    if (a.kind == ScheduleResult::Kind::kFitError &&
        reference::FitErrorMessage(a.num_all_nodes, a.diagnosis) !=
            reference::FitErrorMessage(b.num_all_nodes, b.diagnosis)) {
      diff += " message";
    }
    PROP_REQUIRE(diff.empty(), "KeptStateDecidesAsAFreshCluster", CaseAsTrace(now),
                 "after step " + std::to_string(step) + " (" + change +
                     "), the kept cluster differs from a fresh one in:" + diff +
                     " (the saved trace is the fresh cluster's state)");
  }
}

// The batch forms the fast engine's loops use (accel/batch_plugin.h: FilterNodes, ScoreNodes;
// accel/fast_runner.h: RunFilterPluginsOnNodes) give exactly what Filter, Score and
// RunFilterPlugins give node by node, for every plugin of the default profile.
RC_GTEST_PROP(ScheduleProperties, BatchFilterAndScoreAgreeWithNodeByNode, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c, Engine::kFast);
  const reference::Framework& fw = loaded.cluster->framework();
  const reference::Pod& pod = *loaded.pod;
  const std::vector<const reference::NodeInfo*>& nodes = loaded.cluster->snapshot().node_infos();
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  const bool pre_filter_passed = fw.RunPreFilterPlugins(state, pod, &pre_result).IsSuccess();
  RC_CLASSIFY(!pre_filter_passed, "PreFilter rejects");
  if (!pre_filter_passed) return;
  // Plugins are called as the framework calls them; the batch methods are not const.
  auto plugin = [&](const std::string& name) {
    return const_cast<reference::Plugin*>(fw.GetPlugin(name));
  };
  for (const std::string& name : fw.PluginNames(reference::ExtensionPoint::kFilter)) {
    if (state.skip_filter_plugins.count(name)) continue;
    auto* pl = dynamic_cast<reference::FilterPlugin*>(plugin(name));
    RC_ASSERT(pl != nullptr);
    std::vector<reference::BatchRejection> batch;
    if (auto* batch_form = dynamic_cast<reference::BatchFilterPlugin*>(pl)) {
      batch_form->FilterNodes(state, pod, nodes, &batch);
    } else {
      reference::FilterEachNode(*pl, state, pod, nodes, &batch);
    }
    size_t next = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const reference::Status one = pl->Filter(state, pod, *nodes[i]);
      const bool in_batch = next < batch.size() && batch[next].index == i;
      PROP_REQUIRE(in_batch == !one.IsSuccess(), "BatchFilterAndScoreAgreeWithNodeByNode",
                   CaseAsTrace(c),
                   name + " on " + nodes[i]->name() + ": Filter " + one.DebugString() +
                       ", FilterNodes " + (in_batch ? batch[next].status.DebugString() : "passes"));
      if (!in_batch) continue;
      PROP_REQUIRE(batch[next].status == one, "BatchFilterAndScoreAgreeWithNodeByNode",
                   CaseAsTrace(c),
                   name + " on " + nodes[i]->name() + ": Filter " + one.DebugString() +
                       ", FilterNodes " + batch[next].status.DebugString());
      ++next;
    }
    RC_ASSERT(next == batch.size());
  }
  std::vector<reference::BatchRejection> rejected;
  if (reference::RunFilterPluginsOnNodes(fw, state, pod, nodes, &rejected)) {
    size_t next = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const reference::Status one = fw.RunFilterPlugins(state, pod, *nodes[i]);
      const reference::Status batch = next < rejected.size() && rejected[next].index == i
                                          ? rejected[next++].status
                                          : reference::Status();
      PROP_REQUIRE(batch == one, "BatchFilterAndScoreAgreeWithNodeByNode", CaseAsTrace(c),
                   nodes[i]->name() + ": RunFilterPlugins " + one.DebugString() + " (" +
                       one.plugin() + "), RunFilterPluginsOnNodes " + batch.DebugString() + " (" +
                       batch.plugin() + ")");
    }
    RC_ASSERT(next == rejected.size());
  } else {
    // Only a status that is neither Success nor a rejection makes the batch give up.
    bool any_error = false;
    for (const reference::NodeInfo* node : nodes)
      any_error |= !fw.RunFilterPlugins(state, pod, *node).IsRejected() &&
                   !fw.RunFilterPlugins(state, pod, *node).IsSuccess();
    RC_ASSERT(any_error);
  }
  // Scores on the feasible nodes, after PreScore, as a cycle computes them.
  std::vector<const reference::NodeInfo*> feasible;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (fw.RunFilterPlugins(state, pod, *nodes[i]).IsSuccess()) feasible.push_back(nodes[i]);
  }
  RC_CLASSIFY(feasible.empty(), "no feasible node to score");
  if (feasible.empty()) return;
  RC_ASSERT(fw.RunPreScorePlugins(state, pod, feasible).IsSuccess());
  for (const std::string& name : fw.PluginNames(reference::ExtensionPoint::kScore)) {
    if (state.skip_score_plugins.count(name)) continue;
    auto* pl = dynamic_cast<reference::ScorePlugin*>(plugin(name));
    RC_ASSERT(pl != nullptr);
    std::vector<int64_t> batch(feasible.size(), -1);
    auto* batch_form = dynamic_cast<reference::BatchScorePlugin*>(pl);
    const reference::Status batch_status =
        batch_form != nullptr ? batch_form->ScoreNodes(state, pod, feasible, batch.data())
                              : reference::ScoreEachNode(*pl, state, pod, feasible, batch.data());
    bool any_error = false;
    for (size_t i = 0; i < feasible.size(); ++i) {
      int64_t one = 0;
      const reference::Status s = pl->Score(state, pod, *feasible[i], &one);
      any_error |= !s.IsSuccess();
      if (!s.IsSuccess() || !batch_status.IsSuccess()) continue;
      PROP_REQUIRE(batch[i] == one, "BatchFilterAndScoreAgreeWithNodeByNode", CaseAsTrace(c),
                   name + " on " + feasible[i]->name() + ": Score " + std::to_string(one) +
                       ", ScoreNodes " + std::to_string(batch[i]));
    }
    RC_ASSERT(any_error == !batch_status.IsSuccess());
    // The uniform shortcuts: every node's Score is the uniform score, and NormalizeScore makes of
    // the list what UniformNormalizedScore says (also asked when all scores came out equal).
    if (any_error) continue;
    int64_t uniform = batch[0];
    const bool all_equal =
        std::all_of(batch.begin(), batch.end(), [&](int64_t v) { return v == batch[0]; });
    const auto* uniform_form = dynamic_cast<const reference::UniformScorePlugin*>(pl);
    if (!(uniform_form != nullptr && uniform_form->UniformScore(state, pod, &uniform)) &&
        !all_equal)
      continue;
    reference::NodeScoreList list;
    for (size_t i = 0; i < feasible.size(); ++i) {
      PROP_REQUIRE(batch[i] == uniform, "BatchFilterAndScoreAgreeWithNodeByNode", CaseAsTrace(c),
                   name + " on " + feasible[i]->name() + ": Score " + std::to_string(batch[i]) +
                       ", UniformScore " + std::to_string(uniform));
      list.push_back({feasible[i]->name(), uniform});
    }
    int64_t normalized = 0;
    if (!pl->HasNormalizeScore() || uniform_form == nullptr ||
        !uniform_form->UniformNormalizedScore(state, pod, uniform, &normalized)) {
      continue;
    }
    RC_ASSERT(pl->NormalizeScore(state, pod, list).IsSuccess());
    for (const reference::NodeScore& ns : list) {
      PROP_REQUIRE(ns.score == normalized, "BatchFilterAndScoreAgreeWithNodeByNode", CaseAsTrace(c),
                   name + " on " + std::string(ns.name) + ": NormalizeScore " +
                       std::to_string(ns.score) + ", UniformNormalizedScore " +
                       std::to_string(normalized));
    }
  }
}

}  // namespace
}  // namespace schedcheck::properties
