#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParseNode;
using testing::ParsePod;

// Nodes "name zone" with labels zone=<zone>, node=<name>, kubernetes.io/hostname=<name>.
NodePtr ZoneNode(const std::string& name, const std::string& zone) {
  std::string labels = "{node: " + name + ", kubernetes.io/hostname: " + name;
  if (!zone.empty()) labels += ", zone: " + zone;
  return ParseNode("metadata: {name: " + name + ", labels: " + labels + "}}");
}

PodPtr FooPod(const std::string& name, const std::string& node, const std::string& extra = "") {
  return ParsePod("metadata: {name: " + name + ", labels: {foo: ''}" + extra +
                      "}\nspec: {nodeName: " + node + "}",
                  CompatLevel::kV1_27);
}

// Incoming pod labelled foo with the given constraints (a YAML flow list).
PodPtr Incoming(const std::string& constraints, const std::string& more_spec = "") {
  return ParsePod("metadata: {name: p, labels: {foo: ''}}\nspec: {topologySpreadConstraints: " +
                      constraints + more_spec + "}",
                  CompatLevel::kV1_27);
}

std::string Hard(int skew, const std::string& key, const std::string& extra = "") {
  return "{maxSkew: " + std::to_string(skew) + ", topologyKey: " + key +
         ", whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: foo, "
         "operator: Exists}]}" +
         extra + "}";
}

struct Env {
  Snapshot snapshot;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Plugin> plugin;
  PodTopologySpread* pl() { return dynamic_cast<PodTopologySpread*>(plugin.get()); }

  Env(const std::vector<NodePtr>& nodes, const std::vector<PodPtr>& pods,
      const PluginArgs& args = nullptr)
      : snapshot(testing::MakeSnapshot(nodes, pods)) {
    handle.snapshot = &snapshot;
    auto made = PodTopologySpread::New(args, handle);
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.message());
    if (made.ok()) plugin = std::move(*made);
  }

  std::map<std::string, Code> FilterAll(const Pod& pod) {
    CycleState state;
    PreFilterResult result;
    EXPECT_TRUE(pl()->PreFilter(state, pod, &result).IsSuccess());
    std::map<std::string, Code> codes;
    for (const NodeInfo* info : snapshot.node_infos()) {
      codes[info->name()] = pl()->Filter(state, pod, *info).code();
    }
    return codes;
  }

  std::map<std::string, int64_t> ScoreAll(const Pod& pod) {
    CycleState state;
    EXPECT_TRUE(pl()->PreScore(state, pod, snapshot.node_infos()).IsSuccess());
    NodeScoreList scores;
    for (const NodeInfo* info : snapshot.node_infos()) {
      int64_t s = 0;
      EXPECT_TRUE(pl()->Score(state, pod, *info, &s).IsSuccess());
      scores.push_back({info->name(), s});
    }
    EXPECT_TRUE(pl()->NormalizeScore(state, pod, scores).IsSuccess());
    std::map<std::string, int64_t> out;
    for (const NodeScore& ns : scores) out[std::string(ns.name)] = ns.score;
    return out;
  }
};

std::vector<NodePtr> FourNodes() {
  return {ZoneNode("node-a", "zone1"), ZoneNode("node-b", "zone1"), ZoneNode("node-x", "zone2"),
          ZoneNode("node-y", "zone2")};
}

constexpr Code kOk = Code::kSuccess;
constexpr Code kUnsched = Code::kUnschedulable;
constexpr Code kUAU = Code::kUnschedulableAndUnresolvable;

struct FilterCase {
  std::string name;
  PodPtr pod;
  std::vector<NodePtr> nodes;
  std::vector<PodPtr> pods;
  std::map<std::string, Code> want;
};

