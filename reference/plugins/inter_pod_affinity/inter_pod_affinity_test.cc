#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using interpodaffinity::PreFilterState;
using interpodaffinity::TopologyToMatchedTermCount;
using testing::ParseNode;
using testing::ParsePod;

// ---- object builders (YAML flow fragments) ----

// A term with one matchExpression; `values` is a YAML flow list or "".
std::string Term(const std::string& key, const std::string& op, const std::string& values,
                 const std::string& topology, const std::string& extra = "") {
  std::string expr = "{key: " + key + ", operator: " + op;
  if (!values.empty()) expr += ", values: " + values;
  expr += "}";
  return "{labelSelector: {matchExpressions: [" + expr + "]}, topologyKey: " + topology +
         (extra.empty() ? "" : ", " + extra) + "}";
}
std::string Weighted(int weight, const std::string& term) {
  return "{weight: " + std::to_string(weight) + ", podAffinityTerm: " + term + "}";
}
struct Aff {
  std::string req{}, anti{}, pref{}, pref_anti{};  // YAML flow list bodies
};
std::string AffinityYaml(const Aff& a) {
  std::string out = "{";
  if (!a.req.empty() || !a.pref.empty()) {
    out += "podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" + a.req +
           "], preferredDuringSchedulingIgnoredDuringExecution: [" + a.pref + "]}, ";
  }
  if (!a.anti.empty() || !a.pref_anti.empty()) {
    out += "podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [" + a.anti +
           "], preferredDuringSchedulingIgnoredDuringExecution: [" + a.pref_anti + "]}";
  }
  return out + "}";
}
PodPtr MakePod(const std::string& name, const std::string& labels, const std::string& node = "",
               const Aff& aff = {}, const std::string& ns = "default") {
  std::string y = "metadata: {name: " + name + ", namespace: " + ns + ", labels: {" + labels +
                  "}}\nspec: {nodeName: '" + node + "', affinity: " + AffinityYaml(aff) + "}";
  return ParsePod(y, CompatLevel::kV1_27);
}
NodePtr MakeNode(const std::string& name, const std::string& labels) {
  return ParseNode("metadata: {name: " + name + ", labels: {" + labels + "}}");
}

ClusterObjects Namespaces() {
  ClusterObjects objects;
  auto add = [&](const std::string& name, const std::string& team) {
    k8s::Namespace ns;
    ns.mutable_metadata()->set_name(name);
    (*ns.mutable_metadata()->mutable_labels())["team"] = team;
    objects.namespaces[name] = ns;
  };
  add("subteam1.team1", "team1");
  add("subteam2.team1", "team1");
  add("subteam1.team2", "team2");
  add("subteam2.team2", "team2");
  return objects;
}

// A plugin over a snapshot of `nodes` and `pods`.
struct Env {
  Env(std::vector<NodePtr> nodes, std::vector<PodPtr> pods, nlohmann::json args = nullptr)
      : snapshot(testing::MakeSnapshot(nodes, pods)), objects(Namespaces()) {
    handle.snapshot = &snapshot;
    handle.objects = &objects;
    auto p = InterPodAffinity::New(args, handle);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.message());
    plugin.reset(dynamic_cast<InterPodAffinity*>(p->release()));
  }
  Snapshot snapshot;
  ClusterObjects objects;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<InterPodAffinity> plugin;
};

const std::string kAffUAU = std::string(InterPodAffinity::kErrReasonAffinityRulesNotMatch);
const std::string kAnti = std::string(InterPodAffinity::kErrReasonAntiAffinityRulesNotMatch);
const std::string kExisting =
    std::string(InterPodAffinity::kErrReasonExistingAntiAffinityRulesNotMatch);

// ---- Filter ----

struct FilterCase {
  std::string name;
  PodPtr pod;
  std::vector<PodPtr> pods;
  std::vector<NodePtr> nodes;
  Code want_prefilter = Code::kSuccess;
  std::vector<Status> want;  // per node, when PreFilter succeeded
};

std::vector<NodePtr> ThreeRegionNodes() {
  return {MakeNode("nodeA", "region: China"), MakeNode("nodeB", "region: China, az: az1"),
          MakeNode("nodeC", "region: India")};
}

