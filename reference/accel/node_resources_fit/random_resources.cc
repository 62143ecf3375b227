#include "reference/accel/node_resources_fit/random_resources.h"

#include <algorithm>
#include <cstdint>

#include "rapidcheck.h"
#include "reference/accel/batch_plugin.h"
#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using json = nlohmann::json;

template <typename T>
T Pick(const std::vector<T>& from) {
  return *rc::gen::elementOf(from);
}
int Count(int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); }
bool Chance(int percent) { return *rc::gen::inRange(0, 100) < percent; }

// Few extended names, so that nodes and pods meet; more kinds than a FreeRoom record holds.
const std::vector<std::string>& ScalarNames() {
  static const std::vector<std::string> names = {
      "example.com/aaa", "example.com/bbb", "other.io/gpu", "hugepages-2Mi",
      "kubernetes.io/x", "a.io/r1",         "a.io/r2"};
  return names;
}

// A resource list with each of `base` (name and values, "" = left out) and some scalars.
json GenResourceList(const std::vector<std::pair<std::string, std::vector<std::string>>>& base,
                     const std::vector<std::string>& scalar_values, int max_scalars) {
  json list = json::object();
  for (const auto& [name, values] : base) {
    const std::string v = Pick(values);
    if (!v.empty()) list[name] = v;
  }
  for (int n = Count(0, max_scalars); n > 0; --n) list[Pick(ScalarNames())] = Pick(scalar_values);
  return list;
}

json GenNode(const std::string& name) {
  json allocatable = GenResourceList({{"cpu", {"", "0", "500m", "1", "2", "4"}},
                                      {"memory", {"", "0", "100", "512Mi", "1Gi", "2Gi"}},
                                      {"ephemeral-storage", {"", "100", "10Gi"}},
                                      {"pods", {"", "0", "1", "2", "3", "110"}}},
                                     {"0", "1", "2", "4"}, 5);
  return {{"metadata", {{"name", name}}}, {"status", {{"allocatable", allocatable}}}};
}

json GenContainer(const std::string& name) {
  json requests = GenResourceList({{"cpu", {"", "", "0", "100m", "250m", "1", "3"}},
                                   {"memory", {"", "", "0", "64Mi", "256Mi", "1Gi"}},
                                   {"ephemeral-storage", {"", "", "", "50", "1Gi"}}},
                                  {"0", "1", "2", "5"}, 2);
  return {{"name", name}, {"resources", {{"requests", requests}}}};
}

json GenPodSpec(CompatLevel level) {
  json spec = json::object();
  spec["containers"] = json::array();
  for (int i = Count(0, 3); i > 0; --i)
    spec["containers"].push_back(GenContainer("c" + std::to_string(i)));
  for (int i = Count(0, 3) - 1; i > 0; --i) {
    json init = GenContainer("i" + std::to_string(i));
    // v1.37 counts sidecars (restartable init containers) with the containers.
    if (FeaturesFor(level).sidecar_containers && Chance(40)) init["restartPolicy"] = "Always";
    spec["initContainers"].push_back(init);
  }
  if (FeaturesFor(level).pod_level_resources &&
      Chance(20)) {  // pod-level requests replace the sums
    spec["resources"]["requests"] =
        GenResourceList({{"cpu", {"", "100m", "2"}}, {"memory", {"", "128Mi", "1Gi"}}}, {}, 0);
  }
  if (Chance(15))
    spec["overhead"] = {{"cpu", Pick<std::string>({"0", "50m", "1"})}, {"memory", "10Mi"}};
  return spec;
}

}  // namespace

ResourceCluster::ResourceCluster(CompatLevel level) : level_(level), cache_(FeaturesFor(level)) {
  for (int n = Count(0, 8); n > 0; --n) AddNode();
  for (const std::string& name : cache_.NodeNames()) {
    for (int n = Count(0, 4); n > 0; --n) AddPodTo(name);
  }
  cache_.UpdateSnapshot(&snapshot_);
}

