#include "reference/framework/pod_group_state.h"

namespace schedcheck::reference {

std::vector<PodPtr> PodGroupState::UnscheduledPods() const {
  std::vector<PodPtr> pods;
  for (const std::string& uid : unscheduled) pods.push_back(all_pods.at(uid));
  return pods;
}

std::vector<std::string> PodGroupState::AssumedPods() const {
  std::vector<std::string> uids;
  for (const auto& [uid, pod] : assumed) uids.push_back(uid);
  return uids;
}

std::string_view SchedulingGroupName(const Pod& pod) {
  if (!pod.obj.spec().has_scheduling_group()) return {};
  return pod.obj.spec().scheduling_group().pod_group_name();
}

std::string PodGroupKey(std::string_view ns, std::string_view name) {
  std::string key(ns);
  key.append("/").append(name);
  return key;
}

std::optional<int> GangMinCount(const k8s::PodGroup& group) {
  if (!group.spec().scheduling_policy().has_gang()) return std::nullopt;
  return group.spec().scheduling_policy().gang().min_count();
}

const PodGroupState* PodGroupStates::GetState(std::string_view ns, std::string_view name) const {
  auto it = states_.find(PodGroupKey(ns, name));
  return it == states_.end() ? nullptr : &it->second;
}

const k8s::PodGroup* PodGroupStates::GetPodGroup(std::string_view ns, std::string_view name) const {
  const PodGroupState* state = GetState(ns, name);
  return state == nullptr || !state->pod_group ? nullptr : &*state->pod_group;
}

void PodGroupStates::AddPodGroup(const k8s::PodGroup& group) {
  states_[PodGroupKey(group.metadata().namespace_(), group.metadata().name())].pod_group = group;
}

void PodGroupStates::DeletePodGroup(std::string_view ns, std::string_view name) {
  const std::string key = PodGroupKey(ns, name);
  auto it = states_.find(key);
  if (it == states_.end()) return;
  it->second.pod_group.reset();
  EraseIfEmpty(key);
}

PodGroupState* PodGroupStates::Find(const Pod& pod) {
  auto it = states_.find(PodGroupKey(pod.obj.metadata().namespace_(), SchedulingGroupName(pod)));
  return it == states_.end() ? nullptr : &it->second;
}

void PodGroupStates::EraseIfEmpty(const std::string& key) {
  auto it = states_.find(key);
  if (it != states_.end() && it->second.all_pods.empty() && !it->second.pod_group) {
    states_.erase(it);
  }
}

void PodGroupStates::AddPod(const PodPtr& pod) {
  if (SchedulingGroupName(*pod).empty()) return;
  PodGroupState& s =
      states_[PodGroupKey(pod->obj.metadata().namespace_(), SchedulingGroupName(*pod))];
  s.all_pods[pod->uid()] = pod;
  if (!pod->node_name().empty()) {
    s.assigned.insert(pod->uid());
    s.unscheduled.erase(pod->uid());
    s.assumed.erase(pod->uid());
  } else {
    s.unscheduled.insert(pod->uid());
  }
}

void PodGroupStates::UpdatePod(const PodPtr& old_pod, const PodPtr& new_pod) {
  PodGroupState* s = Find(*new_pod);
  if (s == nullptr) return;
  s->all_pods[new_pod->uid()] = new_pod;
  if (old_pod->node_name().empty() && !new_pod->node_name().empty()) {
    s->assigned.insert(new_pod->uid());
    s->unscheduled.erase(new_pod->uid());
    s->assumed.erase(new_pod->uid());
  }
}

void PodGroupStates::DeletePod(const Pod& pod) {
  PodGroupState* s = Find(pod);
  if (s == nullptr) return;
  s->all_pods.erase(pod.uid());
  s->unscheduled.erase(pod.uid());
  s->assumed.erase(pod.uid());
  s->assigned.erase(pod.uid());
  EraseIfEmpty(PodGroupKey(pod.obj.metadata().namespace_(), SchedulingGroupName(pod)));
}

void PodGroupStates::AssumePod(const PodPtr& pod) {
  PodGroupState* s = Find(*pod);
  // A pod being scheduled may have been deleted meanwhile: ignored, as upstream.
  if (s == nullptr || s->all_pods.count(pod->uid()) == 0) return;
  if (!s->all_pods.at(pod->uid())->node_name().empty()) {
    s->assigned.insert(pod->uid());
  } else {
    s->assumed[pod->uid()] = pod;
  }
  s->unscheduled.erase(pod->uid());
}

void PodGroupStates::ForgetPod(const Pod& pod) {
  PodGroupState* s = Find(pod);
  if (s == nullptr || s->all_pods.count(pod.uid()) == 0) return;
  s->assumed.erase(pod.uid());
  if (!s->all_pods.at(pod.uid())->node_name().empty()) {
    s->assigned.insert(pod.uid());
  } else {
    s->unscheduled.insert(pod.uid());
  }
}

}  // namespace schedcheck::reference
