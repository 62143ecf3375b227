// FastPodTopologySpread gives exactly what the plain PodTopologySpread gives: PreFilter status,
// Filter per node (and FilterNodes), AddPod / RemovePod followed by Filter, PreScore status,
// Score per node (and ScoreNodes, UniformScore), NormalizeScore and UniformNormalizedScore; on
// random clusters, and for one fast instance kept while the cluster changes between cycles (its
// domain sums, match counts and label memos must follow every change).
#include "reference/accel/pod_topology_spread/fast_pod_topology_spread.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

// --- comparing one cycle ---------------------------------------------------------------------

std::string Differ(const std::string& what, const Status& plain, const Status& fast) {
  if (plain == fast) return "";
  return what + ": plain " + plain.DebugString() + ", fast " + fast.DebugString();
}

// Filter on every node, then FilterNodes against the per-node rejections. `feasible` gets the
// nodes that pass.
std::string CompareFilter(PodTopologySpread& plain, FastPodTopologySpread& fast,
                          const CycleState& ps, const CycleState& fs, const Pod& pod,
                          const std::vector<const NodeInfo*>& nodes,
                          std::vector<const NodeInfo*>* feasible) {
  std::vector<BatchRejection> want;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Status p = plain.Filter(ps, pod, *nodes[i]);
    if (auto d = Differ("Filter on " + nodes[i]->name(), p, fast.Filter(fs, pod, *nodes[i]));
        !d.empty())
      return d;
    if (p.IsSuccess()) {
      if (feasible != nullptr) feasible->push_back(nodes[i]);
    } else {
      want.push_back({static_cast<uint32_t>(i), p});
    }
  }
  std::vector<BatchRejection> got;
  fast.FilterNodes(fs, pod, nodes, &got);
  if (got.size() != want.size())
    return "FilterNodes rejects " + std::to_string(got.size()) + " nodes, Filter " +
           std::to_string(want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].index != want[i].index) return "FilterNodes rejects another node";
    if (auto d =
            Differ("FilterNodes on " + nodes[got[i].index]->name(), want[i].status, got[i].status);
        !d.empty()) {
      return d;
    }
  }
  return "";
}

// AddPod / RemovePod of the given pods on clones of the PreFilter states, one after the other
// (so that the critical paths' approximation shows), each followed by Filter on every node.
std::string CompareExtensions(PodTopologySpread& plain, FastPodTopologySpread& fast,
                              const CycleState& ps, const CycleState& fs, const Pod& pod,
                              const std::vector<const NodeInfo*>& nodes,
                              const std::vector<std::pair<PodPtr, int>>& updates) {
  std::unique_ptr<CycleState> p = ps.Clone(), f = fs.Clone();
  for (const auto& [other, delta] : updates) {
    const NodeInfo* node = nullptr;
    for (const NodeInfo* n : nodes) {
      if (n->name() == other->node_name()) node = n;
    }
    if (node == nullptr) continue;
    PodInfoPtr info = MakePodInfo(other);
    const std::string what =
        (delta > 0 ? "AddPod " : "RemovePod ") + other->name() + " on " + node->name();
    const Status a =
        delta > 0 ? plain.AddPod(*p, pod, *info, *node) : plain.RemovePod(*p, pod, *info, *node);
    const Status b =
        delta > 0 ? fast.AddPod(*f, pod, *info, *node) : fast.RemovePod(*f, pod, *info, *node);
    if (auto d = Differ(what, a, b); !d.empty()) return d;
    if (auto d = CompareFilter(plain, fast, *p, *f, pod, nodes, nullptr); !d.empty())
      return "after " + what + ": " + d;
  }
  return "";
}

