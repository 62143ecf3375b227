// The in-tree attach-limit plugins of v1.27 (EBSLimits, GCEPDLimits, AzureDiskLimits) for the fast
// engine: the plain rule (plugins/node_volume_limits, NonCSILimits) with a batch Filter that
// resolves the pod's volumes of the plugin's kind once per batch, and keeps per node, across
// cycles, whether the kind migrated there, the node's limit and the volume IDs its pods use,
// under the invalidation rule of node_storage.h. The plain Filter resolves the pod's and every
// node pod's claims and volumes by name on every node.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NON_CSI_LIMITS_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NON_CSI_LIMITS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/node_volume_limits/node_storage.h"
#include "reference/plugins/node_volume_limits/node_volume_limits.h"

namespace schedcheck::reference {

// Plain: EBSLimits, GCEPDLimits or AzureDiskLimits.
template <typename Plain>
class FastNonCSILimitsOf final : public Plain, public BatchFilterPlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  using Plain::Plain;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;

 private:
  struct NodeEntry {
    int64_t generation = -1;
    NodeCsi csi;
    bool migrated = false;    // IsCsiMigrationOn for the kind's plugin
    int64_t max_volumes = 0;  // MaxVolumesOn
    // The volume IDs of this kind the node's pods use (FilterVolumes, new_pod false), sorted,
    // valid while `used_stamp` holds; `used_error` is the first pod's error.
    bool used_known = false;
    StorageStamp used_stamp;
    Status used_error;
    std::vector<std::string> used;
  };
  NodeEntry& Refresh(const NodeInfo& node, const ClusterObjects& objects);

  NodeEntries<NodeEntry> nodes_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_VOLUME_LIMITS_FAST_NON_CSI_LIMITS_H_