TEST(InterPodAffinityTest, Filter) {
  const NodePtr node1 = MakeNode("node1", "region: r1, zone: z11");
  const PodPtr scan = MakePod("scan", "service: securityscan", "node1");
  const std::string in_scan = "['securityscan', 'value2']";
  std::vector<FilterCase> cases = {
      {"no terms and no existing anti-affinity: Skip",
       MakePod("p", ""),
       {},
       {node1},
       Code::kSkip,
       {}},
      {"affinity In matches existing pod",
       MakePod("p", "security: S1", "", {.req = Term("service", "In", in_scan, "region")}),
       {scan},
       {node1},
       Code::kSuccess,
       {Status()}},
      {"affinity NotIn matches existing pod",
       MakePod("p", "security: S1", "", {.req = Term("service", "NotIn", "[x]", "region")}),
       {scan},
       {node1},
       Code::kSuccess,
       {Status()}},
      {"affinity with unmatched selector and pod not matching itself",
       MakePod("p", "service: securityscan", "",
               {.req = Term("service", "In", "[antivirusscan]", "region")}),
       {scan},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulableAndUnresolvable, kAffUAU)}},
      {"affinity ok, anti-affinity violated",
       MakePod("p", "security: S1", "",
               {.req = Term("service", "In", in_scan, "region"),
                .anti = Term("service", "In", in_scan, "zone")}),
       {scan},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulable, kAnti)}},
      {"existing pod's anti-affinity rejects the incoming pod",
       MakePod("p", "service: securityscan"),
       {MakePod("e", "service: securityscan", "node1",
                {.anti = Term("service", "In", in_scan, "zone")})},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulable, kExisting)}},
      {"existing anti-affinity that does not match: Skip",
       MakePod("p", "service: securityscan"),
       {MakePod("e", "service: securityscan", "node1",
                {.anti = Term("service", "NotIn", in_scan, "zone")})},
       {node1},
       Code::kSkip,
       {}},
      {"anti-affinity of both sides: the incoming pod's is checked first",
       MakePod("p", "service: securityscan", "",
               {.anti = Term("service", "Exists", "", "region") + ", " +
                        Term("security", "Exists", "", "region")}),
       {MakePod("e", "security: S1", "node1", {.anti = Term("security", "Exists", "", "zone")})},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulable, kAnti)}},
      {"affinity to region: other nodes of the region fit",
       MakePod("p", "", "", {.req = Term("foo", "In", "[bar]", "region")}),
       {MakePod("e", "foo: bar", "nodeA")},
       ThreeRegionNodes(),
       Code::kSuccess,
       {Status(), Status(), Status(Code::kUnschedulableAndUnresolvable, kAffUAU)}},
      {"first pod of a group fits anywhere with the topology key",
       MakePod("p", "foo: bar, service: securityscan", "",
               {.req = Term("foo", "In", "[bar]", "zone") + ", " +
                       Term("service", "In", "[securityscan]", "zone")}),
       {MakePod("e", "foo: bar", "nodeA")},
       {MakeNode("nodeA", "zone: az1"), MakeNode("nodeB", "zone: az2"),
        MakeNode("nodeC", "hostname: h3")},
       Code::kSuccess,
       {Status(), Status(), Status(Code::kUnschedulableAndUnresolvable, kAffUAU)}},
      {"anti-affinity region: pods in another namespace do not count",
       MakePod("p", "foo: '123'", "", {.anti = Term("foo", "In", "[bar]", "region")}, "NS1"),
       {MakePod("a", "foo: bar", "nodeA", {}, "NS1"),
        MakePod("c", "", "nodeC", {.anti = Term("foo", "In", "['123']", "region")}, "NS2")},
       ThreeRegionNodes(),
       Code::kSuccess,
       {Status(Code::kUnschedulable, kAnti), Status(Code::kUnschedulable, kAnti), Status()}},
      {"affinity with namespaceSelector resolved from Namespace objects",
       MakePod("p", "security: S1", "",
               {.req = Term("service", "In", in_scan, "region",
                            "namespaceSelector: {matchLabels: {team: team1}}")}),
       {MakePod("e", "service: securityscan", "node1", {}, "subteam1.team1")},
       {node1},
       Code::kSuccess,
       {Status()}},
      {"affinity with non-matching namespaceSelector",
       MakePod("p", "security: S1", "",
               {.req = Term("service", "In", in_scan, "region",
                            "namespaceSelector: {matchLabels: {team: team1}}")}),
       {MakePod("e", "service: securityscan", "node1", {}, "subteam1.team2")},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulableAndUnresolvable, kAffUAU)}},
      {"anti-affinity with an empty namespaceSelector matches every namespace",
       MakePod("p", "security: S1", "",
               {.anti = Term("service", "In", in_scan, "zone", "namespaceSelector: {}")},
               "subteam1.team1"),
       {MakePod("e", "service: securityscan", "node1", {}, "unknown-ns")},
       {node1},
       Code::kSuccess,
       {Status(Code::kUnschedulable, kAnti)}},
  };
  for (const FilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    Env env(c.nodes, c.pods);
    CycleState state;
    PreFilterResult result;
    Status pre = env.plugin->PreFilter(state, *c.pod, &result);
    ASSERT_EQ(pre.code(), c.want_prefilter) << pre.DebugString();
    if (!pre.IsSuccess()) continue;
    ASSERT_EQ(c.want.size(), c.nodes.size());
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      Status got = env.plugin->Filter(state, *c.pod, *env.snapshot.node_infos()[i]);
      EXPECT_EQ(got, c.want[i]) << c.nodes[i]->name() << ": " << got.DebugString();
    }
  }
}