std::string CompareScore(PodTopologySpread& plain, FastPodTopologySpread& fast, CycleState& ps,
                         CycleState& fs, const Pod& pod,
                         const std::vector<const NodeInfo*>& feasible) {
  if (auto d =
          Differ("PreScore", plain.PreScore(ps, pod, feasible), fast.PreScore(fs, pod, feasible));
      !d.empty()) {
    return d;
  }
  // v1.37 returns Skip (no state, Score not called) where it has nothing to score.
  if (ps.ReadAs<StateData>(PodTopologySpread::kPreScoreStateKey) == nullptr) return "";
  NodeScoreList raw;
  bool all_scored = true;
  for (const NodeInfo* node : feasible) {
    int64_t a = -1, b = -1;
    const Status s = plain.Score(ps, pod, *node, &a);
    if (auto d = Differ("Score on " + node->name(), s, fast.Score(fs, pod, *node, &b)); !d.empty())
      return d;
    if (a != b)
      return "Score on " + node->name() + ": plain " + std::to_string(a) + ", fast " +
             std::to_string(b);
    all_scored = all_scored && s.IsSuccess();
    raw.push_back({node->name(), a});
  }
  std::vector<int64_t> batch(feasible.size(), -1);
  const Status s = fast.ScoreNodes(fs, pod, feasible, batch.data());
  if (s.IsSuccess() != all_scored) return "ScoreNodes: " + s.DebugString();
  for (size_t i = 0; all_scored && i < raw.size(); ++i) {
    if (batch[i] != raw[i].score) return "ScoreNodes on " + feasible[i]->name();
  }
  if (!all_scored) return "";
  int64_t uniform = 0;
  if (fast.UniformScore(fs, pod, &uniform)) {
    for (const NodeScore& n : raw) {
      if (n.score != uniform)
        return "UniformScore " + std::to_string(uniform) + " but Score differs";
    }
  }
  NodeScoreList a = raw, b = raw;
  if (auto d = Differ("NormalizeScore", plain.NormalizeScore(ps, pod, a),
                      fast.NormalizeScore(fs, pod, b));
      !d.empty()) {
    return d;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].score != b[i].score) return "NormalizeScore of " + std::string(a[i].name);
  }
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{5}, uniform}) {
    int64_t normalized = 0;
    if (!fast.UniformNormalizedScore(fs, pod, v, &normalized)) continue;
    NodeScoreList list = raw;
    for (NodeScore& n : list) n.score = v;
    if (!plain.NormalizeScore(ps, pod, list).IsSuccess())
      return "UniformNormalizedScore where NormalizeScore fails";
    for (const NodeScore& n : list) {
      if (n.score != normalized) return "UniformNormalizedScore(" + std::to_string(v) + ") differs";
    }
  }
  return "";
}

// One scheduling cycle of `pod` on the snapshot, both plugins; "" when they agree.
std::string CompareCycle(PodTopologySpread& plain, FastPodTopologySpread& fast,
                         const Snapshot& snapshot, const Pod& pod,
                         const std::vector<std::pair<PodPtr, int>>& updates) {
  CycleState ps, fs;
  PreFilterResult pr, fr;
  const Status pre = plain.PreFilter(ps, pod, &pr);
  if (auto d = Differ("PreFilter", pre, fast.PreFilter(fs, pod, &fr));
      !d.empty() || !(pre.IsSuccess() || pre.IsSkip()))
    return d;
  const std::vector<const NodeInfo*>& nodes = snapshot.node_infos();
  // v1.37's Skip: no Filter runs, and every node goes on to scoring.
  if (pre.IsSkip()) return CompareScore(plain, fast, ps, fs, pod, nodes);
  std::vector<const NodeInfo*> feasible;
  if (auto d = CompareFilter(plain, fast, ps, fs, pod, nodes, &feasible); !d.empty()) return d;
  if (auto d = CompareExtensions(plain, fast, ps, fs, pod, nodes, updates); !d.empty()) return d;
  return CompareScore(plain, fast, ps, fs, pod, feasible);
}

// --- random clusters -------------------------------------------------------------------------

