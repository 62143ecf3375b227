#include "reference/cache/cache.h"

namespace schedcheck::reference {

NodeInfo& Cache::Mutable(const std::string& node_name) {
  dirty_.insert(node_name);
  std::shared_ptr<NodeInfo>& slot = nodes_[node_name];
  if (!slot) {
    slot = std::make_shared<NodeInfo>();
  } else if (slot.use_count() > 1) {
    slot = std::make_shared<NodeInfo>(*slot);  // a snapshot still reads the old one
  }
  return *slot;
}

void Cache::AddNodeImageStates(const Node& node, NodeInfo& info) {
  std::map<std::string, ImageStateSummary> summaries;
  for (const k8s::ContainerImage& image : node.obj.status().images()) {
    for (const std::string& name : image.names()) {
      auto [it, inserted] = image_states_.try_emplace(name);
      if (inserted) it->second.size = image.size_bytes();
      it->second.nodes.insert(node.name());
      // The count is taken now and not refreshed when other nodes change (v1.27 behaviour; at
      // v1.37 UpdateSnapshot refreshes it whenever this node changes).
      summaries.try_emplace(
          name, ImageStateSummary{it->second.size, static_cast<int>(it->second.nodes.size())});
    }
  }
  info.image_states() = std::move(summaries);
}

void Cache::RemoveNodeImageStates(const Node& node) {
  for (const k8s::ContainerImage& image : node.obj.status().images()) {
    for (const std::string& name : image.names()) {
      auto it = image_states_.find(name);
      if (it == image_states_.end()) continue;
      it->second.nodes.erase(node.name());
      if (it->second.nodes.empty()) image_states_.erase(it);
    }
  }
}

Outcome Cache::AddNode(NodePtr node) {
  auto it = nodes_.find(node->name());
  if (it != nodes_.end() && it->second->node() != nullptr) {
    return Error{"node \"" + node->name() + "\" already exists"};
  }
  NodeInfo& info = Mutable(node->name());
  tree_.AddNode(node->obj);
  AddNodeImageStates(*node, info);
  info.SetNode(std::move(node));
  order_changed_ = true;
  return Outcome::Ok();
}

Outcome Cache::UpdateNode(NodePtr node) {
  auto it = nodes_.find(node->name());
  if (it == nodes_.end() || it->second->node() == nullptr) {
    // Upstream treats an update of an unknown node as an add.
    return AddNode(std::move(node));
  }
  NodeInfo& info = Mutable(node->name());
  const Node& old = *info.node();
  tree_.UpdateNode(old.obj, node->obj);
  RemoveNodeImageStates(old);
  AddNodeImageStates(*node, info);
  info.SetNode(std::move(node));
  return Outcome::Ok();
}

Outcome Cache::RemoveNode(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end() || it->second->node() == nullptr)
    return Error{"node \"" + name + "\" not found"};
  NodePtr old = it->second->node_ptr();
  tree_.RemoveNode(old->obj);
  RemoveNodeImageStates(*old);
  if (it->second->pods().empty()) {
    nodes_.erase(it);
  } else {
    Mutable(name).RemoveNode();  // ghost: keeps its pods until they are deleted
  }
  order_changed_ = true;
  return Outcome::Ok();
}

void Cache::AddPodToNode(const PodPtr& pod) { Mutable(pod->node_name()).AddPod(MakePodInfo(pod)); }

void Cache::RemovePodFromNode(const Pod& pod) {
  auto it = nodes_.find(pod.node_name());
  if (it == nodes_.end()) return;
  NodeInfo& info = Mutable(pod.node_name());
  info.RemovePod(pod);
  if (info.pods().empty() && info.node() == nullptr) nodes_.erase(pod.node_name());
}

Outcome Cache::AddPod(PodPtr pod) {
  auto it = pods_.find(pod->uid());
  if (it != pods_.end() && !it->second.assumed)
    return Error{"pod " + pod->key + " already in the cache"};
  if (it != pods_.end()) {
    // Confirmation of an assumed pod; the API may have bound it elsewhere.
    RemovePodFromNode(*it->second.pod);
  }
  AddPodToNode(pod);
  pods_[pod->uid()] = PodState{pod, false, false};
  return Outcome::Ok();
}

