#include "reference/plugins/node_volume_limits/node_volume_limits.h"

#include "reference/plugins/node_volume_limits/csi_translation.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

// Upstream prefixes the made-up IDs of unbound claims with 32 random characters drawn once per
// plugin; only their uniqueness matters, so a fixed prefix decides the same.
constexpr std::string_view kUnboundVolumePrefix = "schedcheck-unbound";
constexpr std::string_view kAttachableVolumesPrefix = "attachable-volumes-";

bool NoArgs(const PluginArgs& args) { return args.is_null() || (args.is_object() && args.empty()); }

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

// The made-up ID of a claim whose volume is not known yet.
std::string UnboundVolumeId(const std::string& ns, const std::string& claim) {
  return std::string(kUnboundVolumePrefix) + "-" + ns + "/" + claim;
}

std::string LookingUpClaimError(const Pod& pod, const std::string& claim) {
  return "looking up PVC " + pod.ns() + "/" + claim + ": " +
         ListerNotFound(lister_resource::kPersistentVolumeClaim, claim);
}

// volumeLimits: the node's attachable-volumes-* allocatable.
std::map<std::string, int64_t> AllocatableVolumeLimits(const NodeInfo& node) {
  std::map<std::string, int64_t> limits;
  for (const auto& [name, value] : node.allocatable().scalar) {
    if (name.str().rfind(kAttachableVolumesPrefix, 0) == 0) limits[name.str()] = value;
  }
  return limits;
}

}  // namespace

// ---- NodeVolumeLimits (CSI)

Result<std::unique_ptr<Plugin>> NodeVolumeLimits::New(const PluginArgs& args,
                                                      const Handle& handle) {
  if (!NoArgs(args)) return Error{std::string(kName) + " takes no arguments"};
  if (handle.features.volume_limits_from_csi_node_only) {
    return std::unique_ptr<Plugin>(std::make_unique<NodeVolumeLimitsV1_37>(handle));
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeVolumeLimits>(handle));
}

Status NodeVolumeLimitsV1_37::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (volume.has_persistent_volume_claim() || volume.has_ephemeral() ||
        !csi_translation::InTreePluginOf(volume, handle_.features).empty()) {
      return Status();
    }
  }
  return Status(Code::kSkip);
}

bool NodeVolumeLimits::DriverInstalledOnNode(const std::string& driver,
                                             const k8s::CSINode* csi_node) const {
  const k8s::CSIDriver* object =
      ClusterObjects::Find(StorageObjectsOf(handle_).csi_drivers, driver);
  if (object == nullptr || !object->spec().prevent_pod_scheduling_if_missing()) return true;
  if (csi_node == nullptr) return false;
  for (const auto& d : csi_node->spec().drivers()) {
    if (d.name() == driver) return true;
  }
  return false;
}

std::string NodeVolumeLimits::AttachLimitKey(std::string_view driver) {
  // Upstream hashes driver names of 40 characters or more into the 63-character limit of a
  // resource name; the full name keeps keys distinct just the same (docs/DEVIATIONS.md).
  return "attachable-volumes-csi-" + std::string(driver);
}

