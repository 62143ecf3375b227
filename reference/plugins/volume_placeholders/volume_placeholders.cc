#include "reference/plugins/volume_placeholders/volume_placeholders.h"

namespace schedcheck::reference {
namespace {

bool NoArgs(const PluginArgs& args) { return args.is_null() || (args.is_object() && args.empty()); }

template <typename P>
Result<std::unique_ptr<Plugin>> MakeWithoutArgs(const PluginArgs& args) {
  if (!NoArgs(args)) return Error{std::string(P::kName) + " takes no arguments"};
  return std::unique_ptr<Plugin>(std::make_unique<P>());
}

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

// VolumeBinding's state: in v1.27 a pod without claims gets an empty state, so Reserve finds no
// per-node volumes and records "all bound", and PreBind has nothing to do.
class VolumeBindingState final : public StateData {
 public:
  bool all_bound = false;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(*this);
  }
};

}  // namespace

bool PodHasPersistentVolumeClaims(const Pod& pod) {
  for (const auto& v : pod.obj.spec().volumes()) {
    if (v.has_persistent_volume_claim()) return true;
  }
  return false;
}

Status VolumePlaceholderPreFilter(const Pod& pod) {
  if (PodHasPersistentVolumeClaims(pod)) {
    return Status(Code::kUnschedulableAndUnresolvable, std::string(kVolumesNotModelled));
  }
  return Status(Code::kSkip);
}

// ---- VolumeRestrictions

Result<std::unique_ptr<Plugin>> VolumeRestrictions::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<VolumeRestrictions>(args);
}
Status VolumeRestrictions::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  return VolumePlaceholderPreFilter(pod);
}
Status VolumeRestrictions::Filter(const CycleState&, const Pod&, const NodeInfo&) {
  return Status();
}
std::vector<ClusterEvent> VolumeRestrictions::EventsToRegister() const {
  return {Event(resource::kPod, action::kDelete), Event(resource::kNode, action::kAdd),
          Event(resource::kPersistentVolumeClaim, action::kAdd | action::kUpdate)};
}

// ---- non-CSI limits

Status NonCSILimits::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  return VolumePlaceholderPreFilter(pod);
}
Status NonCSILimits::Filter(const CycleState&, const Pod&, const NodeInfo&) { return Status(); }
std::vector<ClusterEvent> NonCSILimits::EventsToRegister() const {
  return {Event(resource::kNode, action::kAdd), Event(resource::kPod, action::kDelete)};
}
Result<std::unique_ptr<Plugin>> EBSLimits::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<EBSLimits>(args);
}
Result<std::unique_ptr<Plugin>> GCEPDLimits::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<GCEPDLimits>(args);
}
Result<std::unique_ptr<Plugin>> AzureDiskLimits::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<AzureDiskLimits>(args);
}

// ---- NodeVolumeLimits (CSI)

Result<std::unique_ptr<Plugin>> NodeVolumeLimits::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<NodeVolumeLimits>(args);
}
Status NodeVolumeLimits::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  return VolumePlaceholderPreFilter(pod);
}
Status NodeVolumeLimits::Filter(const CycleState&, const Pod&, const NodeInfo&) { return Status(); }
std::vector<ClusterEvent> NodeVolumeLimits::EventsToRegister() const {
  return {Event(resource::kCSINode, action::kAdd), Event(resource::kPod, action::kDelete)};
}

// ---- VolumeBinding

Result<std::unique_ptr<Plugin>> VolumeBinding::New(const PluginArgs& args, const Handle&) {
  if (!args.is_null()) {
    if (!args.is_object()) return Error{"VolumeBindingArgs: expected an object"};
    for (const auto& [key, value] : args.items()) {
      if (key == "apiVersion" || key == "kind") continue;
      if (key == "bindTimeoutSeconds") {
        if (!value.is_number_integer() || value.get<int64_t>() < 0) {
          return Error{"bindTimeoutSeconds: Invalid value: must be a non-negative integer"};
        }
      } else if (key == "shape") {
        // v1.27 validation rejects a shape while the VolumeCapacityPriority gate is off.
        if (!value.is_null() && !(value.is_array() && value.empty())) {
          return Error{
              "shape: Invalid value: unsupported while VolumeCapacityPriority is disabled"};
        }
      } else {
        return Error{"VolumeBindingArgs: unknown field \"" + key + "\""};
      }
    }
  }
  return std::unique_ptr<Plugin>(std::make_unique<VolumeBinding>());
}

Status VolumeBinding::PreFilter(CycleState& state, const Pod& pod, PreFilterResult*) {
  Status s = VolumePlaceholderPreFilter(pod);
  if (s.IsSkip()) state.Write(std::string(kStateKey), std::make_unique<VolumeBindingState>());
  return s;
}

Status VolumeBinding::Filter(const CycleState& state, const Pod&, const NodeInfo&) {
  if (state.ReadAs<VolumeBindingState>(kStateKey) == nullptr) return Status::Error("not found");
  return Status();
}

Status VolumeBinding::Score(const CycleState&, const Pod&, const NodeInfo&, int64_t* score) {
  *score = 0;  // no capacity scorer without the VolumeCapacityPriority gate
  return Status();
}

Status VolumeBinding::Reserve(CycleState& state, const Pod&, const std::string&) {
  auto* s = state.ReadAs<VolumeBindingState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  s->all_bound = true;  // no volumes were found for the node: nothing to bind
  return Status();
}

void VolumeBinding::Unreserve(CycleState&, const Pod&, const std::string&) {}

Status VolumeBinding::PreBind(CycleState& state, const Pod&, const std::string& node) {
  auto* s = state.ReadAs<VolumeBindingState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->all_bound) return Status();
  return Status::Error("no pod volumes found for node \"" + node + "\"");
}

std::vector<ClusterEvent> VolumeBinding::EventsToRegister() const {
  const uint32_t add_update = action::kAdd | action::kUpdate;
  return {Event(resource::kStorageClass, add_update),
          Event(resource::kPersistentVolumeClaim, add_update),
          Event(resource::kPersistentVolume, add_update),
          Event(resource::kNode, action::kAdd | action::kUpdateNodeLabel),
          Event(resource::kCSINode, add_update),
          Event(resource::kCSIDriver, add_update),
          Event(resource::kCSIStorageCapacity, add_update)};
}

// ---- VolumeZone

Result<std::unique_ptr<Plugin>> VolumeZone::New(const PluginArgs& args, const Handle&) {
  return MakeWithoutArgs<VolumeZone>(args);
}
Status VolumeZone::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  return VolumePlaceholderPreFilter(pod);
}
Status VolumeZone::Filter(const CycleState&, const Pod&, const NodeInfo&) { return Status(); }
std::vector<ClusterEvent> VolumeZone::EventsToRegister() const {
  return {Event(resource::kStorageClass, action::kAdd),
          Event(resource::kNode, action::kAdd | action::kUpdateNodeLabel),
          Event(resource::kPersistentVolumeClaim, action::kAdd),
          Event(resource::kPersistentVolume, action::kAdd | action::kUpdate)};
}

}  // namespace schedcheck::reference
