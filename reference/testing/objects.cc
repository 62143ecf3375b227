#include "reference/testing/objects.h"

#include <cstdio>
#include <cstdlib>
#include <map>

#include "reference/k8s/k8s_json.h"

namespace schedcheck::reference::testing {
namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "test fixture error: %s\n", message.c_str());
  std::abort();
}

nlohmann::json ParseOne(std::string_view yaml) {
  auto docs = k8s::ParseYamlDocuments(yaml, "fixture");
  if (!docs.ok()) Die(docs.message());
  if (docs->size() != 1) Die("fixture must hold exactly one YAML document");
  return (*docs)[0].json;
}

}  // namespace

PodPtr ParsePod(std::string_view yaml, CompatLevel level) {
  auto obj = k8s::PodFromJson(ParseOne(yaml), "fixture pod");
  if (!obj.ok()) Die(obj.message());
  auto pod = BuildPod(std::move(*obj), FeaturesFor(level));
  if (!pod.ok()) Die(pod.message());
  return *pod;
}

NodePtr ParseNode(std::string_view yaml) {
  auto obj = k8s::NodeFromJson(ParseOne(yaml), "fixture node");
  if (!obj.ok()) Die(obj.message());
  auto node = BuildNode(std::move(*obj));
  if (!node.ok()) Die(node.message());
  return *node;
}

std::shared_ptr<NodeInfo> MakeNodeInfo(NodePtr node, const std::vector<PodPtr>& pods) {
  auto info = std::make_shared<NodeInfo>(std::move(node));
  for (const PodPtr& pod : pods) info->AddPod(MakePodInfo(pod));
  return info;
}

Snapshot MakeSnapshot(const std::vector<NodePtr>& nodes, const std::vector<PodPtr>& pods) {
  std::map<std::string, std::vector<PodPtr>> by_node;
  for (const PodPtr& pod : pods) by_node[pod->node_name()].push_back(pod);
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  for (const NodePtr& node : nodes) {
    infos.push_back(MakeNodeInfo(node, by_node[node->name()]));
    by_node.erase(node->name());
  }
  if (!by_node.empty()) Die("pod placed on unknown node \"" + by_node.begin()->first + "\"");
  return Snapshot(std::move(infos));
}

}  // namespace schedcheck::reference::testing
