// FastInterPodAffinity against the plain rule (reference/plugins/inter_pod_affinity): random
// clusters of labelled nodes, pods with every kind of (anti-)affinity term, namespaces with and
// without Namespace objects. Compared: PreFilter (status and the three counts), Filter per node,
// AddPod / RemovePod (the counts and Filter after them), PreScore, Score per node, NormalizeScore
// and the Uniform* shortcuts (plugin_equality.h), PreScore's topology scores over every node;
// and, for a fast plugin kept across cycles (its contribution caches filled), the same after
// pods, nodes and namespace labels change. RapidCheck prints the seed and how to reproduce a
// failure.
#include "reference/accel/inter_pod_affinity/fast_inter_pod_affinity.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using nlohmann::json;

// Uniform in [lo, hi): rc::gen::inRange narrows its range at small sizes, which would leave the
// early tests with few nodes, pods and terms.
size_t Uniform(size_t lo, size_t hi) {
  return *rc::gen::resize(100, rc::gen::inRange<size_t>(lo, hi));
}
template <typename T>
T Pick(const std::vector<T>& pool) {
  return pool[Uniform(0, pool.size())];
}
bool Chance(int percent) { return Uniform(0, 100) < static_cast<size_t>(percent); }
int Count(int lo, int hi) { return static_cast<int>(Uniform(lo, hi + 1)); }

// ---- generators ----

// "ghost" has no Namespace object.
const std::vector<std::string> kNamespaces = {"default", "ns1", "ns2", "ns3", "ghost"};

void SetNamespace(ClusterObjects& objects, const std::string& name, const std::string& team) {
  k8s::Namespace ns;
  ns.mutable_metadata()->set_name(name);
  (*ns.mutable_metadata()->mutable_labels())["team"] = team;
  objects.namespaces[name] = ns;
}

ClusterObjects GenNamespaces() {
  ClusterObjects objects;
  SetNamespace(objects, "default", "team0");
  SetNamespace(objects, "ns1", "team1");
  SetNamespace(objects, "ns2", Pick<std::string>({"team1", "team2"}));
  SetNamespace(objects, "ns3", "team2");
  return objects;
}

// One requirement; now and then one that does not parse (PreFilter's "parsing pod" path).
json GenRequirement() {
  json r = {{"key", Pick<std::string>({"app", "tier"})}};
  if (Chance(3)) {
    r["operator"] = Pick<std::string>({"In", "Bogus"});
    r["values"] = Chance(50) ? json::array() : json::array({"{{bad}}"});
    return r;
  }
  const std::string op = Pick<std::string>({"In", "NotIn", "Exists", "DoesNotExist"});
  r["operator"] = op;
  if (op == "In" || op == "NotIn") {
    json values = json::array({Pick<std::string>({"a", "b", "x"})});
    if (Chance(30)) values.push_back(Pick<std::string>({"b", "y"}));
    r["values"] = values;
  }
  return r;
}

json GenLabelSelector() {
  json s = json::object();
  const int kind = Count(0, 3);  // 3: `{}`, which selects everything
  if (kind == 0 || kind == 2) s["matchLabels"] = {{"app", Pick<std::string>({"a", "b"})}};
  if (kind == 1 || kind == 2) s["matchExpressions"] = json::array({GenRequirement()});
  return s;
}

json GenTerm() {
  json t = {{"topologyKey", Pick<std::string>({"zone", "region", "host", "rack"})}};
  if (!Chance(10)) t["labelSelector"] = GenLabelSelector();  // else nil: matches nothing
  if (Chance(20)) {
    json names = json::array();
    for (int i = Count(1, 2); i > 0; --i) names.push_back(Pick(kNamespaces));
    t["namespaces"] = names;
  }
  switch (Count(0, 5)) {
    case 0:
      t["namespaceSelector"] = json::object();
      break;
    case 1:
      t["namespaceSelector"] = {{"matchLabels", {{"team", "team1"}}}};
      break;
    case 2:
      t["namespaceSelector"] = {
          {"matchExpressions",
           json::array(
               {{{"key", "team"}, {"operator", "NotIn"}, {"values", json::array({"team2"})}}})}};
      break;
    default:
      break;
  }
  return t;
}

