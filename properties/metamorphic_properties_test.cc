// Metamorphic properties of one scheduling decision: changes to the input that must not change
// the outcome (node order, an extra node that fails every filter) or must move it in a known
// direction (an extra pod on a node).
#include <algorithm>
#include <map>
#include <set>

#include "gtest/gtest.h"
#include "properties/support.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"

namespace schedcheck::properties {
namespace {

using reference::ScheduleResult;

std::map<std::string, int64_t> Totals(const ScheduleResult& r) {
  std::map<std::string, int64_t> out;
  for (const auto& ns : r.scores) out[ns.name] = ns.total;
  return out;
}

std::set<std::string> AsSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

std::string Describe(const ScheduleResult& r) {
  std::string out = "feasible {";
  for (const auto& n : AsSet(r.feasible)) out += n + " ";
  out += "} ties {";
  for (const auto& n : r.ties) out += n + " ";
  out += "} totals {";
  for (const auto& [n, t] : Totals(r)) out += n + "=" + std::to_string(t) + " ";
  return out + "} node " + r.node;
}

// node -> plugin -> raw score, for every node (as the score conformance kind does).
std::map<std::string, std::map<std::string, int64_t>> RawScores(const LoadedCase& loaded) {
  const reference::Framework& fw = loaded.cluster->framework();
  reference::CycleState state;
  reference::PreFilterResult pre_result;
  std::map<std::string, std::map<std::string, int64_t>> out;
  if (!fw.RunPreFilterPlugins(state, *loaded.pod, &pre_result).IsSuccess()) return out;
  const auto& nodes = loaded.cluster->snapshot().node_infos();
  std::vector<reference::NodePluginScores> scores;
  if (!fw.RunPreScorePlugins(state, *loaded.pod, nodes).IsSuccess()) return out;
  if (!fw.RunScorePlugins(state, *loaded.pod, nodes, &scores).IsSuccess()) return out;
  for (const auto& ns : scores) {
    for (const auto& ps : ns.scores) out[ns.name][ps.plugin] = ps.raw;
  }
  return out;
}

// Permuting the order nodes are added in changes the choice only within the tie set: the
// feasible set, the tie set and every node's total are the same. Images are removed first: in
// v1.27 a node's ImageStateSummary.NumNodes is frozen when the node is added (cache.go
// addNodeImageStates), so ImageLocality legitimately depends on the order nodes arrived in.
RC_GTEST_PROP(MetamorphicProperties, NodeOrderChangesChoiceOnlyWithinTies, ()) {
  ClusterCase c = *ClusterCaseGen();
  for (k8s::Node& n : c.nodes) n.mutable_status()->clear_images();
  ClusterCase permuted = c;
  for (size_t i = permuted.nodes.size(); i > 1; --i) {
    std::swap(permuted.nodes[i - 1], permuted.nodes[*rc::gen::inRange<size_t>(0, i)]);
  }
  ScheduleResult a = ScheduleOnce(Load(c), 1);
  ScheduleResult b = ScheduleOnce(Load(permuted), 1);
  PROP_REQUIRE(
      AsSet(a.feasible) == AsSet(b.feasible) && a.ties.Names() == b.ties.Names() &&
          Totals(a) == Totals(b),
      "NodeOrderChangesChoiceOnlyWithinTies", CaseAsTrace(permuted),
      "node order changed feasibility or scores: " + Describe(a) + " vs permuted " + Describe(b));
  if (a.kind == ScheduleResult::Kind::kScheduled && a.feasible.size() > 1) {
    RC_ASSERT(std::find(a.ties.begin(), a.ties.end(), b.node) != a.ties.end());
  }
}

// A node that fails every filter (cordoned, no labels, no room) changes nothing: same kind,
// feasible set, ties and scores. Images are removed first, since ImageLocality scales by the
// share of all nodes holding an image.
RC_GTEST_PROP(MetamorphicProperties, AddingAnInfeasibleNodeChangesNothing, ()) {
  ClusterCase c = *ClusterCaseGen();
  for (k8s::Node& n : c.nodes) n.mutable_status()->clear_images();
  ClusterCase more = c;
  k8s::Node extra;
  extra.mutable_metadata()->set_name("nx");
  extra.mutable_spec()->set_unschedulable(true);
  (*extra.mutable_status()->mutable_allocatable())["pods"] = "0";
  more.nodes.insert(more.nodes.begin() + *rc::gen::inRange<size_t>(0, c.nodes.size() + 1), extra);
  ScheduleResult a = ScheduleOnce(Load(c), 3);
  ScheduleResult b = ScheduleOnce(Load(more), 3);
  PROP_REQUIRE(a.kind == b.kind && AsSet(a.feasible) == AsSet(b.feasible) &&
                   a.ties.Names() == b.ties.Names() && Totals(a) == Totals(b),
               "AddingAnInfeasibleNodeChangesNothing", CaseAsTrace(more),
               "the extra node nx changed the decision: " + Describe(a) + " vs " + Describe(b));
  RC_ASSERT(b.node != "nx");
  if (b.kind == ScheduleResult::Kind::kFitError)
    RC_ASSERT(b.diagnosis.node_to_status.count("nx") > 0);
}

// Another pod on a node never raises that node's NodeResourcesFit (LeastAllocated) or
// BalancedAllocation-independent resource score, and never makes a resource / port rejection go
// away.
RC_GTEST_PROP(MetamorphicProperties, AnExtraPodNeverHelpsItsNode, ()) {
  const ClusterCase c = *ClusterCaseGen();
  ClusterCase more = c;
  k8s::Pod extra = *PodGen("extra");
  extra.mutable_spec()->clear_affinity();
  extra.mutable_spec()->clear_topology_spread_constraints();
  const std::string node = c.nodes[*rc::gen::inRange<size_t>(0, c.nodes.size())].metadata().name();
  extra.mutable_spec()->set_node_name(node);
  more.bound.push_back(extra);
  auto before = RawScores(Load(c));
  auto after = RawScores(Load(more));
  if (before.count(node) && after.count(node)) {
    PROP_REQUIRE(after[node]["NodeResourcesFit"] <= before[node]["NodeResourcesFit"],
                 "AnExtraPodNeverHelpsItsNode", CaseAsTrace(more),
                 "NodeResourcesFit on " + node + " rose from " +
                     std::to_string(before[node]["NodeResourcesFit"]) + " to " +
                     std::to_string(after[node]["NodeResourcesFit"]));
  }
  for (const char* plugin : {"NodeResourcesFit", "NodePorts"}) {
    bool rejected_before = !OracleFilter(plugin, StateOf(c), c.pod, node).empty();
    bool rejected_after = !OracleFilter(plugin, StateOf(more), more.pod, node).empty();
    if (!rejected_before) continue;
    RC_ASSERT(rejected_after);
    ScheduleResult r = ScheduleOnce(Load(more), 1);
    RC_ASSERT(std::find(r.feasible.begin(), r.feasible.end(), node) == r.feasible.end());
  }
}

// Scheduling the same pod twice in a row with one PodScheduler: the second decision is still
// among the first's ties (the rotating start index only changes the order of evaluation).
RC_GTEST_PROP(MetamorphicProperties, StartIndexRotationKeepsTies, ()) {
  const ClusterCase c = *ClusterCaseGen();
  LoadedCase loaded = Load(c);
  reference::Scheduler& scheduler = loaded.cluster->scheduler();
  scheduler.SetPodScheduler(std::make_unique<reference::PodScheduler>(5, 0));
  reference::CycleState s1, s2;
  ScheduleResult a = scheduler.SchedulePod(s1, *loaded.pod);
  ScheduleResult b = scheduler.SchedulePod(s2, *loaded.pod);
  RC_ASSERT(a.kind == b.kind);
  RC_ASSERT(AsSet(a.feasible) == AsSet(b.feasible));
  RC_ASSERT(a.ties.Names() == b.ties.Names());
  if (a.kind == ScheduleResult::Kind::kScheduled) {
    RC_ASSERT(std::find(a.ties.begin(), a.ties.end(), b.node) != a.ties.end() ||
              a.feasible.size() == 1);
  }
}

}  // namespace
}  // namespace schedcheck::properties
