#include "reference/queue/pod_heap.h"

namespace schedcheck::reference {

const QueuedPodInfo* PodHeap::Get(const std::string& key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second.get();
}

void PodHeap::AddOrUpdate(QueuedPodInfo info) {
  const std::string key = info.pod().key;
  auto it = items_.find(key);
  if (it != items_.end()) {
    // The set is ordered by the entry's fields: take it out before changing them.
    order_.erase(it->second.get());
    *it->second = std::move(info);
    order_.insert(it->second.get());
    return;
  }
  auto owned = std::make_unique<QueuedPodInfo>(std::move(info));
  order_.insert(owned.get());
  items_.emplace(key, std::move(owned));
}

std::optional<QueuedPodInfo> PodHeap::Delete(const std::string& key) {
  auto it = items_.find(key);
  if (it == items_.end()) return std::nullopt;
  order_.erase(it->second.get());
  QueuedPodInfo out = std::move(*it->second);
  items_.erase(it);
  return out;
}

std::optional<QueuedPodInfo> PodHeap::Pop() {
  if (order_.empty()) return std::nullopt;
  return Delete((*order_.begin())->pod().key);
}

}  // namespace schedcheck::reference