TEST(InterPodAffinityTest, PreFilterRejectsUnparsableSelector) {
  PodPtr pod = MakePod("p", "service: securityscan", "",
                       {.req = Term("service", "In", "['{{.bad-value.}}']", "region") + ", " +
                               Term("service", "In", "[antivirusscan]", "node")});
  Env env({MakeNode("node1", "region: r1")}, {});
  CycleState state;
  PreFilterResult result;
  Status got = env.plugin->PreFilter(state, *pod, &result);
  EXPECT_EQ(got.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(got.Message(),
            "parsing pod: requiredAffinityTerms: values[0][service]: Invalid value: "
            "\"{{.bad-value.}}\": a valid label must be an empty string or consist of "
            "alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
            "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
}

TEST(InterPodAffinityTest, MissingStateIsAnError) {
  Env env({MakeNode("node1", "")}, {});
  CycleState state;
  PodPtr pod = MakePod("p", "");
  Status got = env.plugin->Filter(state, *pod, *env.snapshot.node_infos()[0]);
  EXPECT_EQ(got, Status::Error("error reading \"PreFilterInterPodAffinity\" from cycleState: "
                               "not found"));
  int64_t score = 0;
  EXPECT_EQ(env.plugin->Score(state, *pod, *env.snapshot.node_infos()[0], &score).code(),
            Code::kError);
  EXPECT_EQ(
      env.plugin->AddPod(state, *pod, *MakePodInfo(pod), *env.snapshot.node_infos()[0]).code(),
      Code::kError);
}

// ---- PreFilter extensions (upstream TestPreFilterStateAddRemovePod) ----

struct AddRemoveCase {
  std::string name;
  PodPtr pending;
  std::vector<PodPtr> existing;
  PodPtr added;
  TopologyToMatchedTermCount want_anti, want_affinity;
};

TEST(InterPodAffinityTest, AddPodRemovePod) {
  const std::string foo_bar = Term("foo", "In", "[bar]", "region");
  const std::string complex = Term("foo", "In", "[bar, buzz]", "region") + ", " +
                              Term("service", "NotIn", "[bar, security, test]", "zone");
  std::vector<NodePtr> nodes = {MakeNode("nodeA", "region: r1, zone: z11"),
                                MakeNode("nodeB", "region: r1, zone: z12"),
                                MakeNode("nodeC", "region: r2, zone: z21")};
  std::vector<AddRemoveCase> cases = {
      {"anti-affinity counts",
       MakePod("pending", "foo: bar", "", {.anti = foo_bar}),
       {MakePod("p1", "foo: bar", "nodeA"), MakePod("p2", "", "nodeC", {.anti = foo_bar})},
       MakePod("added", "foo: bar", "nodeB", {.anti = foo_bar}),
       {{{"region", "r1"}, 2}},
       {}},
      {"anti-affinity counts with two terms",
       MakePod("pending", "foo: bar", "", {.anti = complex}),
       {MakePod("p1", "foo: bar", "nodeA"), MakePod("p2", "", "nodeC", {.anti = foo_bar})},
       MakePod("added", "foo: bar", "nodeA", {.anti = complex}),
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}, {{"zone", "z21"}, 1}},
       {}},
      {"affinity counts",
       MakePod("pending", "foo: bar", "", {.req = complex}),
       {MakePod("p1", "foo: bar", "nodeA"),
        MakePod("p2", "", "nodeC", {.req = complex, .anti = foo_bar})},
       MakePod("added", "foo: bar", "nodeA", {.anti = complex}),
       {},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}}},
  };
  for (const AddRemoveCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto prefilter = [&](const std::vector<PodPtr>& pods, CycleState& state) {
      Env env(nodes, pods);
      PreFilterResult result;
      EXPECT_TRUE(env.plugin->PreFilter(state, *c.pending, &result).IsSuccess());
      return *state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
    };
    std::vector<PodPtr> all = c.existing;
    all.push_back(c.added);
    CycleState all_state;
    PreFilterState with_added = prefilter(all, all_state);

    Env env(nodes, c.existing);
    CycleState state;
    PreFilterResult result;
    ASSERT_TRUE(env.plugin->PreFilter(state, *c.pending, &result).IsSuccess());
    const PreFilterState original =
        *state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
    const NodeInfo& node = *env.snapshot.Get(c.added->node_name());
    ASSERT_TRUE(env.plugin->AddPod(state, *c.pending, *MakePodInfo(c.added), node).IsSuccess());
    const auto* got = state.ReadAs<PreFilterState>(InterPodAffinity::kPreFilterStateKey);
    EXPECT_EQ(got->anti_affinity_counts, c.want_anti);
    EXPECT_EQ(got->affinity_counts, c.want_affinity);
    EXPECT_EQ(got->existing_anti_affinity_counts, with_added.existing_anti_affinity_counts);
    EXPECT_EQ(got->affinity_counts, with_added.affinity_counts);
    EXPECT_EQ(got->anti_affinity_counts, with_added.anti_affinity_counts);

    ASSERT_TRUE(env.plugin->RemovePod(state, *c.pending, *MakePodInfo(c.added), node).IsSuccess());
    EXPECT_EQ(got->existing_anti_affinity_counts, original.existing_anti_affinity_counts);
    EXPECT_EQ(got->affinity_counts, original.affinity_counts);
    EXPECT_EQ(got->anti_affinity_counts, original.anti_affinity_counts);
  }
}