TEST(PodTopologySpreadTest, Filter) {
  const std::vector<PodPtr> spread_2103 = {FooPod("a1", "node-a"), FooPod("a2", "node-a"),
                                           FooPod("b1", "node-b"), FooPod("y1", "node-y"),
                                           FooPod("y2", "node-y"), FooPod("y3", "node-y")};
  std::vector<FilterCase> cases = {
      {"no existing pods",
       Incoming("[" + Hard(1, "zone") + "]"),
       FourNodes(),
       {},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"other namespaces do not count",
       Incoming("[" + Hard(1, "zone") + "]"),
       FourNodes(),
       {FooPod("a1", "node-a", ", namespace: ns1"), FooPod("a2", "node-a", ", namespace: ns2"),
        FooPod("x1", "node-x"), FooPod("y1", "node-y")},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kUnsched}, {"node-y", kUnsched}}},
      {"2/1/0/3 on nodes, maxSkew 1: only node-x",
       Incoming("[" + Hard(1, "node") + "]"),
       FourNodes(),
       spread_2103,
       {{"node-a", kUnsched}, {"node-b", kUnsched}, {"node-x", kOk}, {"node-y", kUnsched}}},
      {"2/1/0/3 on nodes, maxSkew 2",
       Incoming("[" + Hard(2, "node") + "]"),
       FourNodes(),
       spread_2103,
       {{"node-a", kUnsched}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kUnsched}}},
      {"missing zone label is UAU",
       Incoming("[" + Hard(1, "zone") + "]"),
       {ZoneNode("node-a", "zone1"), ZoneNode("node-b", ""), ZoneNode("node-x", "zone2")},
       {FooPod("a1", "node-a"), FooPod("b1", "node-b"), FooPod("x1", "node-x"),
        FooPod("x2", "node-x")},
       {{"node-a", kOk}, {"node-b", kUAU}, {"node-x", kUnsched}}},
      {"terminating pods are excluded",
       Incoming("[" + Hard(1, "node") + "]"),
       {ZoneNode("node-a", ""), ZoneNode("node-b", "")},
       {FooPod("a1", "node-a", ", deletionTimestamp: '2023-01-01T00:00:00Z'"),
        FooPod("b1", "node-b")},
       {{"node-a", kOk}, {"node-b", kUnsched}}},
      {"minDomains above the domain count makes the minimum 0",
       Incoming("[" + Hard(1, "node", ", minDomains: 3") + "]"),
       {ZoneNode("node-a", ""), ZoneNode("node-b", "")},
       {FooPod("a1", "node-a"), FooPod("b1", "node-b")},
       {{"node-a", kUnsched}, {"node-b", kUnsched}}},
      {"nodeAffinityPolicy Honor ignores nodes outside the pod's nodeSelector",
       Incoming("[" + Hard(1, "zone") + "]", ", nodeSelector: {zone: zone1}"),
       FourNodes(),
       {FooPod("a1", "node-a"), FooPod("y1", "node-y"), FooPod("y2", "node-y")},
       // zone2 is not a counted domain: its count is 0 and the minimum is zone1's 1.
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
      {"nodeAffinityPolicy Ignore counts every node",
       Incoming("[" + Hard(1, "zone", ", nodeAffinityPolicy: Ignore") + "]",
                ", nodeSelector: {zone: zone1}"),
       FourNodes(),
       {FooPod("a1", "node-a"), FooPod("y1", "node-y"), FooPod("y2", "node-y")},
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kUnsched}, {"node-y", kUnsched}}},
      {"empty labelSelector counts nothing (v1.27 quirk)",
       Incoming("[{maxSkew: 1, topologyKey: node, whenUnsatisfiable: DoNotSchedule, "
                "labelSelector: {}}]"),
       FourNodes(),
       spread_2103,
       {{"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}},
  };
  for (const FilterCase& c : cases) {
    Env env(c.nodes, c.pods);
    EXPECT_EQ(env.FilterAll(*c.pod), c.want) << c.name;
  }
}

// kubernetes v1.37.2 podtopologyspread/filtering_test.go TestPreFilterState "matchLabelKeys
// ignored when feature gate disabled": the pod's matchLabelKeys [bar] is dropped, so the five foo
// pods count (zone1: 3, zone2: 2) and zone1 is over maxSkew 1. With the gate on (the default) the
// selector becomes foo exists AND bar = "", which none of them matches.
TEST(PodTopologySpreadTest, MatchLabelKeysFollowTheGate) {
  const PodPtr pod = ParsePod(
      "metadata: {name: p, labels: {foo: '', bar: ''}}\nspec: {topologySpreadConstraints: [" +
          Hard(1, "zone", ", matchLabelKeys: [bar]") + "]}",
      CompatLevel::kV1_27);
  const std::vector<PodPtr> pods = {FooPod("p-a1", "node-a"), FooPod("p-a2", "node-a"),
                                    FooPod("p-b1", "node-b"), FooPod("p-y1", "node-y"),
                                    FooPod("p-y2", "node-y")};
  Env on(FourNodes(), pods);
  EXPECT_EQ(on.FilterAll(*pod),
            (std::map<std::string, Code>{
                {"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kOk}}));
  Env off(FourNodes(), pods);
  off.handle.features.match_label_keys_in_pod_topology_spread = false;
  EXPECT_EQ(off.FilterAll(*pod),
            (std::map<std::string, Code>{
                {"node-a", kUnsched}, {"node-b", kUnsched}, {"node-x", kOk}, {"node-y", kOk}}));
}

TEST(PodTopologySpreadTest, FilterReasons) {
  Env env({ZoneNode("node-a", "zone1"), ZoneNode("node-b", "")},
          {FooPod("a1", "node-a"), FooPod("a2", "node-a")});
  PodPtr pod = Incoming("[" + Hard(1, "zone") + "]");
  CycleState state;
  PreFilterResult result;
  ASSERT_TRUE(env.pl()->PreFilter(state, *pod, &result).IsSuccess());
  Status missing = env.pl()->Filter(state, *pod, *env.snapshot.Get("node-b"));
  EXPECT_EQ(missing, Status(kUAU, std::string(kErrReasonNodeLabelNotMatch)));
  // Only one zone exists, so zone1 is the minimum: skew 2 + 1 - 2 = 1 passes.
  EXPECT_TRUE(env.pl()->Filter(state, *pod, *env.snapshot.Get("node-a")).IsSuccess());
}

TEST(PodTopologySpreadTest, NoConstraintsIsSuccessNotSkip) {
  Env env(FourNodes(), {});
  PodPtr pod = ParsePod("metadata: {name: p}", CompatLevel::kV1_27);
  CycleState state;
  PreFilterResult result;
  EXPECT_EQ(env.pl()->PreFilter(state, *pod, &result).code(), Code::kSuccess);
  EXPECT_TRUE(env.pl()->Filter(state, *pod, *env.snapshot.Get("node-a")).IsSuccess());
  std::map<std::string, int64_t> want = {
      {"node-a", 100}, {"node-b", 100}, {"node-x", 100}, {"node-y", 100}};
  EXPECT_EQ(env.ScoreAll(*pod), want);
}

TEST(PodTopologySpreadTest, FilterWithoutPreFilterIsError) {
  Env env(FourNodes(), {});
  CycleState state;
  Status s =
      env.pl()->Filter(state, *Incoming("[" + Hard(1, "zone") + "]"), *env.snapshot.Get("node-a"));
  EXPECT_EQ(s.code(), Code::kError);
}

TEST(PodTopologySpreadTest, AddAndRemovePod) {
  // Nodes 1/1/0/1 by hostname-like "node" key: node-x is the only minimum.
  Env env(FourNodes(), {FooPod("a1", "node-a"), FooPod("b1", "node-b"), FooPod("y1", "node-y")});
  PodPtr pod = Incoming("[" + Hard(1, "node") + "]");
  CycleState state;
  PreFilterResult result;
  ASSERT_TRUE(env.pl()->PreFilter(state, *pod, &result).IsSuccess());
  const NodeInfo& a = *env.snapshot.Get("node-a");
  const NodeInfo& x = *env.snapshot.Get("node-x");
  EXPECT_EQ(env.pl()->Filter(state, *pod, a).code(), kUnsched);  // 1 + 1 - 0 > 1
  // Adding a matching pod on node-x raises the minimum to 1: node-a now fits (1 + 1 - 1).
  std::unique_ptr<CycleState> added = state.Clone();
  ASSERT_TRUE(env.pl()->AddPod(*added, *pod, *MakePodInfo(FooPod("x1", "node-x")), x).IsSuccess());
  EXPECT_TRUE(env.pl()->Filter(*added, *pod, a).IsSuccess());
  // A pod of another namespace or without the label changes nothing.
  std::unique_ptr<CycleState> other = state.Clone();
  ASSERT_TRUE(
      env.pl()
          ->AddPod(*other, *pod, *MakePodInfo(FooPod("x1", "node-x", ", namespace: ns1")), x)
          .IsSuccess());
  EXPECT_EQ(env.pl()->Filter(*other, *pod, a).code(), kUnsched);
  // Removing node-a's pod makes node-a a minimum again.
  std::unique_ptr<CycleState> removed = state.Clone();
  ASSERT_TRUE(
      env.pl()->RemovePod(*removed, *pod, *MakePodInfo(FooPod("a1", "node-a")), a).IsSuccess());
  EXPECT_TRUE(env.pl()->Filter(*removed, *pod, a).IsSuccess());
  // The original state is untouched by the clones.
  EXPECT_EQ(env.pl()->Filter(state, *pod, a).code(), kUnsched);
}

TEST(PodTopologySpreadTest, Score) {
  auto soft = [](int skew, const std::string& key) {
    return "{maxSkew: " + std::to_string(skew) + ", topologyKey: " + key +
           ", whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchExpressions: [{key: foo, "
           "operator: Exists}]}}";
  };
  {
    // zone1 holds 2, zone2 holds 1; weight ln(2 + 2): raw 3 and 1; normalised 33 and 100.
    Env env(FourNodes(), {FooPod("a1", "node-a"), FooPod("a2", "node-a"), FooPod("x1", "node-x")});
    std::map<std::string, int64_t> want = {
        {"node-a", 33}, {"node-b", 33}, {"node-x", 100}, {"node-y", 100}};
    EXPECT_EQ(env.ScoreAll(*Incoming("[" + soft(1, "zone") + "]")), want);
  }
  {
    // hostname: 2/1/0 with weight ln(3 + 2): raw 3, 2, 0; normalised 0, 33, 100.
    Env env({ZoneNode("n1", "z"), ZoneNode("n2", "z"), ZoneNode("n3", "z")},
            {FooPod("p1", "n1"), FooPod("p2", "n1"), FooPod("p3", "n2")});
    std::map<std::string, int64_t> want = {{"n1", 0}, {"n2", 33}, {"n3", 100}};
    EXPECT_EQ(env.ScoreAll(*Incoming("[" + soft(1, "kubernetes.io/hostname") + "]")), want);
  }
  {
    // A node without the key is ignored (0); the others all score maxSkew - 1 = 1 -> 100.
    Env env({ZoneNode("n1", "z1"), ZoneNode("n2", "")}, {});
    std::map<std::string, int64_t> want = {{"n1", 100}, {"n2", 0}};
    EXPECT_EQ(env.ScoreAll(*Incoming("[" + soft(2, "zone") + "]")), want);
  }
}

TEST(PodTopologySpreadTest, Args) {
  EXPECT_TRUE(ParsePodTopologySpreadArgs(nullptr).ok());
  auto list = ParsePodTopologySpreadArgs(nlohmann::json::parse(
      R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]})"));
  ASSERT_TRUE(list.ok()) << list.message();
  EXPECT_EQ(list->default_constraints.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"defaultingType":"Other"})", "defaultingType"},
      {R"({"defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]})",
       "defaultingType"},
      {R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]})",
       "defaultConstraints[0].maxSkew"},
      {R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"whenUnsatisfiable":"ScheduleAnyway"}]})",
       "defaultConstraints[0].topologyKey"},
      {R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"Maybe"}]})",
       "defaultConstraints[0].whenUnsatisfiable"},
      {R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway","labelSelector":{}}]})",
       "defaultConstraints[0].labelSelector"},
      {R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"},{"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]})",
       "defaultConstraints[1]"},
      {R"({"unknown":1})", "unknown"},
  };
  for (const auto& [json, field] : bad) {
    auto args = ParsePodTopologySpreadArgs(nlohmann::json::parse(json));
    ASSERT_FALSE(args.ok()) << json;
    EXPECT_NE(args.message().find(field), std::string::npos) << args.message();
  }
}

TEST(PodTopologySpreadTest, ListDefaultsWithoutOwnersGiveNoConstraints) {
  auto args = nlohmann::json::parse(
      R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})");
  Env env({ZoneNode("node-a", "zone1"), ZoneNode("node-b", "")}, {}, args);
  PodPtr pod = ParsePod("metadata: {name: p, labels: {foo: ''}}", CompatLevel::kV1_27);
  // The default constraint would make node-b (no zone label) UAU; with an empty selector it
  // does not apply at all.
  std::map<std::string, Code> want = {{"node-a", kOk}, {"node-b", kOk}};
  EXPECT_EQ(env.FilterAll(*pod), want);
}

TEST(PodTopologySpreadTest, EventsToRegister) {
  Env env(FourNodes(), {});
  std::vector<ClusterEvent> events = env.pl()->EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].resource, "Pod");
  EXPECT_EQ(events[0].action, action::kAll);
  EXPECT_EQ(events[1].resource, "Node");
  EXPECT_EQ(events[1].action, action::kAdd | action::kDelete | action::kUpdateNodeLabel);
}

}  // namespace
}  // namespace schedcheck::reference