const std::vector<std::string> kZones = {"zone: z1", "zone: z2", "zone: z3", "zone: ''", ""};
const std::vector<std::string> kRacks = {"rack: r1", "rack: r2", ""};

NodePtr GenNode(const std::string& name) {
  std::string labels = *rc::gen::element<std::string>("kubernetes.io/hostname: " + name,
                                                      "kubernetes.io/hostname: " + name,
                                                      "kubernetes.io/hostname: " + name, "");
  for (const auto* pool : {&kZones, &kRacks}) {
    const std::string l = *rc::gen::elementOf(*pool);
    if (!l.empty()) labels += (labels.empty() ? "" : ", ") + l;
  }
  std::string yaml = "metadata: {name: " + name + ", labels: {" + labels + "}}";
  if (*rc::gen::inRange(0, 4) == 0)
    yaml += "\nspec: {taints: [{key: t, value: v, effect: NoSchedule}]}";
  return ParseNode(yaml);
}

std::string GenLabels() {
  std::string labels = *rc::gen::element<std::string>("app: a", "app: a", "app: b", "");
  if (*rc::gen::inRange(0, 3) == 0) labels += std::string(labels.empty() ? "" : ", ") + "tier: x";
  return "{" + labels + "}";
}

PodPtr GenExistingPod(const std::string& name, const std::string& node) {
  std::string meta = "name: " + name + ", namespace: " +
                     *rc::gen::element<std::string>("default", "default", "other") +
                     ", labels: " + GenLabels();
  if (*rc::gen::inRange(0, 8) == 0) meta += ", deletionTimestamp: '2023-01-01T00:00:00Z'";
  return ParsePod("metadata: {" + meta + "}\nspec: {nodeName: " + node + "}", CompatLevel::kV1_27);
}

std::string GenConstraint() {
  std::string c =
      "{maxSkew: " + std::to_string(*rc::gen::inRange(1, 4)) + ", topologyKey: " +
      *rc::gen::element<std::string>("zone", "zone", "rack", "kubernetes.io/hostname", "missing") +
      ", whenUnsatisfiable: " + *rc::gen::element<std::string>("DoNotSchedule", "ScheduleAnyway");
  const std::string selector = *rc::gen::element<std::string>(
      "", "{}", "{matchLabels: {app: a}}", "{matchLabels: {app: a}}",
      "{matchExpressions: [{key: app, operator: In, values: [a, b]}]}",
      "{matchExpressions: [{key: app, operator: Exists}]}",
      "{matchExpressions: [{key: tier, operator: DoesNotExist}]}",
      "{matchLabels: {app: b}, matchExpressions: [{key: app, operator: NotIn, values: [a]}]}",
      "{matchExpressions: [{key: app, operator: In}]}");
  if (!selector.empty()) c += ", labelSelector: " + selector;
  if (*rc::gen::inRange(0, 4) == 0) c += ", matchLabelKeys: [app]";
  if (*rc::gen::inRange(0, 4) == 0) c += ", minDomains: " + std::to_string(*rc::gen::inRange(1, 5));
  c += *rc::gen::element<std::string>("", "", ", nodeAffinityPolicy: Honor",
                                      ", nodeAffinityPolicy: Ignore");
  c += *rc::gen::element<std::string>("", "", ", nodeTaintsPolicy: Honor",
                                      ", nodeTaintsPolicy: Ignore");
  return c + "}";
}

