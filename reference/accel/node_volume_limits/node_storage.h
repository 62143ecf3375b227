// What the fast forms of the attach-limit plugins (NodeVolumeLimits, the in-tree EBSLimits,
// GCEPDLimits and AzureDiskLimits) remember per node across cycles, and the rule that says when a
// remembered result still holds.
//
// A result read from a node and the storage objects stays right while
//   - the NodeInfo's generation is the same (its node and its pods are), and
//   - the storage maps it read have the change counts it was read under
//     (ClusterObjects::ChangeCount): no update or delete since, and no add either when one of its
//     look-ups found nothing (an add may be the object it missed).
// Adds alone do not invalidate a result whose look-ups all found their object: the
// scheduler_perf volume shapes add a claim and a volume for every pod, and the nodes' results
// then live on.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_NODE_STORAGE_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_NODE_STORAGE_H_

#include <cstdint>

#include "reference/framework/handle.h"
#include "reference/framework/node_info.h"

namespace schedcheck::reference {

// The change counts a result was read under.
class StorageStamp {
 public:
  StorageStamp() = default;
  // `found_all`: every look-up of the result found its object.
  StorageStamp(const ClusterObjects& objects, const ClusterObjects::ChangeCount& counts,
               bool found_all)
      : objects_(&objects), counts_(counts), found_all_(found_all) {}
  // `counts` are `objects`' counts of the same maps as at construction.
  bool Holds(const ClusterObjects& objects, const ClusterObjects::ChangeCount& counts) const {
    return objects_ == &objects && counts_.updates == counts.updates &&
           (found_all_ || counts_.adds == counts.adds);
  }

 private:
  const ClusterObjects* objects_ = nullptr;  // null: never read
  ClusterObjects::ChangeCount counts_;
  bool found_all_ = false;
};

// A node's CSINode and what csi_translation::IsCsiMigrationOn answers for it.
struct NodeCsi {
  const k8s::CSINode* csi_node = nullptr;  // null: the node has none
  // Bit i: IsCsiMigrationOn(csi_node, MigratableInTreePlugins()[i]). The attach-limit plugins read
  // a CSINode only through IsCsiMigrationOn (besides its drivers' limits), so two nodes with the
  // same bits resolve a pod's volumes alike.
  uint32_t migrated = 0;
  StorageStamp stamp;  // of objects.csi_node_changes
};
NodeCsi ReadNodeCsi(const ClusterObjects& objects, const Node& node, const Features& features);

// Whether every claim, PersistentVolume and StorageClass that the attach-limit plugins may look
// up for `pod`'s volumes exists (a claim, the volume it names, the class of a claim without a
// volume). False is the safe answer: it only makes a result depend on adds.
bool FindsAllVolumeObjects(const Pod& pod, const ClusterObjects& objects);

// A per-node entry by name rank, as NodeMemo keeps them (node_memo.h): `Entry` has a member
// `int64_t generation`, -1 when never filled.
template <typename Entry>
class NodeEntries {
 public:
  // The node's entry, cleared to Entry{} with the node's generation when it held another
  // generation (or another node). `*fresh` tells which.
  Entry& For(const NodeInfo& node, bool* fresh) {
    const uint32_t rank = node.name_rank();
    if (rank >= entries_.size()) entries_.resize(rank + 1);
    Entry& e = entries_[rank];
    *fresh = e.generation != node.generation() || node.generation() == 0;
    if (*fresh) {
      e = Entry{};
      e.generation = node.generation();
    }
    return e;
  }

 private:
  std::vector<Entry> entries_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_NODE_STORAGE_H_
