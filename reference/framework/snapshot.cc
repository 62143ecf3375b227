#include "reference/framework/snapshot.h"

namespace schedcheck::reference {

void Snapshot::Reset(std::vector<std::shared_ptr<const NodeInfo>> ordered) {
  owned_ = std::move(ordered);
  epoch_.Renew();
  changed_.clear();
  list_.clear();
  index_.clear();
  for (size_t i = 0; i < owned_.size(); ++i) {
    list_.push_back(owned_[i].get());
    index_[owned_[i]->name()] = i;
  }
  uint32_t rank = 0;
  auto names = std::make_shared<std::vector<std::string>>();
  names->reserve(index_.size());
  ranks_.assign(list_.size(), 0);
  for (const auto& [name, i] : index_) {  // index_ is in name order
    ranks_[i] = rank;
    list_[i]->set_name_rank(rank++);
    names->push_back(name);
  }
  names_by_rank_ = std::move(names);
  RebuildAffinityLists();
}

bool Snapshot::Replace(std::shared_ptr<const NodeInfo> info) {
  auto it = index_.find(info->name());
  if (it == index_.end()) return false;
  const NodeInfo* old = list_[it->second];
  info->set_name_rank(old->name_rank());
  bool lists_change = old->pods_with_affinity().empty() != info->pods_with_affinity().empty() ||
                      old->pods_with_required_anti_affinity().empty() !=
                          info->pods_with_required_anti_affinity().empty();
  list_[it->second] = info.get();
  owned_[it->second] = std::move(info);
  if (changed_.size() >= 4 * list_.size() + 1024) {
    epoch_.Renew();
    changed_.clear();
  } else {
    changed_.push_back(static_cast<uint32_t>(it->second));
  }
  if (lists_change) {
    RebuildAffinityLists();
  } else {
    // Same membership: only the pointers to this node change.
    for (auto* list : {&with_affinity_, &with_required_anti_affinity_}) {
      for (const NodeInfo*& p : *list) {
        if (p == old) p = list_[it->second];
      }
    }
  }
  return true;
}

void Snapshot::RebuildAffinityLists() {
  with_affinity_.clear();
  with_required_anti_affinity_.clear();
  for (const NodeInfo* info : list_) {
    if (!info->pods_with_affinity().empty()) with_affinity_.push_back(info);
    if (!info->pods_with_required_anti_affinity().empty())
      with_required_anti_affinity_.push_back(info);
  }
}

bool Snapshot::ChangedSince(Version since, std::span<const uint32_t>* positions) const {
  if (since.epoch != epoch_.id() || since.changes > changed_.size()) return false;
  *positions = std::span<const uint32_t>(changed_).subspan(since.changes);
  return true;
}

const NodeInfo* Snapshot::Get(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : list_[it->second];
}

}  // namespace schedcheck::reference
