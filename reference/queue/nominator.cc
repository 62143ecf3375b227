#include "reference/queue/nominator.h"

namespace schedcheck::reference {

void Nominator::AddNominatedPod(PodInfoPtr info, const std::optional<NominatingInfo>& nominating) {
  const Pod& pod = *info->pod;
  // Never store two instances of one pod.
  Delete(pod.uid());
  std::string node;
  if (nominating && nominating->mode == NominatingInfo::Mode::kOverride) {
    node = nominating->nominated_node_name;
  } else {
    node = pod.obj.status().nominated_node_name();
    if (node.empty()) return;
  }
  if (current_pod_) {
    // A pod that was deleted or already bound is not nominated.
    PodPtr current = current_pod_(pod.key);
    if (!current || !current->node_name().empty()) return;
  }
  pod_to_node_[pod.uid()] = node;
  std::vector<PodInfoPtr>& list = nominated_pods_[node];
  for (const PodInfoPtr& p : list) {
    if (p->pod->uid() == pod.uid()) return;
  }
  list.push_back(std::move(info));
}

void Nominator::Delete(const std::string& uid) {
  auto it = pod_to_node_.find(uid);
  if (it == pod_to_node_.end()) return;
  auto list_it = nominated_pods_.find(it->second);
  if (list_it != nominated_pods_.end()) {
    std::vector<PodInfoPtr>& list = list_it->second;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i]->pod->uid() == uid) {
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    if (list.empty()) nominated_pods_.erase(list_it);
  }
  pod_to_node_.erase(it);
}

void Nominator::DeleteNominatedPodIfExists(const Pod& pod) { Delete(pod.uid()); }

void Nominator::UpdateNominatedPod(const Pod& old_pod, PodInfoPtr new_info) {
  // An update that carries no nominatedNodeName on either side (e.g. it raced with the status
  // patch of a fresh preemption) must not drop the nomination held in memory. Any update that
  // adds, changes or removes the field re-derives it from the new object.
  std::optional<NominatingInfo> nominating;
  if (old_pod.obj.status().nominated_node_name().empty() &&
      new_info->pod->obj.status().nominated_node_name().empty()) {
    if (auto it = pod_to_node_.find(old_pod.uid()); it != pod_to_node_.end()) {
      nominating = NominatingInfo{NominatingInfo::Mode::kOverride, it->second};
    }
  }
  Delete(old_pod.uid());
  AddNominatedPod(std::move(new_info), nominating);
}

std::vector<PodInfoPtr> Nominator::NominatedPodsForNode(const std::string& node) const {
  auto it = nominated_pods_.find(node);
  return it == nominated_pods_.end() ? std::vector<PodInfoPtr>{} : it->second;
}

bool Nominator::ListNominatedNodes(std::vector<std::string>* names) const {
  for (const auto& [node, pods] : nominated_pods_) {
    if (!pods.empty()) names->push_back(node);
  }
  return true;
}

std::optional<std::string> Nominator::NominatedNodeFor(const std::string& uid) const {
  auto it = pod_to_node_.find(uid);
  if (it == pod_to_node_.end()) return std::nullopt;
  return it->second;
}

}  // namespace schedcheck::reference
