#include "reference/accel/inter_pod_affinity/contribution_cache.h"

namespace schedcheck::reference::interpodaffinity::fast {

std::shared_ptr<ContributionCache::Table> ContributionCache::For(const std::string& key) {
  auto it = tables_.find(key);
  if (it != tables_.end()) return it->second;
  if (tables_.size() >= kMaxTables) tables_.clear();
  auto table = std::make_shared<Table>();
  tables_.emplace(key, table);
  return table;
}

}  // namespace schedcheck::reference::interpodaffinity::fast