Status NodeVolumeLimits::AttachableVolumes(const Pod& pod, const k8s::CSINode* csi_node,
                                           bool new_pod, std::map<std::string, std::string>* out,
                                           bool* not_found) const {
  const ClusterObjects& objects = StorageObjectsOf(handle_);
  const Features& features = handle_.features;
  // The value kept per volume: the limit key at v1.27, the driver at v1.37.
  auto key_of = [&](std::string_view driver) {
    return csi_node_only() ? std::string(driver) : AttachLimitKey(driver);
  };
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string claim_name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &claim_name, &ephemeral)) {
      // checkAttachableInlineVolume: a migratable in-tree disk counts against its CSI driver.
      std::string_view plugin = csi_translation::InTreePluginOf(volume, features);
      if (plugin.empty() || !csi_translation::IsCsiMigrationOn(csi_node, plugin, features))
        continue;
      std::optional<std::string> handle = csi_translation::InlineVolumeHandle(volume);
      if (!handle) {
        return Status::Error(
            features.reworded_messages
                ? "converting volume(" + volume.name() + ") from inline to csi: translation failed"
                : "converting volume " + volume.name() + " from inline to csi failed");
      }
      std::string_view driver = *csi_translation::CsiDriverForPlugin(plugin, features);
      (*out)[std::string(driver) + "/" + *handle] = key_of(driver);
      continue;
    }
    if (claim_name.empty()) return Status::Error("PersistentVolumeClaim had no name");
    const k8s::PersistentVolumeClaim* claim = objects.FindClaim(pod.ns(), claim_name);
    if (claim == nullptr) {
      if (new_pod) {
        if (not_found != nullptr) *not_found = true;
        return Status::Error(LookingUpClaimError(pod, claim_name));
      }
      continue;
    }
    if (ephemeral) {
      if (std::string err = EphemeralClaimNotForPod(pod, *claim); !err.empty()) {
        return Status::Error(err);
      }
    }
    std::string driver;
    std::string handle;
    const std::string& pv_name = claim->spec().volume_name();
    const k8s::PersistentVolume* pv =
        pv_name.empty() ? nullptr : ClusterObjects::Find(objects.persistent_volumes, pv_name);
    if (pv == nullptr) {
      // getCSIDriverInfoFromSC: the class's provisioner will attach it.
      const std::string class_name = ClaimStorageClass(*claim);
      const k8s::StorageClass* sc =
          class_name.empty() ? nullptr : ClusterObjects::Find(objects.storage_classes, class_name);
      if (sc == nullptr) continue;
      handle = UnboundVolumeId(std::string(ClaimNamespace(*claim)), claim->metadata().name());
      if (auto migrated = csi_translation::CsiDriverForPlugin(sc->provisioner(), features)) {
        if (!csi_translation::IsCsiMigrationOn(csi_node, sc->provisioner(), features)) continue;
        driver = std::string(*migrated);
      } else {
        driver = sc->provisioner();
      }
    } else if (pv->spec().has_csi()) {
      driver = pv->spec().csi().driver();
      handle = pv->spec().csi().volume_handle();
    } else {
      std::string_view plugin = csi_translation::InTreePluginOf(*pv, features);
      if (plugin.empty() || !csi_translation::IsCsiMigrationOn(csi_node, plugin, features))
        continue;
      std::optional<std::string> translated = csi_translation::PersistentVolumeHandle(*pv);
      if (!translated) continue;
      driver = std::string(*csi_translation::CsiDriverForPlugin(plugin, features));
      handle = *translated;
    }
    if (driver.empty() || handle.empty()) continue;
    (*out)[driver + "/" + handle] = key_of(driver);
  }
  return Status();
}

std::map<std::string, int64_t> NodeVolumeLimits::VolumeLimits(const NodeInfo& node,
                                                              const k8s::CSINode* csi_node) const {
  // v1.27 the allocatable limits, then each CSINode driver's count; v1.37 the CSINode's counts
  // alone.
  std::map<std::string, int64_t> limits;
  if (!csi_node_only()) limits = AllocatableVolumeLimits(node);
  if (csi_node != nullptr) {
    for (const auto& driver : csi_node->spec().drivers()) {
      if (driver.has_allocatable() && driver.allocatable().has_count()) {
        limits[csi_node_only() ? driver.name() : AttachLimitKey(driver.name())] =
            driver.allocatable().count();
      }
    }
  }
  return limits;
}

Status NodeVolumeLimits::Filter(const CycleState&, const Pod& pod, const NodeInfo& node) {
  if (pod.obj.spec().volumes().empty()) return Status();
  if (node.node() == nullptr) return Status::Error("node not found");
  const k8s::CSINode* csi_node =
      ClusterObjects::Find(StorageObjectsOf(handle_).csi_nodes, node.node()->name());
  std::map<std::string, std::string> new_volumes;
  bool not_found = false;
  if (Status s = AttachableVolumes(pod, csi_node, true, &new_volumes, &not_found); !s.IsSuccess()) {
    // v1.37: a missing claim keeps the pod off every node until the claim is created.
    if (csi_node_only() && not_found)
      return Status(Code::kUnschedulableAndUnresolvable, s.Message());
    return s;
  }
  if (new_volumes.empty()) return Status();
  if (handle_.features.volume_limit_scaling) {
    // VolumeLimitScaling. Upstream walks a map; drivers are taken in volume-name order.
    for (const auto& [unique_name, driver] : new_volumes) {
      if (!DriverInstalledOnNode(driver, csi_node)) {
        return Status(Code::kUnschedulable, driver + " CSI driver is not installed on the node");
      }
    }
  }
  std::map<std::string, int64_t> limits = VolumeLimits(node, csi_node);
  if (limits.empty()) return Status();
  std::map<std::string, std::string> attached;
  for (const PodInfoPtr& existing : node.pods()) {
    if (Status s = AttachableVolumes(*existing->pod, csi_node, false, &attached); !s.IsSuccess()) {
      return s;
    }
  }
  std::map<std::string, int64_t> attached_count;
  for (const auto& [unique_name, key] : attached) {
    new_volumes.erase(unique_name);
    ++attached_count[key];
  }
  std::map<std::string, int64_t> new_count;
  for (const auto& [unique_name, key] : new_volumes) ++new_count[key];
  for (const auto& [key, count] : new_count) {
    auto limit = limits.find(key);
    if (limit != limits.end() && attached_count[key] + count > limit->second) {
      return Status(Code::kUnschedulable, std::string(kErrReasonMaxVolumeCountExceeded));
    }
  }
  return Status();
}