void ResourceCluster::AddNode() {
  const json node = GenNode("n" + std::to_string(next_node_++));
  RC_LOG() << "add node " << node.dump() << "\n";
  RC_ASSERT(cache_.AddNode(testing::ParseNode(node.dump())).ok());
}

void ResourceCluster::AddPodTo(const std::string& node_name) {
  const std::string name = "e" + std::to_string(next_pod_++);
  json spec = GenPodSpec(level_);
  spec["nodeName"] = node_name;
  const json pod = {{"metadata", {{"name", name}, {"namespace", "default"}, {"uid", name}}},
                    {"spec", spec}};
  RC_LOG() << "add pod " << pod.dump() << "\n";
  PodPtr parsed = testing::ParsePod(pod.dump(), level_);
  RC_ASSERT(cache_.AddPod(parsed).ok());
  pods_.push_back(parsed);
}

void ResourceCluster::Change() {
  for (int n = Count(1, 4); n > 0; --n) {
    const std::vector<std::string> names = cache_.NodeNames();
    const int what = Count(0, 4);
    if (what == 0 || names.empty()) {
      AddNode();
    } else if (what == 1) {
      AddPodTo(Pick(names));
    } else if (what == 2 && !pods_.empty()) {
      const size_t i = static_cast<size_t>(Count(0, static_cast<int>(pods_.size()) - 1));
      RC_LOG() << "remove pod " << pods_[i]->name() << "\n";
      RC_ASSERT(cache_.RemovePod(*pods_[i]).ok());
      pods_.erase(pods_.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (what == 3) {
      json node = GenNode(Pick(names));
      RC_LOG() << "update node " << node.dump() << "\n";
      RC_ASSERT(cache_.UpdateNode(testing::ParseNode(node.dump())).ok());
    } else if (what == 4) {
      const std::string name = Pick(names);
      RC_LOG() << "remove node " << name << "\n";
      RC_ASSERT(cache_.RemoveNode(name).ok());
      // Its pods stay in the cache on a node-less NodeInfo, outside the snapshot.
    }
  }
  cache_.UpdateSnapshot(&snapshot_);
}

std::vector<const NodeInfo*> ResourceCluster::nodes() const {
  std::vector<const NodeInfo*> out = snapshot_.node_infos();
  out.push_back(&without_node_);
  return out;
}

PodPtr GenResourcePod(CompatLevel level) {
  const json pod = {{"metadata", {{"name", "p"}, {"namespace", "default"}, {"uid", "p"}}},
                    {"spec", GenPodSpec(level)}};
  RC_LOG() << "schedule pod " << pod.dump() << "\n";
  return testing::ParsePod(pod.dump(), level);
}

CompatLevel GenResourceLevel() {
  const CompatLevel level = Chance(50) ? CompatLevel::kV1_37 : CompatLevel::kV1_27;
  RC_LOG() << "compat " << CompatLevelName(level) << "\n";
  return level;
}

namespace {

json GenResourceSpecs(bool weights) {
  json specs = json::array();
  std::vector<std::string> pool = {"cpu",         "memory",          "ephemeral-storage",
                                   "pods",        "example.com/aaa", "hugepages-2Mi",
                                   "other.io/gpu"};
  for (int n = Count(0, 4); n > 0 && !pool.empty(); --n) {
    const size_t i = static_cast<size_t>(Count(0, static_cast<int>(pool.size()) - 1));
    json spec = {{"name", pool[i]}};
    if (weights) spec["weight"] = Pick<int>({0, 1, 2, 5, 100});
    specs.push_back(spec);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return specs;
}

}  // namespace

json GenFitArgs() {
  if (Chance(25)) return nullptr;
  json args = json::object();
  if (Chance(30))
    args["ignoredResources"] = {
        Pick<std::string>({"example.com/aaa", "other.io/gpu", "hugepages-2Mi"})};
  if (Chance(30))
    args["ignoredResourceGroups"] = {Pick<std::string>({"example.com", "a.io", "kubernetes.io"})};
  const std::string type =
      Pick<std::string>({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
  json strategy = {{"type", type}};
  if (Chance(60)) strategy["resources"] = GenResourceSpecs(/*weights=*/true);
  if (type == "RequestedToCapacityRatio") {
    json shape = json::array();
    int utilization = -1;
    for (int n = Count(1, 4); n > 0 && utilization < 100; --n) {
      utilization = std::min(100, utilization + Count(1, 60));
      shape.push_back({{"utilization", utilization}, {"score", Count(0, 10)}});
    }
    strategy["requestedToCapacityRatio"] = {{"shape", shape}};
  }
  if (Chance(80)) args["scoringStrategy"] = strategy;
  RC_LOG() << "args " << args.dump() << "\n";
  return args;
}

json GenBalancedAllocationArgs() {
  json args = Chance(40) ? json(nullptr) : json{{"resources", GenResourceSpecs(/*weights=*/false)}};
  RC_LOG() << "args " << args.dump() << "\n";
  return args;
}

namespace {

// Score and the batch Score on every node of the snapshot (Filter's verdict aside).
std::string CompareScoresOnAllNodes(Plugin& plain, Plugin& fast, const Pod& pod,
                                    const std::vector<const NodeInfo*>& nodes) {
  auto* p = dynamic_cast<ScorePlugin*>(&plain);
  auto* f = dynamic_cast<ScorePlugin*>(&fast);
  if (p == nullptr || f == nullptr) return "";
  CycleState ps, fs;
  std::vector<const NodeInfo*> existing;
  std::vector<int64_t> want;
  bool all_scored = true;
  for (const NodeInfo* node : nodes) {
    int64_t a = -1, b = -1;
    const Status sa = p->Score(ps, pod, *node, &a);
    const Status sb = f->Score(fs, pod, *node, &b);
    const std::string where = "Score on node \"" + node->name() + "\"";
    if (!(sa == sb)) return where + ": plain " + sa.DebugString() + ", fast " + sb.DebugString();
    if (a != b) return where + ": plain " + std::to_string(a) + ", fast " + std::to_string(b);
    if (node->node() == nullptr) continue;
    existing.push_back(node);
    want.push_back(a);
    all_scored = all_scored && sa.IsSuccess();
  }
  auto* batch = dynamic_cast<BatchScorePlugin*>(&fast);
  if (batch == nullptr) return "";
  std::vector<int64_t> got(existing.size(), -1);
  const Status s = batch->ScoreNodes(fs, pod, existing, got.data());
  if (s.IsSuccess() != all_scored) return "ScoreNodes: " + s.DebugString();
  for (size_t i = 0; all_scored && i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "ScoreNodes on node \"" + existing[i]->name() + "\": " + std::to_string(got[i]) +
             ", Score " + std::to_string(want[i]);
    }
  }
  return "";
}

}  // namespace

std::string DifferenceAcrossCycles(Plugin& plain, Plugin& fast, ResourceCluster& cluster,
                                   int cycles) {
  for (int cycle = 0; cycle < cycles; ++cycle) {
    for (int n = Count(1, 3); n > 0; --n) {
      const PodPtr pod = GenResourcePod(cluster.level());
      const std::vector<const NodeInfo*> nodes = cluster.nodes();
      const std::string where = "cycle " + std::to_string(cycle) + ": ";
      if (std::string d = FirstDifference(plain, fast, *pod, nodes); !d.empty()) return where + d;
      if (std::string d = CompareScoresOnAllNodes(plain, fast, *pod, nodes); !d.empty())
        return where + d;
    }
    cluster.Change();
  }
  return "";
}

}  // namespace schedcheck::reference
