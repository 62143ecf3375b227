// NodeVolumeLimits for the fast engine, at both levels (the v1.27 plugin and v1.37's with its
// PreFilter): the plain rule (plugins/node_volume_limits) with a batch Filter that
//   - resolves the pod's volumes once per batch for each distinct set of migrated in-tree
//     plugins among the nodes (the plain Filter resolves them, claim and volume by name, on every
//     node), and
//   - keeps per node, across cycles, its CSINode, its limits and the volumes its pods attach,
//     counted by limit key, under the invalidation rule of node_storage.h (the plain Filter
//     resolves every pod of every node again).
// What is left per node is a few comparisons of the pod's volumes with the node's.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NODE_VOLUME_LIMITS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NODE_VOLUME_LIMITS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/node_volume_limits/node_storage.h"
#include "reference/plugins/node_volume_limits/node_volume_limits.h"

namespace schedcheck::reference {

template <typename Plain>
class FastNodeVolumeLimitsOf final : public Plain, public BatchFilterPlugin {
 public:
  using Plain::Plain;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;

 private:
  // Sorted by the first member.
  using Counts = std::vector<std::pair<std::string, int64_t>>;
  using Volumes = std::vector<std::pair<std::string, std::string>>;  // unique name -> key

  struct NodeEntry {
    int64_t generation = -1;
    NodeCsi csi;
    Counts limits;  // VolumeLimits
    // The volumes the node's pods attach (AttachableVolumes of each, new_pod false), valid
    // while `attached_stamp` holds; `attached_error` is the first pod's error.
    bool attached_known = false;
    StorageStamp attached_stamp;
    Status attached_error;
    Volumes attached;
    Counts attached_count;  // per key
  };
  // The pod's volumes on nodes whose migration bits are `migrated`.
  struct PodVolumes {
    uint32_t migrated = 0;
    Status error;     // what Filter returns for them (Success: `volumes` are right)
    Volumes volumes;  // AttachableVolumes of the pod, new_pod true
    // VolumeLimitScaling: per volume, whether its driver must be listed by the node's CSINode.
    std::vector<char> driver_required;
  };

  NodeEntry& Refresh(const NodeInfo& node, const ClusterObjects& objects);
  void FillAttached(const NodeInfo& node, const ClusterObjects& objects, NodeEntry* e) const;
  const PodVolumes& ForMigrated(const Pod& pod, const NodeCsi& csi);
  // Filter's verdict on a node whose entry and pod volumes are known.
  Status Check(const PodVolumes& pod, const NodeEntry& node) const;

  NodeEntries<NodeEntry> nodes_;
  std::vector<PodVolumes> batch_;  // this batch's pod volumes, one per migration bits seen
  std::vector<std::pair<std::string_view, int64_t>> new_count_;  // per node, reused
};

struct FastNodeVolumeLimits {
  // The level's plain plugin (arguments checked by the plain factory) with the batch Filter.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NODE_VOLUME_LIMITS_H_
