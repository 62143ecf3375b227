#include "reference/accel/default_preemption/fast_default_preemption.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <nlohmann/json.hpp>

#include "reference/accel/registry.h"
#include "reference/plugins/registry.h"
#include "reference/runtime/framework.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using nlohmann::json;

class StaticNominator : public PodNominator {
 public:
  std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const override {
    auto it = pods.find(node);
    return it == pods.end() ? std::vector<PodInfoPtr>{} : it->second;
  }
  std::map<std::string, std::vector<PodInfoPtr>> pods;
};

json Containers(int milli_cpu) {
  return json::array(
      {{{"name", "c"}, {"resources", {{"requests", {{"cpu", std::to_string(milli_cpu) + "m"}}}}}}});
}

json GenPodOn(const std::string& node, int i) {
  const std::string name = node + "-p" + std::to_string(i);
  json pod = {
      {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", name}}},
      {"spec",
       {{"nodeName", node},
        {"priority", *rc::gen::inRange(0, 4)},
        {"containers", Containers(*rc::gen::elementOf(std::vector<int>{100, 200, 300, 500}))}}}};
  if (*rc::gen::inRange(0, 3) == 0)
    pod["metadata"]["labels"]["app"] = *rc::gen::elementOf(std::vector<std::string>{"a", "b"});
  if (*rc::gen::inRange(0, 2) == 0) {
    pod["status"]["startTime"] = *rc::gen::elementOf(std::vector<std::string>{
        "2023-01-01T00:00:00Z", "2023-01-01T00:00:01Z", "2023-01-02T00:00:00Z"});
  }
  return pod;
}

// A cluster of 1 to 6 nodes with pods of random priorities, PDBs and nominations, a framework
// with NodeResourcesFit over it (the plain plugins, or the fast ones with the filters that read
// only the node and the pod-blind ones, so that the dry run without copies runs), and the filter
// statuses of a preemptor: then the plain and the fast DefaultPreemption must decide alike.
RC_GTEST_PROP(FastDefaultPreemption, EqualsPlainDefaultPreemption, ()) {
  std::vector<NodePtr> nodes;
  std::vector<PodPtr> pods;
  const int num_nodes = *rc::gen::inRange(1, 7);
  for (int i = 0; i < num_nodes; ++i) {
    const std::string name = "n" + std::to_string(i);
    const int cpu = *rc::gen::elementOf(std::vector<int>{500, 1000, 2000});
    nodes.push_back(testing::ParseNode(
        json({{"metadata", {{"name", name}}},
              {"status",
               {{"allocatable",
                 {{"cpu", std::to_string(cpu) + "m"}, {"memory", "1Gi"}, {"pods", "32"}}}}}})
            .dump()));
    for (int j = *rc::gen::inRange(0, 4); j > 0; --j)
      pods.push_back(testing::ParsePod(GenPodOn(name, j).dump(), CompatLevel::kV1_27));
  }
  Snapshot snapshot = testing::MakeSnapshot(nodes, pods);
  ClusterObjects objects;
  if (*rc::gen::inRange(0, 2) == 0) {
    k8s::PodDisruptionBudget pdb;
    pdb.mutable_metadata()->set_name("pdb");
    pdb.mutable_metadata()->set_namespace_("default");
    (*pdb.mutable_spec()->mutable_selector()->mutable_match_labels())["app"] = "a";
    pdb.mutable_status()->set_disruptions_allowed(*rc::gen::inRange(0, 2));
    objects.pdbs["default/pdb"] = pdb;
  }
  StaticNominator nominator;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.snapshot = &snapshot;
  handle.objects = &objects;
  handle.nominator = &nominator;
  // Both levels: v1.37 reads start times once per pod and counts every node in the FitError.
  const CompatLevel level = *rc::gen::element(CompatLevel::kV1_27, CompatLevel::kV1_37);
  handle.features = FeaturesFor(level);
  RC_LOG() << "compat " << CompatLevelName(level) << "\n";
  for (int n = *rc::gen::inRange(0, 3); n > 0; --n) {
    json nominated = {
        {"metadata", {{"name", "nom" + std::to_string(n)}, {"namespace", "default"}}},
        {"spec",
         {{"priority", *rc::gen::inRange(0, 5)},
          {"containers", Containers(*rc::gen::elementOf(std::vector<int>{0, 100, 300, 600}))}}}};
    nominator.pods["n" + std::to_string(*rc::gen::inRange(0, num_nodes))].push_back(
        MakePodInfo(testing::ParsePod(nominated.dump(), CompatLevel::kV1_27)));
  }
  Profile profile;
  profile.at(ExtensionPoint::kMultiPoint).enabled = {
      {"PrioritySort", 0}, {"NodeResourcesFit", 0}, {"DefaultPreemption", 0}, {"DefaultBinder", 0}};
  const bool fast_filters = *rc::gen::arbitrary<bool>();
  if (fast_filters) {
    for (const char* name : {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                             "NodePorts", "PodTopologySpread"}) {
      profile.at(ExtensionPoint::kMultiPoint).enabled.push_back({name, 0});
    }
  }
  auto fw =
      Framework::Create(profile, fast_filters ? FastPluginRegistry() : PluginRegistry(), &handle);
  RC_ASSERT(fw.ok());
  handle.framework = fw->get();

  json preemptor = {
      {"metadata", {{"name", "p"}, {"namespace", "default"}, {"uid", "p"}}},
      {"spec",
       {{"priority", *rc::gen::inRange(0, 5)},
        {"containers", Containers(*rc::gen::elementOf(std::vector<int>{300, 600, 1200}))}}}};
  if (*rc::gen::inRange(0, 4) == 0) preemptor["spec"]["preemptionPolicy"] = "Never";
  if (*rc::gen::inRange(0, 4) == 0) preemptor["status"]["nominatedNodeName"] = "n0";
  if (fast_filters && *rc::gen::inRange(0, 4) == 0) {
    // A DoNotSchedule spread constraint: PodTopologySpread then reads the pods, plain dry runs.
    preemptor["spec"]["topologySpreadConstraints"] =
        json::array({{{"maxSkew", 1},
                      {"topologyKey", "kubernetes.io/hostname"},
                      {"whenUnsatisfiable", "DoNotSchedule"},
                      {"labelSelector", {{"matchLabels", {{"app", "a"}}}}}}});
  }
  // A container port: without a host port NodePorts stays blind to the node's pods; with one it
  // reads them (plain dry runs).
  const int ports = *rc::gen::inRange(0, 3);
  if (ports > 0) {
    json port = {{"containerPort", 80}};
    if (ports == 2) port["hostPort"] = 8080;
    preemptor["spec"]["containers"][0]["ports"] = json::array({port});
  }
  PodPtr pod = testing::ParsePod(preemptor.dump(), CompatLevel::kV1_27);
  CycleState state;
  PreFilterResult r;
  RC_ASSERT((*fw)->RunPreFilterPlugins(state, *pod, &r).IsSuccess());
  // Both ways are taken: the dry run without copies, and (plain plugins, or a spread
  // constraint) the plain one.
  const bool without_copies = PlanFastDryRun(handle, state, *pod).usable;
  RC_CLASSIFY(without_copies, "dry run without copies");
  RC_ASSERT(
      without_copies ==
      (fast_filters && !preemptor["spec"].contains("topologySpreadConstraints") && ports < 2));
  NodeToStatus statuses;
  const Status unresolvable(Code::kUnschedulableAndUnresolvable,
                            "node(s) didn't match Pod's node affinity/selector");
  for (const NodeInfo* n : snapshot.node_infos()) {
    Status s = (*fw)->RunFilterPluginsWithNominatedPods(state, *pod, *n);
    if (!s.IsSuccess()) statuses[n->name()] = s;
    // Some nodes rejected beyond preemption's help (as NodeAffinity would), one shared status.
    if (*rc::gen::inRange(0, 4) == 0) statuses[n->name()] = unresolvable;
  }
  DefaultPreemptionArgs args;
  args.min_candidate_nodes_absolute = *rc::gen::inRange(1, 4);
  PreemptionOutcome plain = DefaultPreemption(args, handle).Preempt(state, *pod, statuses);
  PreemptionOutcome fast = FastDefaultPreemption(args, handle).Preempt(state, *pod, statuses);

  RC_ASSERT(plain.status == fast.status);
  RC_ASSERT(plain.result.nominating_info.mode == fast.result.nominating_info.mode);
  RC_ASSERT(plain.result.nominating_info.nominated_node_name ==
            fast.result.nominating_info.nominated_node_name);
  RC_ASSERT(plain.result.victims == fast.result.victims);
  RC_ASSERT(plain.result.clear_nomination == fast.result.clear_nomination);
  auto same = [](const std::vector<Candidate>& a, const std::vector<Candidate>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].node != b[i].node || a[i].victims != b[i].victims ||
          a[i].num_pdb_violations != b[i].num_pdb_violations) {
        return false;
      }
    }
    return true;
  };
  RC_ASSERT(same(plain.candidates, fast.candidates));
  RC_ASSERT(same(plain.best, fast.best));
}