PodPtr GenIncomingPod(const std::string& name) {
  std::string spec;
  const int constraints = *rc::gen::inRange(0, 4);
  if (constraints > 0) {
    spec += "topologySpreadConstraints: [";
    for (int i = 0; i < constraints; ++i) spec += (i ? ", " : "") + GenConstraint();
    spec += "]";
  }
  auto add = [&](const std::string& field) { spec += (spec.empty() ? "" : ", ") + field; };
  if (*rc::gen::inRange(0, 4) == 0)
    add("nodeSelector: {" + *rc::gen::element<std::string>("zone: z1", "rack: r2") + "}");
  if (*rc::gen::inRange(0, 4) == 0) {
    add("affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
        "{nodeSelectorTerms: "
        "[{matchExpressions: [{key: rack, operator: In, values: [r1]}]}]}}}");
  }
  if (*rc::gen::inRange(0, 3) == 0) add("tolerations: [{key: t, operator: Exists}]");
  return ParsePod("metadata: {name: " + name + ", namespace: " +
                      *rc::gen::element<std::string>("default", "default", "other") +
                      ", labels: " + GenLabels() + "}\nspec: {" + spec + "}",
                  CompatLevel::kV1_27);
}

// Plugin args: System defaulting, or a List of two default constraints.
nlohmann::json GenArgs() {
  if (*rc::gen::arbitrary<bool>()) return nullptr;
  return nlohmann::json::parse(R"({"defaultingType":"List","defaultConstraints":[
      {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},
      {"maxSkew":2,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}]})");
}

// A Service selecting app=a in namespace default (the default constraints' selector), or none.
ClusterObjects GenObjects() {
  ClusterObjects objects;
  if (*rc::gen::arbitrary<bool>()) {
    k8s::Service svc;
    svc.mutable_metadata()->set_name("svc");
    svc.mutable_metadata()->set_namespace_("default");
    (*svc.mutable_spec()->mutable_selector())["app"] = "a";
    objects.services["default/svc"] = svc;
  }
  return objects;
}

// The cluster as a list the test changes, and the snapshot made from it.
struct Cluster {
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  std::vector<PodPtr> pods;  // every existing pod, for RemovePod and the cluster changes
  int next_id = 0;
};

Cluster GenCluster() {
  Cluster c;
  const int nodes = *rc::gen::inRange(0, 9);
  for (int i = 0; i < nodes; ++i)
    c.infos.push_back(MakeNodeInfo(GenNode("n" + std::to_string(c.next_id++))));
  const int pods = nodes == 0 ? 0 : *rc::gen::inRange(0, 16);
  for (int i = 0; i < pods; ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, c.infos.size());
    PodPtr pod = GenExistingPod("e" + std::to_string(c.next_id++), c.infos[at]->name());
    auto next = std::make_shared<NodeInfo>(*c.infos[at]);
    next->AddPod(MakePodInfo(pod));
    c.infos[at] = next;
    c.pods.push_back(pod);
  }
  return c;
}

// One change between cycles, applied to `c` and to `snapshot` as the scheduler cache does: a
// replaced NodeInfo for a pod added or removed or a node relabelled; a new node list (the
// unchanged NodeInfos kept) for a node added or removed. Returns what changed.
std::string ChangeCluster(Cluster& c, Snapshot& snapshot) {
  const int op = c.infos.empty() ? 3 : *rc::gen::inRange(0, 5);
  const size_t at = c.infos.empty() ? 0 : *rc::gen::inRange<size_t>(0, c.infos.size());
  if (op == 0 || (op == 1 && c.infos[at]->pods().empty())) {
    PodPtr pod = GenExistingPod("e" + std::to_string(c.next_id++), c.infos[at]->name());
    auto next = std::make_shared<NodeInfo>(*c.infos[at]);
    next->AddPod(MakePodInfo(pod));
    c.infos[at] = next;
    c.pods.push_back(pod);
    RC_ASSERT(snapshot.Replace(next));
    return "pod " + pod->name() + " added on " + next->name();
  }
  if (op == 1) {
    auto next = std::make_shared<NodeInfo>(*c.infos[at]);
    const PodPtr gone = next->pods()[*rc::gen::inRange<size_t>(0, next->pods().size())]->pod;
    RC_ASSERT(next->RemovePod(*gone));
    c.infos[at] = next;
    RC_ASSERT(snapshot.Replace(next));
    return "pod " + gone->name() + " removed from " + next->name();
  }
  if (op == 2) {
    auto next = std::make_shared<NodeInfo>(*c.infos[at]);
    next->SetNode(GenNode(next->name()));
    c.infos[at] = next;
    RC_ASSERT(snapshot.Replace(next));
    return "node " + next->name() + " relabelled";
  }
  std::string change;
  if (op == 3) {
    auto added = MakeNodeInfo(GenNode("n" + std::to_string(c.next_id++)));
    change = "node " + added->name() + " added";
    c.infos.insert(c.infos.begin() + *rc::gen::inRange<size_t>(0, c.infos.size() + 1), added);
  } else {
    change = "node " + c.infos[at]->name() + " removed";
    c.infos.erase(c.infos.begin() + at);
  }
  snapshot.Reset(c.infos);
  return change;
}