TEST(InterPodAffinityTest, CloneIsDeep) {
  PreFilterState s;
  s.affinity_counts = {{{"name", "nodeA"}, 1}};
  s.existing_anti_affinity_counts = {{{"name", "node1"}, 1}};
  auto clone = s.Clone();
  auto* c = dynamic_cast<PreFilterState*>(clone.get());
  ASSERT_NE(c, nullptr);
  c->affinity_counts = {{{"name", "nodeA"}, 5}};
  EXPECT_EQ(s.affinity_counts.at({"name", "nodeA"}), 1);
  EXPECT_EQ(c->existing_anti_affinity_counts, s.existing_anti_affinity_counts);
}

// ---- Score (upstream TestPreferredAffinity, adapted to v1.27: no PreScore Skip) ----

struct ScoreCase {
  std::string name;
  PodPtr pod;
  std::vector<PodPtr> pods;
  std::vector<NodePtr> nodes;
  std::vector<int64_t> want;
  nlohmann::json args = nullptr;
};

TEST(InterPodAffinityTest, Score) {
  const std::string s1_region = Weighted(5, Term("security", "In", "[S1]", "region"));
  const std::string s2_region = Weighted(6, Term("security", "In", "[S2]", "region"));
  const std::string away_s1_az = Weighted(5, Term("security", "In", "[S1]", "az"));
  const std::string hard = Term("security", "In", "[S1, value2]", "region");
  const NodePtr china = MakeNode("node1", "region: China");
  const NodePtr india = MakeNode("node2", "region: India");
  const NodePtr az1 = MakeNode("node3", "az: az1");
  std::vector<ScoreCase> cases = {
      {"no affinity anywhere: all zero",
       MakePod("p", "security: S1"),
       {},
       {china, india, az1},
       {0, 0, 0}},
      {"preferred affinity: matching pod in the node's region",
       MakePod("p", "security: S1", "", {.pref = s1_region}),
       {MakePod("a", "security: S1", "node1"), MakePod("b", "security: S2", "node2"),
        MakePod("c", "security: S1", "node3")},
       {china, india, az1},
       {100, 0, 0}},
      {"symmetry: existing pod's preferred affinity",
       MakePod("p", "security: S2"),
       {MakePod("a", "security: S1", "node1", {.pref = s1_region}),
        MakePod("b", "security: S2", "node2", {.pref = s2_region})},
       {china, india, az1},
       {0, 100, 0}},
      {"symmetry: existing pod's required affinity with hardPodAffinityWeight",
       MakePod("p", "security: S1"),
       {MakePod("a", "security: S1", "node1", {.req = hard}),
        MakePod("b", "security: S2", "node2", {.req = hard})},
       {china, india, az1},
       {100, 100, 0}},
      {"hardPodAffinityWeight 0 ignores required terms of existing pods",
       MakePod("p", "security: S1"),
       {MakePod("a", "security: S1", "node1", {.req = hard})},
       {china, india, az1},
       {0, 0, 0},
       {{"hardPodAffinityWeight", 0}}},
      {"preferred anti-affinity",
       MakePod("p", "security: S1", "", {.pref_anti = away_s1_az}),
       {MakePod("a", "security: S1", "node1"), MakePod("b", "security: S2", "node2")},
       {MakeNode("node1", "az: az1"), MakeNode("node2", "region: China")},
       {0, 100}},
      {"ignorePreferredTermsOfExistingPods",
       MakePod("p", "security: S2"),
       {MakePod("a", "security: S1", "node1", {.pref = s1_region}),
        MakePod("b", "security: S2", "node2", {.pref = s2_region})},
       {china, india},
       {0, 0},
       {{"ignorePreferredTermsOfExistingPods", true}}},
      {"mixed weights truncate: 8 vs 2 on different regions",
       MakePod("p", "security: S1", "",
               {.pref = Weighted(8, Term("security", "In", "[S2]", "region")) + ", " +
                        Weighted(2, Term("security", "Exists", "", "region"))}),
       {MakePod("a", "security: S1", "node1"), MakePod("b", "security: S2", "node2"),
        MakePod("c", "security: S1", "node3")},
       {china, india, az1},
       {20, 100, 0}},
  };
  for (const ScoreCase& c : cases) {
    SCOPED_TRACE(c.name);
    Env env(c.nodes, c.pods, c.args);
    CycleState state;
    ASSERT_TRUE(env.plugin->PreScore(state, *c.pod, env.snapshot.node_infos()).IsSuccess());
    NodeScoreList scores;
    for (const NodeInfo* n : env.snapshot.node_infos()) {
      int64_t score = 0;
      ASSERT_TRUE(env.plugin->Score(state, *c.pod, *n, &score).IsSuccess());
      scores.push_back({n->name(), score});
    }
    ASSERT_TRUE(env.plugin->NormalizeScore(state, *c.pod, scores).IsSuccess());
    std::vector<int64_t> got;
    for (const NodeScore& s : scores) got.push_back(s.score);
    EXPECT_EQ(got, c.want);
  }
}