json GenTerms(bool weighted) {
  json terms = json::array();
  for (int i = Chance(60) ? 0 : Count(1, 2); i > 0; --i) {
    if (weighted) {
      terms.push_back({{"weight", Count(1, 100)}, {"podAffinityTerm", GenTerm()}});
    } else {
      terms.push_back(GenTerm());
    }
  }
  return terms;
}

json GenAffinity() {
  json a = json::object();
  const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
  const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    json k = {{kRequired, GenTerms(false)}, {kPreferred, GenTerms(true)}};
    if (!k[kRequired].empty() || !k[kPreferred].empty() || Chance(10)) a[kind] = k;
  }
  return a;
}

PodPtr GenPod(const std::string& name, const std::string& node) {
  json labels = json::object();
  if (Chance(70)) labels["app"] = Pick<std::string>({"a", "b"});
  if (Chance(40)) labels["tier"] = Pick<std::string>({"x", "y"});
  const std::string ns = Chance(50) ? "default" : Pick(kNamespaces);
  json pod = {{"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}}},
              {"spec", {{"nodeName", node}}}};
  if (Chance(60)) pod["spec"]["affinity"] = GenAffinity();
  return testing::ParsePod(pod.dump(), CompatLevel::kV1_27);
}

NodePtr GenNode(const std::string& name) {
  json labels = json::object();
  if (Chance(80)) labels["zone"] = Pick<std::string>({"z1", "z2"});
  if (Chance(50)) labels["region"] = Pick<std::string>({"r1", "r2"});
  if (Chance(70)) labels["host"] = name;
  return testing::ParseNode(json({{"metadata", {{"name", name}, {"labels", labels}}}}).dump());
}

json GenArgs() {
  if (Chance(50)) return nullptr;
  return {{"hardPodAffinityWeight", Pick<int>({0, 1, 3, 100})},
          {"ignorePreferredTermsOfExistingPods", Chance(30)}};
}

// A cluster whose nodes and pods change between cycles, as the cache changes a snapshot:
// Replace for a changed node, Reset for nodes added or removed.
struct Cluster {
  std::vector<std::shared_ptr<NodeInfo>> infos;
  Snapshot snapshot;
  ClusterObjects objects;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  int next_name = 0;

  Cluster() {
    objects = GenNamespaces();
    for (int i = Count(0, 6); i > 0; --i) AddNode();
    for (int i = Count(0, 12); i > 0 && !infos.empty(); --i) {
      NodeInfo& info = *infos[Uniform(0, infos.size())];
      info.AddPod(MakePodInfo(GenPod(NewName("e"), info.name())));
    }
    Reset();
    handle.snapshot = &snapshot;
    handle.objects = &objects;
    // v1.37's PreScore answers Skip more often.
    const CompatLevel level = Chance(50) ? CompatLevel::kV1_37 : CompatLevel::kV1_27;
    handle.features = FeaturesFor(level);
    RC_LOG() << "compat " << CompatLevelName(level) << "\n";
  }
  std::string NewName(const std::string& prefix) { return prefix + std::to_string(next_name++); }
  void AddNode() { infos.push_back(std::make_shared<NodeInfo>(GenNode(NewName("n")))); }
  void Reset() { snapshot.Reset({infos.begin(), infos.end()}); }

  // One change; returns what it did.
  std::string Change() {
    const int op = infos.empty() ? 3 : Count(0, 6);
    if (op == 3) {
      AddNode();
      Reset();
      return "node " + infos.back()->name() + " added";
    }
    if (op == 6) {
      const std::string team = objects.namespaces["ns2"].metadata().labels().at("team");
      SetNamespace(objects, "ns2", team == "team1" ? "team2" : "team1");
      return "namespace ns2 relabelled";
    }
    const size_t i = Uniform(0, infos.size());
    if (op == 4) {
      const std::string name = infos[i]->name();
      infos.erase(infos.begin() + static_cast<std::ptrdiff_t>(i));
      Reset();
      return "node " + name + " removed";
    }
    auto info = std::shared_ptr<NodeInfo>(infos[i]->Clone());
    std::string what;
    if (op == 0 || info->pods().empty()) {
      info->AddPod(MakePodInfo(GenPod(NewName("e"), info->name())));
      what = "pod added to " + info->name();
    } else if (op == 1 || op == 5) {
      // op 5: the pod comes back with other labels and terms (an update).
      const PodPtr gone = Pick(info->pods())->pod;
      RC_ASSERT(info->RemovePod(*gone));
      what = "pod " + gone->name() + " removed from " + info->name();
      if (op == 5) info->AddPod(MakePodInfo(GenPod(gone->name(), info->name())));
    } else {
      info->SetNode(GenNode(info->name()));
      what = "node " + info->name() + " relabelled";
    }
    infos[i] = info;
    RC_ASSERT(snapshot.Replace(info));
    return what;
  }
};

// ---- comparisons ----

std::unique_ptr<Plugin> Make(Result<std::unique_ptr<Plugin>> made) {
  RC_ASSERT(made.ok());
  return std::move(*made);
}

// "" when the plain and fast PreFilter states hold the same counts, else which differ.
std::string CountsDiffer(const CycleState& plain_state, const CycleState& fast_state) {
  const auto* p =
      plain_state.ReadAs<interpodaffinity::PreFilterState>(InterPodAffinity::kPreFilterStateKey);
  const auto* f = fast_state.ReadAs<interpodaffinity::fast::PreFilterState>(
      InterPodAffinity::kPreFilterStateKey);
  if ((p == nullptr) != (f == nullptr)) return "only one PreFilter state";
  if (p == nullptr) return "";
  if (f->existing_anti_affinity_counts.ToPlain() != p->existing_anti_affinity_counts) {
    return "existing anti-affinity counts differ";
  }
  if (f->affinity_counts.ToPlain() != p->affinity_counts) return "affinity counts differ";
  if (f->anti_affinity_counts.ToPlain() != p->anti_affinity_counts) {
    return "anti-affinity counts differ";
  }
  return "";
}

std::string FilterDiffers(Plugin& plain, Plugin& fast, const CycleState& ps, const CycleState& fs,
                          const Pod& pod, const Snapshot& snapshot) {
  for (const NodeInfo* node : snapshot.node_infos()) {
    const Status a = dynamic_cast<FilterPlugin&>(plain).Filter(ps, pod, *node);
    const Status b = dynamic_cast<FilterPlugin&>(fast).Filter(fs, pod, *node);
    if (!(a == b)) {
      return "Filter on " + node->name() + ": plain " + a.DebugString() + ", fast " +
             b.DebugString();
    }
  }
  return "";
}

// PreFilter's counts, then AddPod and RemovePod (in either order) of a pod, new or already in
// the cluster, on a node: the counts and Filter after each.
std::string PreFilterExtensionsDiffer(Plugin& plain, Plugin& fast, Cluster& c, const Pod& pod) {
  auto& p = dynamic_cast<PreFilterPlugin&>(plain);
  auto& f = dynamic_cast<PreFilterPlugin&>(fast);
  CycleState ps, fs;
  PreFilterResult pr, fr;
  const Status s = p.PreFilter(ps, pod, &pr);
  if (!(s == f.PreFilter(fs, pod, &fr))) return "PreFilter differs";
  if (std::string d = CountsDiffer(ps, fs); !d.empty()) return "PreFilter: " + d;
  if (!s.IsSuccess() || c.snapshot.size() == 0) return "";
  const NodeInfo& node = *c.snapshot.node_infos()[Uniform(0, c.snapshot.size())];
  const PodInfoPtr other = !node.pods().empty() && Chance(50)
                               ? Pick(node.pods())
                               : MakePodInfo(GenPod(c.NewName("nominated"), node.name()));
  const bool add_first = Chance(50);
  for (int round = 0; round < 2; ++round) {
    const bool add = (round == 0) == add_first;
    const std::string what = (add ? "AddPod " : "RemovePod ") + other->pod->name() + ": ";
    const Status a = add ? p.AddPod(ps, pod, *other, node) : p.RemovePod(ps, pod, *other, node);
    const Status b = add ? f.AddPod(fs, pod, *other, node) : f.RemovePod(fs, pod, *other, node);
    if (!(a == b)) return what + "plain " + a.DebugString() + ", fast " + b.DebugString();
    if (std::string d = CountsDiffer(ps, fs); !d.empty()) return what + d;
    if (std::string d = FilterDiffers(plain, fast, ps, fs, pod, c.snapshot); !d.empty()) {
      return what + d;
    }
  }
  return "";
}

// PreScore over every node, not only those Filter passes: the topology scores and Score per
// node.
std::string ScoresDiffer(Plugin& plain, Plugin& fast, Cluster& c, const Pod& pod) {
  CycleState ps, fs;
  const Status a = dynamic_cast<PreScorePlugin&>(plain).PreScore(ps, pod, c.snapshot.node_infos());
  const Status b = dynamic_cast<PreScorePlugin&>(fast).PreScore(fs, pod, c.snapshot.node_infos());
  if (!(a == b)) return "PreScore: plain " + a.DebugString() + ", fast " + b.DebugString();
  const auto* p = ps.ReadAs<interpodaffinity::PreScoreState>(InterPodAffinity::kPreScoreStateKey);
  const auto* f =
      fs.ReadAs<interpodaffinity::fast::PreScoreState>(InterPodAffinity::kPreScoreStateKey);
  if ((p == nullptr) != (f == nullptr)) return "only one PreScore state";
  if (p == nullptr) return "";
  if (f->topology_score.ToPlain() != p->topology_score) return "PreScore: topology scores differ";
  for (const NodeInfo* node : c.snapshot.node_infos()) {
    int64_t x = 0, y = 0;
    const Status sx = dynamic_cast<ScorePlugin&>(plain).Score(ps, pod, *node, &x);
    const Status sy = dynamic_cast<ScorePlugin&>(fast).Score(fs, pod, *node, &y);
    if (!(sx == sy) || x != y) {
      return "Score on " + node->name() + ": plain " + std::to_string(x) + ", fast " +
             std::to_string(y);
    }
  }
  return "";
}

// One whole cycle for `pod` (plugin_equality.h), then the PreFilter extensions and PreScore
// over every node.
std::string CycleDiffers(Plugin& plain, Plugin& fast, Cluster& c, const Pod& pod) {
  std::vector<const NodeInfo*> nodes = c.snapshot.node_infos();
  const NodeInfo without_node;
  if (Chance(10)) nodes.push_back(&without_node);
  if (std::string d = FirstDifference(plain, fast, pod, nodes); !d.empty()) return d;
  if (std::string d = PreFilterExtensionsDiffer(plain, fast, c, pod); !d.empty()) return d;
  return ScoresDiffer(plain, fast, c, pod);
}

// ---- properties ----

RC_GTEST_PROP(FastInterPodAffinity, EqualsPlainInterPodAffinity, ()) {
  Cluster c;
  const json args = GenArgs();
  std::unique_ptr<Plugin> plain = Make(InterPodAffinity::New(args, c.handle));
  std::unique_ptr<Plugin> fast = Make(FastInterPodAffinity::New(args, c.handle));
  const auto events = [](Plugin& p) {
    return dynamic_cast<EnqueueExtensions&>(p).EventsToRegister();
  };
  const auto pe = events(*plain), fe = events(*fast);
  RC_ASSERT(pe.size() == fe.size());
  for (size_t i = 0; i < pe.size(); ++i) {
    RC_ASSERT(pe[i].resource == fe[i].resource && pe[i].action == fe[i].action);
  }
  const PodPtr pod = GenPod("incoming", "");
  if (std::string d = CycleDiffers(*plain, *fast, c, *pod); !d.empty()) RC_FAIL(d);
}

// A fast plugin kept across cycles (its contribution caches filled) gives the plain rule's
// results after pods, nodes and namespace labels change in between.
RC_GTEST_PROP(FastInterPodAffinity, KeptFastPluginEqualsPlainAfterClusterChanges, ()) {
  Cluster c;
  const json args = GenArgs();
  std::unique_ptr<Plugin> plain = Make(InterPodAffinity::New(args, c.handle));
  std::unique_ptr<Plugin> fast = Make(FastInterPodAffinity::New(args, c.handle));
  // The same few incoming pods every cycle, so that the caches' keys repeat.
  std::vector<PodPtr> incoming;
  for (int i = Count(1, 3); i > 0; --i) incoming.push_back(GenPod(c.NewName("incoming"), ""));
  std::string history = "first cycle";
  for (int step = Count(1, 8); step >= 0; --step) {
    for (const PodPtr& pod : incoming) {
      if (std::string d = CycleDiffers(*plain, *fast, c, *pod); !d.empty()) {
        RC_FAIL("after " + history + ", pod " + pod->name() + ": " + d);
      }
    }
    if (step > 0) history += ", " + c.Change();
  }
}

}  // namespace
}  // namespace schedcheck::reference
