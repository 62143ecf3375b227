#include "reference/accel/node_volume_limits/fast_non_csi_limits.h"

#include <algorithm>
#include <set>

#include "reference/plugins/node_volume_limits/csi_translation.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {

template <typename Plain>
Result<std::unique_ptr<Plugin>> FastNonCSILimitsOf<Plain>::New(const PluginArgs& args,
                                                               const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = Plain::New(args, handle);  // checks the arguments
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastNonCSILimitsOf<Plain>>(handle));
}

template <typename Plain>
typename FastNonCSILimitsOf<Plain>::NodeEntry& FastNonCSILimitsOf<Plain>::Refresh(
    const NodeInfo& node, const ClusterObjects& objects) {
  bool fresh = false;
  NodeEntry& e = nodes_.For(node, &fresh);
  if (!fresh && e.csi.stamp.Holds(objects, objects.csi_node_changes)) return e;
  const int64_t generation = e.generation;
  e = NodeEntry{};
  e.generation = generation;
  e.csi = ReadNodeCsi(objects, *node.node(), this->handle_.features);
  e.migrated = csi_translation::IsCsiMigrationOn(e.csi.csi_node, this->InTreePlugin(),
                                                 this->handle_.features);
  e.max_volumes = this->MaxVolumesOn(node);
  return e;
}

template <typename Plain>
void FastNonCSILimitsOf<Plain>::FilterNodes(const CycleState&, const Pod& pod, NodeBatch nodes,
                                            std::vector<BatchRejection>* rejected) {
  if (pod.obj.spec().volumes().empty()) return;
  std::set<std::string> new_volumes;
  if (Status s = this->FilterVolumes(pod, true, &new_volumes); !s.IsSuccess()) {
    for (size_t i = 0; i < nodes.size(); ++i) rejected->push_back({static_cast<uint32_t>(i), s});
    return;
  }
  if (new_volumes.empty()) return;
  const ClusterObjects& objects = StorageObjectsOf(this->handle_);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    const uint32_t index = static_cast<uint32_t>(i);
    if (node.node() == nullptr) {
      rejected->push_back({index, Status::Error("node not found")});
      continue;
    }
    NodeEntry& e = Refresh(node, objects);
    if (e.migrated) continue;
    if (!e.used_known || !e.used_stamp.Holds(objects, objects.volume_changes)) {
      std::set<std::string> used;
      e.used_error = Status();
      bool found_all = true;
      for (const PodInfoPtr& other : node.pods()) {
        found_all = found_all && FindsAllVolumeObjects(*other->pod, objects);
        if (Status s = this->FilterVolumes(*other->pod, false, &used); !s.IsSuccess()) {
          e.used_error = std::move(s);
          break;
        }
      }
      e.used.assign(used.begin(), used.end());
      e.used_stamp = StorageStamp(objects, objects.volume_changes, found_all);
      e.used_known = true;
    }
    if (!e.used_error.IsSuccess()) {
      rejected->push_back({index, e.used_error});
      continue;
    }
    int64_t total = static_cast<int64_t>(e.used.size());
    for (const std::string& id : new_volumes) {
      if (!std::binary_search(e.used.begin(), e.used.end(), id)) ++total;
    }
    if (total > e.max_volumes) {
      rejected->push_back(
          {index, Status(Code::kUnschedulable, std::string(kErrReasonMaxVolumeCountExceeded))});
    }
  }
}

template class FastNonCSILimitsOf<EBSLimits>;
template class FastNonCSILimitsOf<GCEPDLimits>;
template class FastNonCSILimitsOf<AzureDiskLimits>;

}  // namespace schedcheck::reference