// A pod nominated to the only node keeps its room in the dry run without copies: with both
// low-priority pods gone the preemptor still does not fit beside it, so there is no candidate.
TEST(FastDefaultPreemption, DryRunWithoutCopiesCountsNominatedPods) {
  NodePtr node = testing::ParseNode(
      json({{"metadata", {{"name", "n0"}}},
            {"status", {{"allocatable", {{"cpu", "1000m"}, {"memory", "1Gi"}, {"pods", "32"}}}}}})
          .dump());
  std::vector<PodPtr> pods;
  for (const char* name : {"v1", "v2"}) {
    pods.push_back(testing::ParsePod(
        json({{"metadata", {{"name", name}, {"namespace", "default"}, {"uid", name}}},
              {"spec", {{"nodeName", "n0"}, {"priority", 0}, {"containers", Containers(300)}}}})
            .dump(),
        CompatLevel::kV1_27));
  }
  Snapshot snapshot = testing::MakeSnapshot({node}, pods);
  ClusterObjects objects;
  StaticNominator nominator;
  nominator.pods["n0"].push_back(MakePodInfo(testing::ParsePod(
      json({{"metadata", {{"name", "nom"}, {"namespace", "default"}, {"uid", "nom"}}},
            {"spec", {{"priority", 5}, {"containers", Containers(500)}}}})
          .dump(),
      CompatLevel::kV1_27)));
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.snapshot = &snapshot;
  handle.objects = &objects;
  handle.nominator = &nominator;
  Profile profile;
  profile.at(ExtensionPoint::kMultiPoint).enabled = {
      {"PrioritySort", 0}, {"NodeResourcesFit", 0}, {"DefaultPreemption", 0}, {"DefaultBinder", 0}};
  auto fw = Framework::Create(profile, FastPluginRegistry(), &handle);
  ASSERT_TRUE(fw.ok()) << fw.message();
  handle.framework = fw->get();
  PodPtr pod =
      testing::ParsePod(json({{"metadata", {{"name", "p"}, {"namespace", "default"}, {"uid", "p"}}},
                              {"spec", {{"priority", 3}, {"containers", Containers(600)}}}})
                            .dump(),
                        CompatLevel::kV1_27);
  CycleState state;
  PreFilterResult r;
  ASSERT_TRUE((*fw)->RunPreFilterPlugins(state, *pod, &r).IsSuccess());
  ASSERT_TRUE(PlanFastDryRun(handle, state, *pod).usable);
  NodeToStatus statuses;
  statuses["n0"] = (*fw)->RunFilterPluginsWithNominatedPods(state, *pod, *snapshot.Get("n0"));
  ASSERT_FALSE(statuses["n0"].IsSuccess());
  DefaultPreemptionArgs args;
  PreemptionOutcome plain = DefaultPreemption(args, handle).Preempt(state, *pod, statuses);
  PreemptionOutcome fast = FastDefaultPreemption(args, handle).Preempt(state, *pod, statuses);
  EXPECT_TRUE(plain.candidates.empty());
  EXPECT_TRUE(fast.candidates.empty());
  EXPECT_EQ(plain.status, fast.status);
  EXPECT_EQ(fast.status.Message(), "preemption: 0/1 nodes are available: 1 Insufficient cpu.");
}