// AddPod / RemovePod calls for a cycle: existing pods removed, copies of them and of `incoming`
// added, each on the node it names or on a random node.
std::vector<std::pair<PodPtr, int>> GenUpdates(const Cluster& c, const PodPtr& incoming) {
  std::vector<std::pair<PodPtr, int>> updates;
  if (c.infos.empty()) return updates;
  const int n = *rc::gen::inRange(0, 5);
  for (int i = 0; i < n; ++i) {
    if (!c.pods.empty() && *rc::gen::arbitrary<bool>()) {
      updates.push_back({c.pods[*rc::gen::inRange<size_t>(0, c.pods.size())], -1});
    } else {
      const std::string node = c.infos[*rc::gen::inRange<size_t>(0, c.infos.size())]->name();
      k8s::Pod copy = *rc::gen::arbitrary<bool>() ? incoming->obj : GenExistingPod("x", node)->obj;
      copy.mutable_metadata()->set_name("added-" + std::to_string(i));
      copy.mutable_spec()->set_node_name(node);
      auto built = BuildPod(copy, FeaturesFor(CompatLevel::kV1_27));
      RC_ASSERT(built.ok());
      updates.push_back({*built, 1});
    }
  }
  return updates;
}

RC_GTEST_PROP(FastPodTopologySpread, AgreesWithThePlainRuleAcrossChangingClusters, ()) {
  Cluster c = GenCluster();
  Snapshot snapshot(c.infos);
  const ClusterObjects objects = GenObjects();
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.snapshot = &snapshot;
  handle.objects = &objects;
  // Both levels: v1.37 counts per constraint and returns Skip where v1.27 writes empty states.
  const CompatLevel level = *rc::gen::element(CompatLevel::kV1_27, CompatLevel::kV1_37);
  handle.features = FeaturesFor(level);
  RC_LOG() << "compat " << CompatLevelName(level) << "\n";
  const nlohmann::json args = GenArgs();
  auto plain_made = PodTopologySpread::New(args, handle);
  auto fast_made = FastPodTopologySpread::New(args, handle);
  RC_ASSERT(plain_made.ok() && fast_made.ok());
  auto& plain = dynamic_cast<PodTopologySpread&>(**plain_made);
  auto& fast = dynamic_cast<FastPodTopologySpread&>(**fast_made);
  // A few incoming pods, taken in turn, so that the fast one's kept tables meet several keys.
  std::vector<PodPtr> incoming;
  for (int i = *rc::gen::inRange(1, 4); i > 0; --i)
    incoming.push_back(GenIncomingPod("p" + std::to_string(i)));
  std::string change = "none (first cycle)";
  const int cycles = *rc::gen::inRange(1, 8);
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const PodPtr& pod = incoming[cycle % incoming.size()];
    const std::string d = CompareCycle(plain, fast, snapshot, *pod, GenUpdates(c, pod));
    if (!d.empty()) {
      RC_FAIL("cycle " + std::to_string(cycle) + " (after change: " + change + "), pod " +
              pod->obj.DebugString() + ": " + d);
    }
    change = ChangeCluster(c, snapshot);
  }
}

