#include "reference/accel/plugin_equality/random_cluster.h"

#include <string>
#include <utility>

#include <rapidcheck.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using nlohmann::json;

constexpr int64_t kMiB = 1024 * 1024;

template <typename T>
const T& Pick(const std::vector<T>& pool) {
  return pool[*rc::gen::inRange<size_t>(0, pool.size())];
}
bool Chance(int percent) { return *rc::gen::inRange(0, 100) < percent; }
int Count(int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); }

json Parse(const char* text) { return json::parse(text); }

json GenLabels(const std::string& name) {
  json labels = json::object();
  if (Chance(80)) labels["zone"] = Pick<std::string>({"a", "b", "c"});
  if (Chance(50)) labels["disk"] = Pick<std::string>({"ssd", "hdd"});
  if (Chance(50)) labels["gpu"] = Pick<std::string>({"1", "4", "16", "x", "+3"});
  if (Chance(50)) labels["kubernetes.io/hostname"] = name;
  return labels;
}

json GenTaint() {
  return Parse(Pick<const char*>({
      R"({"key": "dedicated", "value": "a", "effect": "NoSchedule"})",
      R"({"key": "dedicated", "value": "b", "effect": "NoExecute"})",
      R"({"key": "dedicated", "effect": "PreferNoSchedule"})",
      R"({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"})",
      R"({"key": "spot", "value": "true", "effect": "PreferNoSchedule"})",
      R"({"key": "spot", "value": "false", "effect": "PreferNoSchedule"})",
      R"({"key": "gpu", "effect": "NoSchedule"})",
  }));
}

json GenToleration() {
  return Parse(Pick<const char*>({
      R"({"operator": "Exists"})",
      R"({"key": "dedicated", "operator": "Equal", "value": "a", "effect": "NoSchedule"})",
      R"({"key": "dedicated", "operator": "Exists"})",
      R"({"key": "dedicated", "value": "b"})",
      R"({"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"})",
      R"({"key": "node.kubernetes.io/unschedulable", "operator": "Equal", "value": "", "effect": "NoSchedule"})",
      R"({"key": "spot", "value": "true", "effect": "PreferNoSchedule"})",
      R"({"key": "spot", "operator": "Exists"})",
      R"({"key": "gpu", "operator": "Exists", "effect": "NoExecute"})",
  }));
}

json GenPort() {
  json port = {{"containerPort", 80}, {"protocol", Pick<std::string>({"TCP", "UDP"})}};
  if (int host_port = Pick<int>({0, 80, 8080, 443}); host_port != 0) port["hostPort"] = host_port;
  if (std::string ip = Pick<std::string>({"", "", "127.0.0.1", "10.0.0.1"}); !ip.empty())
    port["hostIP"] = ip;
  return port;
}

json GenContainer(int i) {
  json c = {{"name", "c" + std::to_string(i)},
            {"image", Pick<std::string>({"gcr.io/a", "gcr.io/a:latest", "gcr.io/b:v1", "busybox",
                                         "x/y@sha256:abc", "localhost:5000/img", "unknown"})}};
  for (int n = Count(0, 2); n > 0; --n) c["ports"].push_back(GenPort());
  return c;
}

// A pod already on `node` that holds host ports.
PodPtr GenPortHolder(const std::string& node, int i) {
  json c = {{"name", "c"}, {"image", "busybox"}};
  for (int n = Count(1, 2); n > 0; --n) c["ports"].push_back(GenPort());
  const std::string name = node + "-holder-" + std::to_string(i);
  json pod = {{"metadata", {{"name", name}, {"namespace", "default"}, {"uid", name}}},
              {"spec", {{"nodeName", node}, {"containers", json::array({c})}}}};
  return testing::ParsePod(pod.dump(), CompatLevel::kV1_27);
}

void GenImages(NodeInfo* info, int num_nodes) {
  for (int n = Count(0, 3); n > 0; --n) {
    const std::string image = Pick<std::string>({"gcr.io/a:latest", "gcr.io/b:v1", "busybox:latest",
                                                 "x/y@sha256:abc", "localhost:5000/img:latest"});
    const int64_t size =
        Pick<int64_t>({0, 5 * kMiB, 23 * kMiB, 300 * kMiB, 999 * kMiB, 2000 * kMiB}) +
        *rc::gen::inRange<int64_t>(0, kMiB);
    info->image_states()[image] = {size, Count(1, num_nodes > 0 ? num_nodes : 1)};
  }
}

json GenExpression(bool valid_only) {
  std::vector<const char*> pool = {
      R"({"key": "zone", "operator": "In", "values": ["a"]})",
      R"({"key": "zone", "operator": "In", "values": ["a", "b"]})",
      R"({"key": "zone", "operator": "NotIn", "values": ["c"]})",
      R"({"key": "disk", "operator": "Exists"})",
      R"({"key": "disk", "operator": "DoesNotExist"})",
      R"({"key": "gpu", "operator": "Gt", "values": ["2"]})",
      R"({"key": "gpu", "operator": "Lt", "values": ["10"]})",
  };
  if (!valid_only) {
    pool.insert(pool.end(), {
                                R"({"key": "gpu", "operator": "Gt", "values": ["x"]})",
                                R"({"key": "zone", "operator": "In"})",
                                R"({"key": "zone", "operator": "Foo", "values": ["a"]})",
                                R"({"key": "disk", "operator": "Exists", "values": ["ssd"]})",
                                R"({"key": "zone", "operator": "In", "values": ["bad value!"]})",
                            });
  }
  return Parse(Pick(pool));
}