std::vector<ClusterEvent> NodeVolumeLimits::EventsToRegister() const {
  return {Event(resource::kCSINode, action::kAdd), Event(resource::kPod, action::kDelete)};
}

// ---- the in-tree limits

namespace {

template <typename P>
Result<std::unique_ptr<Plugin>> MakeNonCsi(const PluginArgs& args, const Handle& handle) {
  if (!NoArgs(args)) return Error{std::string(P::kName) + " takes no arguments"};
  return std::unique_ptr<Plugin>(std::make_unique<P>(handle));
}

// v1.27 volumeutil constants.
constexpr int kDefaultMaxEbsVolumes = 39;
constexpr int kDefaultMaxEbsNitroVolumes = 25;
constexpr int kDefaultMaxGcePdVolumes = 16;
constexpr int kDefaultMaxAzureDiskVolumes = 16;

// EBSNitroLimitRegex "^[cmr]5.*|t3|z1d": starts with c5, m5 or r5, or contains t3 or z1d.
bool IsNitroInstanceType(const std::string& type) {
  bool prefix =
      type.size() >= 2 && (type[0] == 'c' || type[0] == 'm' || type[0] == 'r') && type[1] == '5';
  return prefix || type.find("t3") != std::string::npos || type.find("z1d") != std::string::npos;
}

}  // namespace

Result<std::unique_ptr<Plugin>> EBSLimits::New(const PluginArgs& args, const Handle& handle) {
  return MakeNonCsi<EBSLimits>(args, handle);
}
Result<std::unique_ptr<Plugin>> GCEPDLimits::New(const PluginArgs& args, const Handle& handle) {
  return MakeNonCsi<GCEPDLimits>(args, handle);
}
Result<std::unique_ptr<Plugin>> AzureDiskLimits::New(const PluginArgs& args, const Handle& handle) {
  return MakeNonCsi<AzureDiskLimits>(args, handle);
}

bool NonCSILimits::VolumeId(const k8s::Volume& volume, std::string* id) const {
  switch (kind_) {
    case Kind::kEbs:
      if (!volume.has_aws_elastic_block_store()) return false;
      *id = volume.aws_elastic_block_store().volume_id();
      return true;
    case Kind::kGcePd:
      if (!volume.has_gce_persistent_disk()) return false;
      *id = volume.gce_persistent_disk().pd_name();
      return true;
    case Kind::kAzureDisk:
      if (!volume.has_azure_disk()) return false;
      *id = volume.azure_disk().disk_name();
      return true;
  }
  return false;
}

bool NonCSILimits::VolumeId(const k8s::PersistentVolume& pv, std::string* id) const {
  k8s::Volume as_volume;
  const auto& spec = pv.spec();
  if (spec.has_aws_elastic_block_store()) {
    *as_volume.mutable_aws_elastic_block_store() = spec.aws_elastic_block_store();
  }
  if (spec.has_gce_persistent_disk()) {
    *as_volume.mutable_gce_persistent_disk() = spec.gce_persistent_disk();
  }
  if (spec.has_azure_disk()) *as_volume.mutable_azure_disk() = spec.azure_disk();
  return VolumeId(as_volume, id);
}

std::string_view NonCSILimits::InTreePlugin() const {
  switch (kind_) {
    case NonCSILimits::Kind::kEbs:
      return csi_translation::kAwsEbsPlugin;
    case NonCSILimits::Kind::kGcePd:
      return csi_translation::kGcePdPlugin;
    case NonCSILimits::Kind::kAzureDisk:
      return csi_translation::kAzureDiskPlugin;
  }
  return "";
}

bool NonCSILimits::MatchProvisioner(const k8s::PersistentVolumeClaim& claim) const {
  // Upstream reads spec.storageClassName only (not the beta annotation).
  if (!claim.spec().has_storage_class_name()) return false;
  const k8s::StorageClass* sc = ClusterObjects::Find(StorageObjectsOf(handle_).storage_classes,
                                                     claim.spec().storage_class_name());
  return sc != nullptr && sc->provisioner() == InTreePlugin();
}