// --- fixed cases -----------------------------------------------------------------------------

NodePtr ZoneNode(const std::string& name, const std::string& zone) {
  std::string labels = "{node: " + name + ", kubernetes.io/hostname: " + name;
  if (!zone.empty()) labels += ", zone: " + zone;
  return ParseNode("metadata: {name: " + name + ", labels: " + labels + "}}");
}

PodPtr FooPod(const std::string& name, const std::string& node) {
  return ParsePod(
      "metadata: {name: " + name + ", labels: {foo: ''}}\nspec: {nodeName: " + node + "}",
      CompatLevel::kV1_27);
}

PodPtr Incoming(const std::string& constraints, const std::string& more_spec = "") {
  return ParsePod("metadata: {name: p, labels: {foo: ''}}\nspec: {topologySpreadConstraints: " +
                      constraints + more_spec + "}",
                  CompatLevel::kV1_27);
}

std::string Hard(int skew, const std::string& key) {
  return "{maxSkew: " + std::to_string(skew) + ", topologyKey: " + key +
         ", whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: foo, "
         "operator: Exists}]}}";
}

const std::string kSoftZone =
    "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: "
    "{matchExpressions: [{key: foo, operator: Exists}]}}";

// A fast plugin kept across cycles and a plain one, on one snapshot the test changes.
struct Pair {
  Snapshot snapshot;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  std::unique_ptr<Plugin> plain, fast;
  Pair(const std::vector<NodePtr>& nodes, const std::vector<PodPtr>& pods, CompatLevel level)
      : snapshot(testing::MakeSnapshot(nodes, pods)) {
    handle.snapshot = &snapshot;
    handle.features = FeaturesFor(level);
    plain = std::move(*PodTopologySpread::New(nullptr, handle));
    fast = std::move(*FastPodTopologySpread::New(nullptr, handle));
  }
  std::string Cycle(const Pod& pod) {
    return CompareCycle(dynamic_cast<PodTopologySpread&>(*plain),
                        dynamic_cast<FastPodTopologySpread&>(*fast), snapshot, pod, {});
  }
};

// PreFilter's sums are kept across cycles (domain_counts.h); what they depend on besides the
// nodes must keep them apart, and replaced nodes must show in the next cycle.
TEST(FastPodTopologySpreadKeptSums, PodsWithOtherInclusionInputsOrLaterNodesCountAfresh) {
  const std::vector<NodePtr> nodes = {ZoneNode("n1", "z1"), ZoneNode("n2", "z1"),
                                      ZoneNode("n3", "z2")};
  const PodPtr in_z1 = Incoming("[" + Hard(1, "zone") + "]", ", nodeSelector: {zone: z1}");
  const PodPtr anywhere = Incoming("[" + Hard(1, "zone") + "]");
  Pair pair(nodes, {FooPod("e1", "n1"), FooPod("e2", "n1")}, CompatLevel::kV1_27);
  for (const PodPtr& pod : {in_z1, anywhere, in_z1}) EXPECT_EQ(pair.Cycle(*pod), "");
  // Two more matching pods land in z2: now z1 is the minimum for `anywhere` too.
  ASSERT_TRUE(
      pair.snapshot.Replace(MakeNodeInfo(nodes[2], {FooPod("e3", "n3"), FooPod("e4", "n3")})));
  EXPECT_EQ(pair.Cycle(*anywhere), "");
  EXPECT_EQ(pair.Cycle(*in_z1), "");
}

