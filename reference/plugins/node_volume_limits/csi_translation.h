// What the attach-limit plugins ask of csi-translation-lib and of the CSI migration switches, at
// v1.27 (v0.27.8) and v1.37 (v0.37.2, which dropped RBD): which in-tree volume plugins migrate to
// which CSI driver, whether migration is on for a node (isCSIMigrationOn), and the CSI volume
// handle an in-tree volume translates to. Covers the in-tree sources schedcheck's objects hold (GCE
// PD, AWS EBS, Azure Disk); the other migratable plugins are known by name only (a StorageClass
// provisioner).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_CSI_TRANSLATION_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_CSI_TRANSLATION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/features.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference::csi_translation {

inline constexpr std::string_view kGcePdPlugin = "kubernetes.io/gce-pd";
inline constexpr std::string_view kAwsEbsPlugin = "kubernetes.io/aws-ebs";
inline constexpr std::string_view kAzureDiskPlugin = "kubernetes.io/azure-disk";

// IsMigratableIntreePluginByName + GetCSINameFromInTreeName: the CSI driver an in-tree plugin
// migrates to; nullopt for a name that is not a migratable in-tree plugin.
// Without rbd_in_tree_plugin, rbd is not one.
std::optional<std::string_view> CsiDriverForPlugin(std::string_view in_tree_plugin,
                                                   const Features& features);

// The in-tree plugins of csi-translation-lib's translators (every name CsiDriverForPlugin may
// know), in its order. IsCsiMigrationOn is only ever asked about these.
std::vector<std::string_view> MigratableInTreePlugins();

// isCSIMigrationOn at v1.27 with its default gates: AWS EBS, Azure Disk and Cinder are always
// migrated when the node has a CSINode; GCE PD only when the CSINode's
// storage.alpha.kubernetes.io/migrated-plugins annotation lists it; the others (RBD, Portworx,
// vSphere, Azure File) never (their gates are off or the switch names no case). At v1.37 AWS EBS,
// Portworx, GCE PD, Azure Disk and Cinder are always migrated when the node has a CSINode.
// (csi_migration_complete).
bool IsCsiMigrationOn(const k8s::CSINode* csi_node, std::string_view in_tree_plugin,
                      const Features& features);

// The in-tree plugin of an inline volume or PV source; "" when it has none that migrates.
std::string_view InTreePluginOf(const k8s::Volume& volume, const Features& features);
std::string_view InTreePluginOf(const k8s::PersistentVolume& pv, const Features& features);

// The CSI volume handle of a translated inline volume / PV; nullopt where the translation fails
// (an EBS volume ID that is not aws://zone/vol-..., GCE PD zones from several regions).
std::optional<std::string> InlineVolumeHandle(const k8s::Volume& volume);
std::optional<std::string> PersistentVolumeHandle(const k8s::PersistentVolume& pv);

}  // namespace schedcheck::reference::csi_translation

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_VOLUME_LIMITS_CSI_TRANSLATION_H_
