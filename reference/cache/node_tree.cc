#include "reference/cache/node_tree.h"

#include <algorithm>

namespace schedcheck::reference {
namespace {

std::string LabelOr(const k8s::Node& node, const char* first, const char* second) {
  const auto& labels = node.metadata().labels();
  auto it = labels.find(first);
  if (it != labels.end()) return it->second;  // present (even empty) wins
  it = labels.find(second);
  return it == labels.end() ? "" : it->second;
}

}  // namespace

std::string ZoneKey(const k8s::Node& node) {
  std::string zone =
      LabelOr(node, "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone");
  std::string region =
      LabelOr(node, "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region");
  if (zone.empty() && region.empty()) return "";
  return region + std::string(":\x00:", 3) + zone;
}

void NodeTree::AddNode(const k8s::Node& node) {
  std::string zone = ZoneKey(node);
  auto it = tree_.find(zone);
  if (it == tree_.end()) {
    zones_.push_back(zone);
    it = tree_.emplace(zone, std::vector<std::string>{}).first;
  }
  if (!members_.insert(node.metadata().name()).second) return;  // already in the tree
  it->second.push_back(node.metadata().name());
  ++num_nodes_;
}

void NodeTree::RemoveNode(const k8s::Node& node) {
  std::string zone = ZoneKey(node);
  auto it = tree_.find(zone);
  if (it == tree_.end()) return;
  std::vector<std::string>& names = it->second;
  auto pos = std::find(names.begin(), names.end(), node.metadata().name());
  if (pos == names.end()) return;
  names.erase(pos);
  members_.erase(node.metadata().name());
  --num_nodes_;
  if (names.empty()) {
    tree_.erase(it);
    zones_.erase(std::find(zones_.begin(), zones_.end(), zone));
  }
}

void NodeTree::UpdateNode(const k8s::Node& old_node, const k8s::Node& new_node) {
  if (ZoneKey(old_node) == ZoneKey(new_node)) return;
  RemoveNode(old_node);
  AddNode(new_node);
}

std::vector<std::string> NodeTree::List() const {
  std::vector<std::string> out;
  out.reserve(num_nodes_);
  for (size_t index = 0; out.size() < num_nodes_; ++index) {
    for (const std::string& zone : zones_) {
      const std::vector<std::string>& names = tree_.at(zone);
      if (index < names.size()) out.push_back(names[index]);
    }
  }
  return out;
}

}  // namespace schedcheck::reference