Outcome Cache::UpdatePod(PodPtr new_pod) {
  auto it = pods_.find(new_pod->uid());
  if (it == pods_.end() || it->second.assumed) {
    return Error{"pod " + new_pod->key + " is not an added pod of the cache"};
  }
  RemovePodFromNode(*it->second.pod);
  AddPodToNode(new_pod);
  it->second.pod = std::move(new_pod);
  return Outcome::Ok();
}

Outcome Cache::RemovePod(const Pod& pod) {
  auto it = pods_.find(pod.uid());
  if (it == pods_.end()) return Error{"pod " + pod.key + " not found in the cache"};
  RemovePodFromNode(*it->second.pod);
  pods_.erase(it);
  return Outcome::Ok();
}

Outcome Cache::AssumePod(PodPtr pod) {
  if (pod->node_name().empty()) return Error{"assume of pod " + pod->key + " without a node"};
  if (pods_.count(pod->uid()))
    return Error{"pod " + pod->key + " is in the cache, so can't be assumed"};
  AddPodToNode(pod);
  pods_[pod->uid()] = PodState{pod, true, false};
  pod_groups_.AssumePod(pod);
  return Outcome::Ok();
}

Outcome Cache::FinishBinding(const Pod& pod) {
  auto it = pods_.find(pod.uid());
  if (it == pods_.end() || !it->second.assumed) return Error{"pod " + pod.key + " is not assumed"};
  it->second.binding_finished = true;
  return Outcome::Ok();
}

Outcome Cache::ForgetPod(const Pod& pod) {
  auto it = pods_.find(pod.uid());
  if (it == pods_.end() || !it->second.assumed)
    return Error{"pod " + pod.key + " is not assumed, so can't be forgotten"};
  pod_groups_.ForgetPod(*it->second.pod);
  RemovePodFromNode(*it->second.pod);
  pods_.erase(it);
  return Outcome::Ok();
}

bool Cache::IsAssumedPod(const std::string& uid) const {
  auto it = pods_.find(uid);
  return it != pods_.end() && it->second.assumed;
}

PodPtr Cache::GetPod(const std::string& uid) const {
  auto it = pods_.find(uid);
  return it == pods_.end() ? nullptr : it->second.pod;
}

const NodeInfo* Cache::GetNodeInfo(const std::string& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() || it->second->node() == nullptr ? nullptr : it->second.get();
}

void Cache::UpdateSnapshot(Snapshot* snapshot) {
  if (refreshes_image_counts_) {
    // The changed nodes are copied into the snapshot now: their image counts are today's.
    for (const std::string& name : dirty_) {
      auto it = nodes_.find(name);
      if (it == nodes_.end()) continue;
      for (auto& [image, summary] : it->second->image_states()) {
        auto state = image_states_.find(image);
        summary.num_nodes = state == image_states_.end() ? 0 : state->second.nodes.size();
      }
    }
  }
  // The order comes from the node tree, refreshed only when nodes were added or removed: a
  // zone-label change alone keeps the previous order until then (upstream quirk,
  // docs/SEMANTICS.md#node-order-cache-and-snapshot).
  bool rebuild = order_changed_ || snapshot->size() != snapshot_order_.size();
  if (order_changed_) {
    snapshot_order_ = tree_.List();
    order_changed_ = false;
  }
  if (rebuild) {
    std::vector<std::shared_ptr<const NodeInfo>> infos;
    infos.reserve(snapshot_order_.size());
    for (const std::string& name : snapshot_order_) infos.push_back(nodes_.at(name));
    snapshot->Reset(std::move(infos));
  } else {
    for (const std::string& name : dirty_) {
      auto it = nodes_.find(name);
      if (it != nodes_.end() && it->second->node() != nullptr) snapshot->Replace(it->second);
    }
  }
  dirty_.clear();
}

}  // namespace schedcheck::reference
