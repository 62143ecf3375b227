#include "reference/plugins/volume_restrictions/volume_restrictions.h"

#include <set>

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

class VolumeRestrictionsState final : public StateData {
 public:
  // Names (in the pod's namespace) of the pod's claims with the ReadWriteOncePod access mode.
  std::set<std::string> read_write_once_pod_claims;
  int conflicting_claim_refs = 0;

  // conflictingPVCRefCountForPod: `pod`'s claim volumes naming one of those claims.
  int ConflictsOf(const Pod& pod) const {
    int conflicts = 0;
    for (const auto& volume : pod.obj.spec().volumes()) {
      if (volume.has_persistent_volume_claim() &&
          read_write_once_pod_claims.contains(volume.persistent_volume_claim().claim_name())) {
        ++conflicts;
      }
    }
    return conflicts;
  }
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<VolumeRestrictionsState>(*this);
  }
};

Status MissingState() {
  return Status::Error("cannot read \"" + std::string(VolumeRestrictions::kStateKey) +
                       "\" from cycleState");
}

// haveOverlap: the two monitor lists share an entry.
bool HaveOverlap(const google::protobuf::RepeatedPtrField<std::string>& a,
                 const google::protobuf::RepeatedPtrField<std::string>& b) {
  std::set<std::string_view> first(a.begin(), a.end());
  for (const std::string& m : b) {
    if (first.contains(m)) return true;
  }
  return false;
}

// The API server defaults an RBD volume's pool to "rbd" (SetDefaults_RBDVolumeSource).
std::string_view RbdPool(const k8s::RBDVolumeSource& rbd) {
  return rbd.pool().empty() ? std::string_view("rbd") : std::string_view(rbd.pool());
}

}  // namespace

Result<std::unique_ptr<Plugin>> VolumeRestrictions::New(const PluginArgs& args,
                                                        const Handle& handle) {
  if (!(args.is_null() || (args.is_object() && args.empty()))) {
    return Error{"VolumeRestrictions takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<VolumeRestrictions>(handle));
}

bool VolumeRestrictions::NeedsRestrictionsCheck(const k8s::Volume& v) {
  return v.has_gce_persistent_disk() || v.has_aws_elastic_block_store() || v.has_rbd() ||
         v.has_iscsi();
}

bool VolumeRestrictions::IsVolumeConflict(const k8s::Volume& volume, const Pod& existing) {
  for (const auto& other : existing.obj.spec().volumes()) {
    if (volume.has_gce_persistent_disk() && other.has_gce_persistent_disk()) {
      const auto& disk = volume.gce_persistent_disk();
      const auto& existing_disk = other.gce_persistent_disk();
      if (disk.pd_name() == existing_disk.pd_name() &&
          !(disk.read_only() && existing_disk.read_only())) {
        return true;
      }
    }
    if (volume.has_aws_elastic_block_store() && other.has_aws_elastic_block_store() &&
        volume.aws_elastic_block_store().volume_id() ==
            other.aws_elastic_block_store().volume_id()) {
      return true;
    }
    if (volume.has_iscsi() && other.has_iscsi() && volume.iscsi().iqn() == other.iscsi().iqn() &&
        !(volume.iscsi().read_only() && other.iscsi().read_only())) {
      return true;
    }
    if (volume.has_rbd() && other.has_rbd()) {
      const auto& rbd = volume.rbd();
      const auto& existing_rbd = other.rbd();
      if (HaveOverlap(rbd.monitors(), existing_rbd.monitors()) &&
          RbdPool(rbd) == RbdPool(existing_rbd) && rbd.image() == existing_rbd.image() &&
          !(rbd.read_only() && existing_rbd.read_only())) {
        return true;
      }
    }
  }
  return false;
}

Status VolumeRestrictions::PreFilter(CycleState& state, const Pod& pod, PreFilterResult*) {
  const ClusterObjects& objects = StorageObjectsOf(handle_);
  auto data = std::make_unique<VolumeRestrictionsState>();
  bool needs_check = false;
  for (const auto& volume : pod.obj.spec().volumes()) {
    needs_check = needs_check || NeedsRestrictionsCheck(volume);
    if (!volume.has_persistent_volume_claim()) continue;
    const std::string& name = volume.persistent_volume_claim().claim_name();
    const k8s::PersistentVolumeClaim* claim = objects.FindClaim(pod.ns(), name);
    if (claim == nullptr) {
      return Status(Code::kUnschedulableAndUnresolvable,
                    ListerNotFound(lister_resource::kPersistentVolumeClaim, name));
    }
    if (HasAccessMode(claim->spec().access_modes(), kReadWriteOncePod)) {
      data->read_write_once_pod_claims.insert(claim->metadata().name());
    }
  }
  for (const std::string& name : data->read_write_once_pod_claims) {
    if (handle_.snapshot != nullptr &&
        IsClaimUsedByPods(*handle_.snapshot, NamespacedName(pod.ns(), name))) {
      ++data->conflicting_claim_refs;
    }
  }
  if (handle_.features.skip_when_nothing_to_do && !needs_check &&
      data->conflicting_claim_refs == 0) {
    return Status(Code::kSkip);
  }
  state.Write(std::string(kStateKey), std::move(data));
  return Status();
}

Status VolumeRestrictions::UpdateWithPod(CycleState& state, const PodInfo& pod,
                                         int multiplier) const {
  auto* data = state.ReadAs<VolumeRestrictionsState>(kStateKey);
  if (data == nullptr) return MissingState();
  data->conflicting_claim_refs += multiplier * data->ConflictsOf(*pod.pod);
  return Status();
}

Status VolumeRestrictions::AddPod(CycleState& state, const Pod&, const PodInfo& to_add,
                                  const NodeInfo&) {
  return UpdateWithPod(state, to_add, 1);
}

Status VolumeRestrictions::RemovePod(CycleState& state, const Pod&, const PodInfo& to_remove,
                                     const NodeInfo&) {
  return UpdateWithPod(state, to_remove, -1);
}

Status VolumeRestrictions::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (!NeedsRestrictionsCheck(volume)) continue;
    for (const PodInfoPtr& existing : node.pods()) {
      if (IsVolumeConflict(volume, *existing->pod)) {
        return Status(Code::kUnschedulable, std::string(kErrReasonDiskConflict));
      }
    }
  }
  const auto* data = state.ReadAs<VolumeRestrictionsState>(kStateKey);
  if (data == nullptr) return MissingState();
  if (data->conflicting_claim_refs > 0) {
    return Status(Code::kUnschedulable, std::string(handle_.features.reworded_messages
                                                        ? kErrReasonReadWriteOncePodConflictV1_37
                                                        : kErrReasonReadWriteOncePodConflict));
  }
  return Status();
}