TEST(InterPodAffinityTest, PreScoreRejectsUnparsableSelector) {
  Env env({MakeNode("node1", "region: r1")}, {});
  CycleState state;
  PodPtr pod = MakePod("p", "", "",
                       {.pref = Weighted(8, Term("security", "In", "['{{.bad-value.}}']", "r"))});
  Status got = env.plugin->PreScore(state, *pod, env.snapshot.node_infos());
  EXPECT_EQ(got.code(), Code::kError);
  EXPECT_NE(got.Message().find("Invalid value: \"{{.bad-value.}}\""), std::string::npos);
}

// ---- args and events ----

TEST(InterPodAffinityTest, Args) {
  auto def = ParseInterPodAffinityArgs(nullptr);
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->hard_pod_affinity_weight, 1);
  EXPECT_FALSE(def->ignore_preferred_terms_of_existing_pods);
  auto set = ParseInterPodAffinityArgs(
      {{"hardPodAffinityWeight", 100}, {"ignorePreferredTermsOfExistingPods", true}});
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->hard_pod_affinity_weight, 100);
  EXPECT_TRUE(set->ignore_preferred_terms_of_existing_pods);
  auto high = ParseInterPodAffinityArgs({{"hardPodAffinityWeight", 101}});
  ASSERT_FALSE(high.ok());
  EXPECT_EQ(high.message(),
            "hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]");
  EXPECT_FALSE(ParseInterPodAffinityArgs({{"hardPodAffinityWeight", -1}}).ok());
  auto unknown = ParseInterPodAffinityArgs({{"foo", 1}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("\"foo\""), std::string::npos);
}

TEST(InterPodAffinityTest, EventsToRegister) {
  Env env({}, {});
  auto events = env.plugin->EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].resource, "Pod");
  EXPECT_EQ(events[0].action, action::kAll);
  EXPECT_EQ(events[1].resource, "Node");
  EXPECT_EQ(events[1].action, action::kAdd | action::kUpdateNodeLabel);
  EXPECT_TRUE(env.plugin->HasPreFilterExtensions());
  EXPECT_TRUE(env.plugin->HasNormalizeScore());
}

}  // namespace
}  // namespace schedcheck::reference