int NonCSILimits::MaxVolumes(const Node& node) const {
  switch (kind_) {
    case Kind::kEbs: {
      // The first instance-type label in Go's (random) map order; schedcheck takes the GA label
      // when both are present (docs/DEVIATIONS.md).
      std::string type;
      const auto& labels = node.labels();
      if (auto it = labels.find("node.kubernetes.io/instance-type"); it != labels.end()) {
        type = it->second;
      } else if (auto beta = labels.find("beta.kubernetes.io/instance-type");
                 beta != labels.end()) {
        type = beta->second;
      }
      return IsNitroInstanceType(type) ? kDefaultMaxEbsNitroVolumes : kDefaultMaxEbsVolumes;
    }
    case Kind::kGcePd:
      return kDefaultMaxGcePdVolumes;
    case Kind::kAzureDisk:
      return kDefaultMaxAzureDiskVolumes;
  }
  return -1;
}

int64_t NonCSILimits::MaxVolumesOn(const NodeInfo& node) const {
  int64_t max_volumes = MaxVolumes(*node.node());
  std::string_view key;
  switch (kind_) {
    case Kind::kEbs:
      key = "attachable-volumes-aws-ebs";
      break;
    case Kind::kGcePd:
      key = "attachable-volumes-gce-pd";
      break;
    case Kind::kAzureDisk:
      key = "attachable-volumes-azure-disk";
      break;
  }
  std::map<std::string, int64_t> limits = AllocatableVolumeLimits(node);
  if (auto it = limits.find(std::string(key)); it != limits.end()) max_volumes = it->second;
  return max_volumes;
}

Status NonCSILimits::FilterVolumes(const Pod& pod, bool new_pod, std::set<std::string>* out) const {
  const ClusterObjects& objects = StorageObjectsOf(handle_);
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string id;
    if (VolumeId(volume, &id)) {
      out->insert(id);
      continue;
    }
    std::string claim_name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &claim_name, &ephemeral)) continue;
    if (claim_name.empty()) return Status::Error("PersistentVolumeClaim had no name");
    const std::string unbound_id = UnboundVolumeId(pod.ns(), claim_name);
    const k8s::PersistentVolumeClaim* claim = objects.FindClaim(pod.ns(), claim_name);
    if (claim == nullptr) {
      if (new_pod) return Status::Error(LookingUpClaimError(pod, claim_name));
      continue;
    }
    if (ephemeral) {
      if (std::string err = EphemeralClaimNotForPod(pod, *claim); !err.empty()) {
        return Status::Error(err);
      }
    }
    const std::string& pv_name = claim->spec().volume_name();
    const k8s::PersistentVolume* pv =
        pv_name.empty() ? nullptr : ClusterObjects::Find(objects.persistent_volumes, pv_name);
    if (pv == nullptr) {
      if (MatchProvisioner(*claim)) out->insert(unbound_id);
      continue;
    }
    if (VolumeId(*pv, &id)) out->insert(id);
  }
  return Status();
}

Status NonCSILimits::Filter(const CycleState&, const Pod& pod, const NodeInfo& node) {
  if (pod.obj.spec().volumes().empty()) return Status();
  std::set<std::string> new_volumes;
  if (Status s = FilterVolumes(pod, true, &new_volumes); !s.IsSuccess()) return s;
  if (new_volumes.empty()) return Status();
  if (node.node() == nullptr) return Status::Error("node not found");
  const k8s::CSINode* csi_node =
      ClusterObjects::Find(StorageObjectsOf(handle_).csi_nodes, node.node()->name());
  if (csi_translation::IsCsiMigrationOn(csi_node, InTreePlugin(), handle_.features)) {
    return Status();
  }
  std::set<std::string> existing;
  for (const PodInfoPtr& other : node.pods()) {
    if (Status s = FilterVolumes(*other->pod, false, &existing); !s.IsSuccess()) return s;
  }
  for (const std::string& id : existing) new_volumes.erase(id);
  if (static_cast<int64_t>(existing.size() + new_volumes.size()) > MaxVolumesOn(node)) {
    return Status(Code::kUnschedulable, std::string(kErrReasonMaxVolumeCountExceeded));
  }
  return Status();
}

std::vector<ClusterEvent> NonCSILimits::EventsToRegister() const {
  return {Event(resource::kNode, action::kAdd), Event(resource::kPod, action::kDelete)};
}

}  // namespace schedcheck::reference
