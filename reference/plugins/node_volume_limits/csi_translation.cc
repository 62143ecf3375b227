#include "reference/plugins/node_volume_limits/csi_translation.h"

#include <cctype>
#include <set>
#include <vector>

namespace schedcheck::reference::csi_translation {
namespace {

constexpr std::string_view kRbdPlugin = "kubernetes.io/rbd";
constexpr std::string_view kCinderPlugin = "kubernetes.io/cinder";
constexpr std::string_view kPortworxPlugin = "kubernetes.io/portworx-volume";
constexpr std::string_view kUnspecified = "UNSPECIFIED";

struct Migration {
  std::string_view in_tree_plugin;
  std::string_view csi_driver;
};

// csi-translation-lib's translators at v0.27.8, in its order.
constexpr Migration kMigrations[] = {
    {kGcePdPlugin, "pd.csi.storage.gke.io"},
    {kAwsEbsPlugin, "ebs.csi.aws.com"},
    {kCinderPlugin, "cinder.csi.openstack.org"},
    {kAzureDiskPlugin, "disk.csi.azure.com"},
    {"kubernetes.io/azure-file", "file.csi.azure.com"},
    {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"},
    {kPortworxPlugin, "pxd.portworx.com"},
    {kRbdPlugin, "rbd.csi.ceph.com"},
};

std::vector<std::string> Split(std::string_view text, std::string_view sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = text.find(sep, start);
    out.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + sep.size();
  }
}

// KubernetesVolumeIDToEBSVolumeID: a bare ID as is; "aws://<zone>/vol-..." to its "vol-..." part.
std::optional<std::string> EbsVolumeId(const std::string& id) {
  constexpr std::string_view kScheme = "aws://";
  if (id.rfind(kScheme, 0) != 0) return id;
  size_t path = id.find('/', kScheme.size());
  if (path == std::string::npos) return std::nullopt;  // no path: not a vol- ID
  std::string aws_id = id.substr(path);
  size_t first = aws_id.find_first_not_of('/');
  size_t last = aws_id.find_last_not_of('/');
  aws_id = first == std::string::npos ? "" : aws_id.substr(first, last - first + 1);
  // ^vol-[^/]*$
  if (aws_id.rfind("vol-", 0) != 0 || aws_id.find('/') != std::string::npos) return std::nullopt;
  return aws_id;
}

std::string GceHandle(std::string_view zone_or_region_kind, std::string_view where,
                      const std::string& pd_name) {
  return "projects/" + std::string(kUnspecified) + "/" + std::string(zone_or_region_kind) + "/" +
         std::string(where) + "/disks/" + pd_name;
}

// The translation refuses Azure disks whose kind is not Managed (case-insensitive).
bool AzureKindMigrates(const k8s::AzureDiskVolumeSource& disk) {
  if (!disk.has_kind()) return true;
  std::string kind = disk.kind();
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kind == "managed";
}

}  // namespace

std::optional<std::string_view> CsiDriverForPlugin(std::string_view in_tree_plugin,
                                                   const Features& features) {
  if (!features.rbd_in_tree_plugin && in_tree_plugin == kRbdPlugin) return std::nullopt;
  for (const Migration& m : kMigrations) {
    if (m.in_tree_plugin == in_tree_plugin) return m.csi_driver;
  }
  return std::nullopt;
}

std::vector<std::string_view> MigratableInTreePlugins() {
  std::vector<std::string_view> plugins;
  for (const Migration& m : kMigrations) plugins.push_back(m.in_tree_plugin);
  return plugins;
}

bool IsCsiMigrationOn(const k8s::CSINode* csi_node, std::string_view in_tree_plugin,
                      const Features& features) {
  if (csi_node == nullptr || in_tree_plugin.empty()) return false;
  if (features.csi_migration_complete) {
    return in_tree_plugin == kAwsEbsPlugin || in_tree_plugin == kPortworxPlugin ||
           in_tree_plugin == kGcePdPlugin || in_tree_plugin == kAzureDiskPlugin ||
           in_tree_plugin == kCinderPlugin;
  }
  if (in_tree_plugin == kAwsEbsPlugin || in_tree_plugin == kAzureDiskPlugin ||
      in_tree_plugin == kCinderPlugin) {
    return true;
  }
  if (in_tree_plugin != kGcePdPlugin) return false;  // RBD, Portworx: gates off; others: no case
  const auto& annotations = csi_node->metadata().annotations();
  auto it = annotations.find("storage.alpha.kubernetes.io/migrated-plugins");
  if (it == annotations.end() || it->second.empty()) return false;
  for (const std::string& name : Split(it->second, ",")) {
    if (name == in_tree_plugin) return true;
  }
  return false;
}

std::string_view InTreePluginOf(const k8s::Volume& volume, const Features& features) {
  if (volume.has_gce_persistent_disk()) return kGcePdPlugin;
  if (volume.has_aws_elastic_block_store()) return kAwsEbsPlugin;
  if (volume.has_azure_disk()) return kAzureDiskPlugin;
  if (volume.has_rbd() && features.rbd_in_tree_plugin) return kRbdPlugin;
  return "";
}

std::string_view InTreePluginOf(const k8s::PersistentVolume& pv, const Features& features) {
  const auto& spec = pv.spec();
  if (spec.has_gce_persistent_disk()) return kGcePdPlugin;
  if (spec.has_aws_elastic_block_store()) return kAwsEbsPlugin;
  if (spec.has_azure_disk()) return kAzureDiskPlugin;
  if (spec.has_rbd() && features.rbd_in_tree_plugin) return kRbdPlugin;
  return "";
}

std::optional<std::string> InlineVolumeHandle(const k8s::Volume& volume) {
  if (volume.has_gce_persistent_disk()) {
    return GceHandle("zones", kUnspecified, volume.gce_persistent_disk().pd_name());
  }
  if (volume.has_aws_elastic_block_store()) {
    return EbsVolumeId(volume.aws_elastic_block_store().volume_id());
  }
  if (volume.has_azure_disk() && AzureKindMigrates(volume.azure_disk())) {
    return volume.azure_disk().data_disk_uri();
  }
  return std::nullopt;
}

std::optional<std::string> PersistentVolumeHandle(const k8s::PersistentVolume& pv) {
  const auto& spec = pv.spec();
  if (spec.has_gce_persistent_disk()) {
    const auto& labels = pv.metadata().labels();
    std::string zones_label;
    if (auto it = labels.find("failure-domain.beta.kubernetes.io/zone"); it != labels.end()) {
      zones_label = it->second;
    }
    if (zones_label.empty()) {
      if (auto it = labels.find("topology.kubernetes.io/zone"); it != labels.end()) {
        zones_label = it->second;
      }
    }
    const std::string& pd = spec.gce_persistent_disk().pd_name();
    std::vector<std::string> zones = Split(zones_label, "__");
    if (zones.size() == 1 && !zones[0].empty()) return GceHandle("zones", zones[0], pd);
    if (zones.size() > 1) {
      // gceGetRegionFromZones: every zone "<locale>-<region>-<zone>" in one region.
      std::set<std::string> regions;
      for (const std::string& zone : zones) {
        std::vector<std::string> parts = Split(zone, "-");
        if (parts.size() != 3) return std::nullopt;
        regions.insert(parts[0] + "-" + parts[1]);
      }
      if (regions.size() != 1) return std::nullopt;
      return GceHandle("regions", *regions.begin(), pd);
    }
    return GceHandle("zones", kUnspecified, pd);
  }
  if (spec.has_aws_elastic_block_store()) {
    return EbsVolumeId(spec.aws_elastic_block_store().volume_id());
  }
  if (spec.has_azure_disk() && AzureKindMigrates(spec.azure_disk())) {
    return spec.azure_disk().data_disk_uri();
  }
  return std::nullopt;
}

}  // namespace schedcheck::reference::csi_translation
