#include "reference/plugins/volume_zone/volume_zone.h"

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

// The labels compared, in upstream's order (topologyLabels).
constexpr std::string_view kTopologyLabels[] = {kLabelFailureDomainBetaZone,
                                                kLabelFailureDomainBetaRegion, kLabelTopologyZone,
                                                kLabelTopologyRegion};

// v1.37 translateToGALabel: the GA name of a deprecated beta label.
std::string_view GaLabel(std::string_view label) {
  if (label == kLabelFailureDomainBetaRegion) return kLabelTopologyRegion;
  if (label == kLabelFailureDomainBetaZone) return kLabelTopologyZone;
  return label;
}

class VolumeZoneState final : public StateData {
 public:
  std::vector<VolumeZone::PvTopology> topologies;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<VolumeZoneState>(*this);
  }
};

Status Unresolvable(std::string reason) {
  return Status(Code::kUnschedulableAndUnresolvable, std::move(reason));
}

}  // namespace

Result<std::unique_ptr<Plugin>> VolumeZone::New(const PluginArgs& args, const Handle& handle) {
  if (!(args.is_null() || (args.is_object() && args.empty()))) {
    return Error{"VolumeZone takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<VolumeZone>(handle));
}

Status VolumeZone::PvTopologies(const Pod& pod, std::vector<PvTopology>* out) const {
  const ClusterObjects* objects = &StorageObjectsOf(handle_);
  for (const auto& volume : pod.obj.spec().volumes()) {
    if (!volume.has_persistent_volume_claim()) continue;
    const std::string& claim_name = volume.persistent_volume_claim().claim_name();
    if (claim_name.empty()) return Unresolvable("PersistentVolumeClaim had no name");
    const k8s::PersistentVolumeClaim* claim = objects->FindClaim(pod.ns(), claim_name);
    if (claim == nullptr) {
      return Unresolvable(ListerNotFound(lister_resource::kPersistentVolumeClaim, claim_name));
    }
    const std::string& pv_name = claim->spec().volume_name();
    if (pv_name.empty()) {
      const std::string class_name = ClaimStorageClass(*claim);
      if (class_name.empty()) {
        return Unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
      }
      const k8s::StorageClass* sc = ClusterObjects::Find(objects->storage_classes, class_name);
      if (sc == nullptr) {
        return Unresolvable(ListerNotFound(lister_resource::kStorageClass, class_name));
      }
      if (!sc->has_volume_binding_mode()) {
        return Unresolvable("VolumeBindingMode not set for StorageClass \"" + class_name + "\"");
      }
      if (sc->volume_binding_mode() == kWaitForFirstConsumer) continue;
      return Unresolvable("PersistentVolume had no name");
    }
    const k8s::PersistentVolume* pv = ClusterObjects::Find(objects->persistent_volumes, pv_name);
    if (pv == nullptr)
      return Unresolvable(ListerNotFound(lister_resource::kPersistentVolume, pv_name));
    for (std::string_view key : kTopologyLabels) {
      auto it = pv->metadata().labels().find(std::string(key));
      if (it == pv->metadata().labels().end()) continue;
      std::optional<std::set<std::string>> zones = LabelZonesToSet(it->second);
      if (!zones) continue;  // a malformed value is ignored, as upstream logs and goes on
      out->push_back(PvTopology{pv_name, std::string(key), std::move(*zones)});
    }
  }
  return Status();
}

Status VolumeZone::PreFilter(CycleState& state, const Pod& pod, PreFilterResult*) {
  auto data = std::make_unique<VolumeZoneState>();
  if (Status s = PvTopologies(pod, &data->topologies); !s.IsSuccess()) return s;
  if (data->topologies.empty()) return Status(Code::kSkip);
  state.Write(std::string(kStateKey), std::move(data));
  return Status();
}

Status VolumeZone::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  if (pod.obj.spec().volumes().empty()) return Status();
  std::vector<PvTopology> computed;
  const std::vector<PvTopology>* topologies = &computed;
  if (const auto* data = state.ReadAs<VolumeZoneState>(kStateKey)) {
    topologies = &data->topologies;
  } else if (Status s = PvTopologies(pod, &computed); !s.IsSuccess()) {
    return s;  // upstream falls back to computing them when PreFilter left no state
  }
  const auto& labels = node.node()->labels();
  bool constrained = false;
  for (std::string_view key : kTopologyLabels) {
    if (labels.contains(std::string(key))) {
      constrained = true;
      break;
    }
  }
  if (!constrained) return Status();  // a single-zone cluster whose nodes carry no labels
  const bool ga_labels = handle_.features.volume_zone_reads_ga_labels;
  for (const PvTopology& t : *topologies) {
    auto it = labels.find(t.key);
    if (it == labels.end() && ga_labels) it = labels.find(std::string(GaLabel(t.key)));
    if (it == labels.end() || !t.values.contains(it->second)) {
      return Unresolvable(std::string(kErrReasonConflict));
    }
  }
  return Status();
}

std::vector<ClusterEvent> VolumeZone::EventsToRegister() const {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  return {event(resource::kStorageClass, action::kAdd),
          event(resource::kNode, action::kAdd | action::kUpdateNodeLabel),
          event(resource::kPersistentVolumeClaim, action::kAdd),
          event(resource::kPersistentVolume, action::kAdd | action::kUpdate)};
}

namespace {

Result<QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(const Pod& pod,
                                                                   const EventObjects& objects) {
  auto typed = As<k8s::PersistentVolumeClaim>(objects);
  if (!typed.ok()) return typed.error();
  // isPVCRequestedFromPod.
  return PodNamesClaim(pod, *typed->second) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

Result<QueueingHint> IsSchedulableAfterStorageClassAdded(const Pod&, const EventObjects& objects) {
  auto typed = As<k8s::StorageClass>(objects);
  if (!typed.ok()) return typed.error();
  const k8s::StorageClass& sc = *typed->second;
  return sc.has_volume_binding_mode() && sc.volume_binding_mode() == kWaitForFirstConsumer
             ? QueueingHint::kQueue
             : QueueingHint::kQueueSkip;
}

// getPVTopologies: each topology label the PV carries with a readable value, in label order.
std::vector<std::pair<std::string, std::set<std::string>>> PvTopologiesOf(
    const k8s::PersistentVolume& pv) {
  std::vector<std::pair<std::string, std::set<std::string>>> out;
  for (std::string_view key : kTopologyLabels) {
    auto it = pv.metadata().labels().find(std::string(key));
    if (it == pv.metadata().labels().end()) continue;
    if (auto zones = LabelZonesToSet(it->second)) out.emplace_back(std::string(key), *zones);
  }
  return out;
}

Result<QueueingHint> IsSchedulableAfterPersistentVolumeChange(const Pod&,
                                                              const EventObjects& objects) {
  auto typed = As<k8s::PersistentVolume>(objects);
  if (!typed.ok()) return typed.error();
  const auto [old_pv, new_pv] = *typed;
  if (old_pv == nullptr) return QueueingHint::kQueue;
  return PvTopologiesOf(*old_pv) != PvTopologiesOf(*new_pv) ? QueueingHint::kQueue
                                                            : QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeZone::EventsToRegisterWithHints() const {
  auto event = [](std::string_view resource, uint32_t action) {
    return ClusterEvent{std::string(resource), action, ""};
  };
  return {
      {event(resource::kStorageClass, action::kAdd), IsSchedulableAfterStorageClassAdded},
      {event(resource::kNode, action::kAdd | action::kUpdateNodeLabel), nullptr},
      {event(resource::kPersistentVolumeClaim, action::kAdd | action::kUpdateV1_37),
       IsSchedulableAfterPersistentVolumeClaimChange},
      {event(resource::kPersistentVolume, action::kAdd | action::kUpdateV1_37),
       IsSchedulableAfterPersistentVolumeChange},
  };
}

}  // namespace schedcheck::reference
