// Snapshot: the immutable view of the cluster that one scheduling cycle reads (internal/cache
// snapshot.go). Node order is the cache's zone-interleaved node tree order.
#ifndef SCHEDCHECK_REFERENCE_FRAMEWORK_SNAPSHOT_H_
#define SCHEDCHECK_REFERENCE_FRAMEWORK_SNAPSHOT_H_

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/framework/node_info.h"

namespace schedcheck::reference {

class Snapshot {
 public:
  Snapshot() = default;
  // REQUIRES: node names are unique; every NodeInfo has a node.
  explicit Snapshot(std::vector<std::shared_ptr<const NodeInfo>> ordered) {
    Reset(std::move(ordered));
  }

  void Reset(std::vector<std::shared_ptr<const NodeInfo>> ordered);
  // Swaps in a newer version of a node already in the snapshot (same name, same position).
  // Returns false when the node is not in the snapshot.
  bool Replace(std::shared_ptr<const NodeInfo> info);

  // Where the snapshot stands in its change log: an epoch (globally unique, new at every Reset)
  // and the number of Replace calls since. Callers that keep per-node results across cycles
  // remember it and later ask ChangedSince for the positions to redo.
  struct Version {
    int64_t epoch = -1;
    size_t changes = 0;
  };
  Version version() const { return {epoch_.id(), changed_.size()}; }
  // The positions in node_infos() replaced since `since` (a position may repeat), or false when
  // `since` comes from another epoch: another snapshot, or this one before a Reset.
  bool ChangedSince(Version since, std::span<const uint32_t>* positions) const;

  const std::vector<const NodeInfo*>& node_infos() const { return list_; }
  // node_infos()[i]->name_rank() for every position i, kept apart so that loops over many nodes
  // can have the ranks without touching the NodeInfos.
  const std::vector<uint32_t>& ranks_by_position() const { return ranks_; }
  const std::vector<const NodeInfo*>& have_pods_with_affinity() const { return with_affinity_; }
  const std::vector<const NodeInfo*>& have_pods_with_required_anti_affinity() const {
    return with_required_anti_affinity_;
  }
  // Null when the node is not in the snapshot.
  const NodeInfo* Get(std::string_view name) const;
  size_t size() const { return list_.size(); }
  // Node names in name order: names_by_rank()[info->name_rank()] == info->name(). Shared and
  // immutable, so results that name nodes by rank outlive later snapshot changes.
  const std::shared_ptr<const std::vector<std::string>>& names_by_rank() const {
    return names_by_rank_;
  }

 private:
  void RebuildAffinityLists();

  // An epoch id no other snapshot shares, not even a copy: a copy goes on changing apart from
  // the original, so a position in one's log means nothing in the other's. A moved-from
  // snapshot takes a fresh one.
  class Epoch {
   public:
    Epoch() : id_(NextGeneration()) {}
    Epoch(const Epoch&) : id_(NextGeneration()) {}
    Epoch(Epoch&& other) noexcept : id_(other.id_) { other.Renew(); }
    Epoch& operator=(const Epoch&) {
      Renew();
      return *this;
    }
    Epoch& operator=(Epoch&& other) noexcept {
      id_ = other.id_;
      other.Renew();
      return *this;
    }
    void Renew() { id_ = NextGeneration(); }
    int64_t id() const { return id_; }

   private:
    int64_t id_;
  };

  // The change log: every snapshot starts its own epoch; the log restarts one when it grows far
  // beyond the node count (callers then redo every node once).
  Epoch epoch_;
  std::vector<uint32_t> changed_;

  std::vector<std::shared_ptr<const NodeInfo>> owned_;
  std::vector<const NodeInfo*> list_;
  std::vector<uint32_t> ranks_;
  std::vector<const NodeInfo*> with_affinity_;
  std::vector<const NodeInfo*> with_required_anti_affinity_;
  std::map<std::string, size_t, std::less<>> index_;
  std::shared_ptr<const std::vector<std::string>> names_by_rank_ =
      std::make_shared<std::vector<std::string>>();
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_FRAMEWORK_SNAPSHOT_H_