// The name-order walk finds the nodes nodesWherePreemptionMightHelp finds, for a whole snapshot
// (name ranks) and for a list in another order (sorted instead).
RC_GTEST_PROP(FastDefaultPreemption, NodesWherePreemptionMightHelpInNameOrder, ()) {
  std::vector<NodePtr> nodes;
  const int num_nodes = *rc::gen::inRange(0, 12);
  for (int i = 0; i < num_nodes; ++i) {
    nodes.push_back(testing::ParseNode("metadata: {name: n" +
                                       std::to_string(*rc::gen::inRange(0, 1000)) + "-" +
                                       std::to_string(i) + "}"));
  }
  Snapshot snapshot = testing::MakeSnapshot(nodes);
  std::vector<const NodeInfo*> list = snapshot.node_infos();
  if (*rc::gen::inRange(0, 2) == 0 && !list.empty()) list.pop_back();  // not a whole snapshot
  NodeToStatus statuses;
  for (const NodeInfo* n : list) {
    const int pick = *rc::gen::inRange(0, 3);
    if (pick == 1) statuses[n->name()] = Status(Code::kUnschedulable, "u");
    if (pick == 2) statuses[n->name()] = Status(Code::kUnschedulableAndUnresolvable, "uau");
  }
  statuses["zz-not-a-node"] = Status(Code::kUnschedulableAndUnresolvable, "uau");
  NodeToStatus plain_unhelpful, fast_unhelpful;
  const std::vector<const NodeInfo*> potential =
      NodesWherePreemptionMightHelp(list, statuses, &plain_unhelpful);
  RC_ASSERT(potential == NodesWherePreemptionMightHelpInNameOrder(list, statuses, &fast_unhelpful));
  RC_ASSERT(plain_unhelpful == fast_unhelpful);
  RC_ASSERT(potential == NodesWherePreemptionMightHelpInNameOrder(list, statuses, nullptr));
}

}  // namespace
}  // namespace schedcheck::reference