// PreScore's sums over all nodes are kept across cycles too, apart from PreFilter's.
TEST(FastPodTopologySpreadKeptSums, ScoresFollowReplacedNodes) {
  const std::vector<NodePtr> nodes = {ZoneNode("n1", "z1"), ZoneNode("n2", "z1"),
                                      ZoneNode("n3", "z2")};
  const PodPtr pod = Incoming("[" + kSoftZone + ", " + Hard(1, "zone") + "]");
  Pair pair(nodes, {FooPod("e1", "n1"), FooPod("e0", "n3")}, CompatLevel::kV1_27);
  EXPECT_EQ(pair.Cycle(*pod), "");
  ASSERT_TRUE(pair.snapshot.Replace(
      MakeNodeInfo(nodes[2], {FooPod("e0", "n3"), FooPod("e2", "n3"), FooPod("e3", "n3")})));
  EXPECT_EQ(pair.Cycle(*pod), "");
}

// Two constraints on one topology key with different selectors: v1.27 shares one count per
// domain between them, v1.37 counts each constraint on its own (filtering and scoring).
TEST(FastPodTopologySpread, ConstraintsSharingAKeyCountAsTheLevelDoes) {
  const std::vector<NodePtr> nodes = {ZoneNode("n1", "z1"), ZoneNode("n2", "z1"),
                                      ZoneNode("n3", "z2"), ZoneNode("n4", "z3")};
  auto labelled = [](const std::string& name, const std::string& node, const std::string& app) {
    return ParsePod("metadata: {name: " + name + ", labels: {app: " + app +
                        "}}\nspec: {nodeName: " + node + "}",
                    CompatLevel::kV1_27);
  };
  const std::vector<PodPtr> pods = {labelled("a1", "n1", "a"), labelled("a2", "n2", "a"),
                                    labelled("a3", "n1", "a"), labelled("b1", "n3", "b"),
                                    labelled("b2", "n4", "b")};
  auto constraint = [](const std::string& when, const std::string& app) {
    return "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: " + when +
           ", labelSelector: {matchLabels: {app: " + app + "}}}";
  };
  for (const CompatLevel level : {CompatLevel::kV1_27, CompatLevel::kV1_37}) {
    for (const std::string when : {"DoNotSchedule", "ScheduleAnyway"}) {
      Pair pair(nodes, pods, level);
      const PodPtr pod =
          ParsePod("metadata: {name: p, labels: {app: a}}\nspec: {topologySpreadConstraints: [" +
                       constraint(when, "a") + ", " + constraint(when, "b") + "]}",
                   CompatLevel::kV1_27);
      EXPECT_EQ(pair.Cycle(*pod), "") << CompatLevelName(level) << " " << when;
    }
  }
}

// Without PreFilter / PreScore, Filter and Score give the same errors.
TEST(FastPodTopologySpread, MissingStateGivesTheSameErrors) {
  Pair pair({ZoneNode("n1", "z1")}, {}, CompatLevel::kV1_27);
  const PodPtr pod = Incoming("[" + kSoftZone + "]");
  CycleState empty;
  const NodeInfo& n1 = *pair.snapshot.Get("n1");
  auto& plain = dynamic_cast<PodTopologySpread&>(*pair.plain);
  auto& fast = dynamic_cast<FastPodTopologySpread&>(*pair.fast);
  EXPECT_EQ(plain.Filter(empty, *pod, n1), fast.Filter(empty, *pod, n1));
  EXPECT_EQ(plain.Filter(empty, *pod, n1).code(), Code::kError);
  int64_t a = 0, b = 0;
  EXPECT_EQ(plain.Score(empty, *pod, n1, &a), fast.Score(empty, *pod, n1, &b));
  NodeScoreList list = {{"n1", 3}};
  EXPECT_EQ(plain.NormalizeScore(empty, *pod, list), fast.NormalizeScore(empty, *pod, list));
  EXPECT_EQ(plain.AddPod(empty, *pod, *MakePodInfo(FooPod("x", "n1")), n1),
            fast.AddPod(empty, *pod, *MakePodInfo(FooPod("x", "n1")), n1));
}

}  // namespace
}  // namespace schedcheck::reference
