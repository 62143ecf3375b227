#include "reference/accel/node_volume_limits/node_storage.h"

#include <string>
#include <string_view>
#include <vector>

#include "reference/plugins/node_volume_limits/csi_translation.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {

NodeCsi ReadNodeCsi(const ClusterObjects& objects, const Node& node, const Features& features) {
  static const std::vector<std::string_view> kPlugins = csi_translation::MigratableInTreePlugins();
  NodeCsi out;
  out.csi_node = ClusterObjects::Find(objects.csi_nodes, node.name());
  for (size_t i = 0; i < kPlugins.size(); ++i) {
    if (csi_translation::IsCsiMigrationOn(out.csi_node, kPlugins[i], features)) {
      out.migrated |= 1u << i;
    }
  }
  out.stamp = StorageStamp(objects, objects.csi_node_changes, out.csi_node != nullptr);
  return out;
}

bool FindsAllVolumeObjects(const Pod& pod, const ClusterObjects& objects) {
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string claim_name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &claim_name, &ephemeral)) continue;
    const k8s::PersistentVolumeClaim* claim = objects.FindClaim(pod.ns(), claim_name);
    if (claim == nullptr) return false;
    const std::string& pv_name = claim->spec().volume_name();
    if (!pv_name.empty() && ClusterObjects::Find(objects.persistent_volumes, pv_name) != nullptr) {
      continue;
    }
    // Without its volume the plugins read the claim's class (either way of naming it).
    if (ClusterObjects::Find(objects.storage_classes, ClaimStorageClass(*claim)) == nullptr ||
        ClusterObjects::Find(objects.storage_classes, claim->spec().storage_class_name()) ==
            nullptr) {
      return false;
    }
  }
  return true;
}

}  // namespace schedcheck::reference