std::vector<ClusterEvent> VolumeRestrictions::EventsToRegister() const {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  return {event(resource::kPod, action::kDelete), event(resource::kNode, action::kAdd),
          event(resource::kPersistentVolumeClaim, action::kAdd | action::kUpdate)};
}

namespace {

Result<QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(const Pod& pod,
                                                                  const EventObjects& objects) {
  auto typed = As<k8s::PersistentVolumeClaim>(objects);
  if (!typed.ok()) return typed.error();
  return PodNamesClaim(pod, *typed->second) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

Result<QueueingHint> IsSchedulableAfterAssignedPodDeleted(const Pod& pod,
                                                          const EventObjects& objects) {
  const Pod& deleted = *objects.old_pod;
  if (deleted.ns() != pod.ns()) return QueueingHint::kQueueSkip;
  // satisfyVolumeConflicts against a node holding only the deleted pod.
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (VolumeRestrictions::NeedsRestrictionsCheck(volume) &&
        VolumeRestrictions::IsVolumeConflict(volume, deleted)) {
      return QueueingHint::kQueue;
    }
  }
  // The same claim (its access mode is not looked up, as upstream does not).
  std::set<std::string> claims;
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (volume.has_persistent_volume_claim()) {
      claims.insert(volume.persistent_volume_claim().claim_name());
    }
  }
  for (const auto& volume : deleted.obj.spec().volumes()) {
    if (volume.has_persistent_volume_claim() &&
        claims.count(volume.persistent_volume_claim().claim_name())) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeRestrictions::EventsToRegisterWithHints() const {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  return {
      {event(resource::kAssignedPod, action::kDelete), IsSchedulableAfterAssignedPodDeleted},
      // Any new node may have room: no hint.
      {event(resource::kNode, action::kAdd), nullptr},
      {event(resource::kPersistentVolumeClaim, action::kAdd),
       IsSchedulableAfterPersistentVolumeClaimAdded},
  };
}

}  // namespace schedcheck::reference
