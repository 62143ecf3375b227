#include "reference/framework/node_info.h"

#include <algorithm>
#include <cstdint>

#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace {

// Removes the entry with `uid` by moving the last element into its slot.
bool SwapRemove(std::vector<PodInfoPtr>& pods, const std::string& uid) {
  for (size_t i = 0; i < pods.size(); ++i) {
    if (pods[i]->pod->uid() == uid) {
      pods[i] = std::move(pods.back());
      pods.pop_back();
      return true;
    }
  }
  return false;
}

}  // namespace

// Deliberately not thread-safe: the reference scheduler is single threaded.
int64_t NextGeneration() {
  static int64_t generation = 0;
  return ++generation;
}

void HostPortInfo::Add(const HostPort& port) {
  if (port.port <= 0) return;
  ports_[port.host_ip].insert({port.protocol, port.port});
}

void HostPortInfo::Remove(const HostPort& port) {
  if (port.port <= 0) return;
  auto it = ports_.find(port.host_ip);
  if (it == ports_.end()) return;
  it->second.erase({port.protocol, port.port});
  if (it->second.empty()) ports_.erase(it);
}

bool HostPortInfo::CheckConflict(const HostPort& port) const {
  if (port.port <= 0) return false;
  std::pair<std::string, int32_t> key{port.protocol, port.port};
  if (port.host_ip == "0.0.0.0") {
    for (const auto& [ip, set] : ports_) {
      if (set.count(key)) return true;
    }
    return false;
  }
  for (const std::string& ip : {port.host_ip, std::string("0.0.0.0")}) {
    auto it = ports_.find(ip);
    if (it != ports_.end() && it->second.count(key)) return true;
  }
  return false;
}

size_t HostPortInfo::size() const {
  size_t n = 0;
  for (const auto& [ip, set] : ports_) n += set.size();
  return n;
}

void NodeInfo::SetNode(NodePtr node) {
  node_ = std::move(node);
  name_ = node_ ? node_->name() : std::string();
  allocatable_ = node_ ? node_->allocatable : Resource();
  unschedulable_ = node_ && node_->obj.spec().unschedulable();
  has_taints_ = node_ && node_->obj.spec().taints_size() > 0;
  generation_ = NextGeneration();
}

void NodeInfo::UpdateAggregates(const Pod& pod, int sign) {
  Resource delta = pod.requests;
  if (sign > 0) {
    requested_.Add(delta);
  } else {
    requested_.Subtract(delta);
  }
  non_zero_requested_.milli_cpu =
      sign > 0 ? GoAdd(non_zero_requested_.milli_cpu, pod.non_zero_milli_cpu)
               : GoSub(non_zero_requested_.milli_cpu, pod.non_zero_milli_cpu);
  non_zero_requested_.memory = sign > 0 ? GoAdd(non_zero_requested_.memory, pod.non_zero_memory)
                                        : GoSub(non_zero_requested_.memory, pod.non_zero_memory);
  for (const HostPort& p : pod.container_ports) {
    if (sign > 0) {
      used_ports_.Add(p);
    } else {
      used_ports_.Remove(p);
    }
  }
  generation_ = NextGeneration();
}

void NodeInfo::AddPod(PodInfoPtr info) {
  const Pod& pod = *info->pod;
  if (pod.HasAffinity()) pods_with_affinity_.push_back(info);
  if (pod.HasRequiredAntiAffinity()) pods_with_required_anti_affinity_.push_back(info);
  pods_.push_back(info);
  lowest_pod_priority_ = std::min(lowest_pod_priority_, pod.priority);
  UpdateAggregates(pod, +1);
}

bool NodeInfo::RemovePod(const Pod& pod) {
  // Subtract what was added: the stored copy, which may differ from `pod` after an update.
  auto it = std::find_if(pods_.begin(), pods_.end(),
                         [&](const PodInfoPtr& p) { return p->pod->uid() == pod.uid(); });
  if (it == pods_.end()) return false;
  PodPtr stored = (*it)->pod;
  SwapRemove(pods_, pod.uid());
  SwapRemove(pods_with_affinity_, pod.uid());
  SwapRemove(pods_with_required_anti_affinity_, pod.uid());
  if (stored->priority == lowest_pod_priority_) {
    lowest_pod_priority_ = INT32_MAX;
    for (const PodInfoPtr& p : pods_)
      lowest_pod_priority_ = std::min(lowest_pod_priority_, p->pod->priority);
  }
  UpdateAggregates(*stored, -1);
  return true;
}

bool NodeInfo::HasPod(const std::string& uid) const {
  return std::any_of(pods_.begin(), pods_.end(),
                     [&](const PodInfoPtr& p) { return p->pod->uid() == uid; });
}

}  // namespace schedcheck::reference
