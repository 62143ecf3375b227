#include "reference/framework/snapshot.h"

namespace schedcheck::reference {

void Snapshot::Reset(std::vector<std::shared_ptr<const NodeInfo>> ordered) {
  owned_ = std::move(ordered);
  list_.clear();
  with_affinity_.clear();
  with_required_anti_affinity_.clear();
  by_name_.clear();
  for (const auto& info : owned_) {
    list_.push_back(info.get());
    if (!info->pods_with_affinity().empty()) with_affinity_.push_back(info.get());
    if (!info->pods_with_required_anti_affinity().empty()) {
      with_required_anti_affinity_.push_back(info.get());
    }
    by_name_[info->name()] = info.get();
  }
}

const NodeInfo* Snapshot::Get(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

}  // namespace schedcheck::reference