json GenField(bool valid_only) {
  std::vector<const char*> pool = {
      R"({"key": "metadata.name", "operator": "In", "values": ["n1"]})",
      R"({"key": "metadata.name", "operator": "NotIn", "values": ["n0"]})",
  };
  if (!valid_only) {
    pool.insert(pool.end(),
                {
                    R"({"key": "metadata.name", "operator": "In", "values": ["n1", "n2"]})",
                    R"({"key": "metadata.name", "operator": "In", "values": ["n2"]})",
                    R"({"key": "metadata.uid", "operator": "In", "values": ["x"]})",
                });
  }
  return Parse(Pick(pool));
}

json GenTerm(bool valid_only) {
  json term = json::object();
  for (int n = Count(valid_only ? 1 : 0, 2); n > 0; --n)
    term["matchExpressions"].push_back(GenExpression(valid_only));
  if (Chance(30)) term["matchFields"].push_back(GenField(valid_only));
  if (Chance(10)) term["matchFields"].push_back(GenField(valid_only));
  return term;
}

json GenNodeAffinity() {
  json affinity = json::object();
  if (Chance(60)) {
    json terms = json::array();
    for (int n = Count(0, 2); n > 0; --n) terms.push_back(GenNodeSelectorTerm());
    affinity["requiredDuringSchedulingIgnoredDuringExecution"] = {{"nodeSelectorTerms", terms}};
  }
  if (Chance(60)) {
    json preferred = json::array();
    for (int n = Count(0, 3); n > 0; --n) {
      preferred.push_back(
          {{"weight", Pick<int>({0, 1, 5, 50, 100})}, {"preference", GenNodeSelectorTerm()}});
    }
    affinity["preferredDuringSchedulingIgnoredDuringExecution"] = preferred;
  }
  return affinity;
}

}  // namespace

bool GenChance(int percent) { return Chance(percent); }

nlohmann::json GenNodeSelectorTerm() { return GenTerm(/*valid_only=*/false); }
nlohmann::json GenValidNodeSelectorTerm() { return GenTerm(/*valid_only=*/true); }

CompatLevel GenLevel() { return Chance(50) ? CompatLevel::kV1_37 : CompatLevel::kV1_27; }

std::unique_ptr<RandomCluster> GenCluster(CompatLevel level) {
  auto cluster = std::make_unique<RandomCluster>();
  cluster->handle.features = FeaturesFor(level);
  const int num_nodes = Count(0, 8);
  std::vector<std::shared_ptr<const NodeInfo>> existing;
  for (int i = 0; i < num_nodes; ++i) {
    if (Chance(5)) {  // a NodeInfo without its node
      cluster->infos.push_back(std::make_shared<NodeInfo>());
      continue;
    }
    const std::string name = "n" + std::to_string(i);
    json node = {{"metadata", {{"name", name}, {"labels", GenLabels(name)}}},
                 {"spec", json::object()}};
    if (Chance(20)) node["spec"]["unschedulable"] = true;
    for (int n = Count(0, 3) - 1; n > 0; --n) node["spec"]["taints"].push_back(GenTaint());
    std::vector<PodPtr> pods;
    for (int n = Count(0, 2); n > 0; --n) pods.push_back(GenPortHolder(name, n));
    std::shared_ptr<NodeInfo> info = testing::MakeNodeInfo(testing::ParseNode(node.dump()), pods);
    GenImages(info.get(), num_nodes);
    cluster->infos.push_back(info);
    existing.push_back(info);
  }
  for (const auto& info : cluster->infos) cluster->nodes.push_back(info.get());
  cluster->snapshot.Reset(std::move(existing));
  cluster->handle.snapshot = &cluster->snapshot;
  return cluster;
}

PodPtr GenPod(const RandomCluster& cluster) {
  json spec = json::object();
  if (Chance(30)) {
    spec["nodeName"] = cluster.nodes.empty() || Chance(20) ? std::string("elsewhere")
                                                           : Pick(cluster.nodes)->name();
  }
  for (int n = Count(0, 3); n > 0; --n) spec["tolerations"].push_back(GenToleration());
  for (int i = Count(1, 3) - 1; i >= 0; --i) spec["containers"].push_back(GenContainer(i));
  if (Chance(30)) {  // v1.37's ImageLocality also scores init containers' images
    json init = GenContainer(9);
    init.erase("ports");
    spec["initContainers"].push_back(init);
  }
  if (Chance(30)) {
    spec["nodeSelector"]["zone"] = Pick<std::string>({"a", "b"});
    if (Chance(50)) spec["nodeSelector"]["disk"] = "ssd";
  }
  if (Chance(60)) spec["affinity"]["nodeAffinity"] = GenNodeAffinity();
  json pod = {{"metadata", {{"name", "p"}, {"namespace", "default"}, {"uid", "p"}}},
              {"spec", spec}};
  return testing::ParsePod(pod.dump(), CompatLevel::kV1_27);
}

}  // namespace schedcheck::reference
