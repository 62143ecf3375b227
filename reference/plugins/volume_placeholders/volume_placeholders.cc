#include "reference/plugins/volume_placeholders/volume_placeholders.h"

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

class PlaceholderState final : public StateData {
 public:
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PlaceholderState>(*this);
  }
};

Status NotModelled() {
  return Status(Code::kUnschedulableAndUnresolvable, std::string(kVolumesNotModelled));
}

}  // namespace

// ---- VolumeBinding at 1.37

Result<std::unique_ptr<Plugin>> VolumeBindingV1_37Placeholder::New(const PluginArgs& args,
                                                                   const Handle&) {
  if (!args.is_null() && !args.is_object()) return Error{"VolumeBindingArgs: expected an object"};
  return std::unique_ptr<Plugin>(std::make_unique<VolumeBindingV1_37Placeholder>());
}

Status VolumeBindingV1_37Placeholder::PreFilter(CycleState& state, const Pod& pod,
                                                PreFilterResult*) {
  for (const auto& v : pod.obj.spec().volumes()) {
    if (v.has_persistent_volume_claim() || v.has_ephemeral()) return NotModelled();
  }
  state.Write(std::string(kStateKey), std::make_unique<PlaceholderState>());
  return Status(Code::kSkip);
}

Status VolumeBindingV1_37Placeholder::Filter(const CycleState& state, const Pod&, const NodeInfo&) {
  if (state.ReadAs<PlaceholderState>(kStateKey) == nullptr) return Status::Error("not found");
  return Status();
}

Status VolumeBindingV1_37Placeholder::Score(const CycleState&, const Pod&, const NodeInfo&,
                                            int64_t* score) {
  *score = 0;
  return Status();
}

Status VolumeBindingV1_37Placeholder::Reserve(CycleState& state, const Pod&, const std::string&) {
  if (state.ReadAs<PlaceholderState>(kStateKey) == nullptr) return Status::Error("not found");
  return Status();
}

void VolumeBindingV1_37Placeholder::Unreserve(CycleState&, const Pod&, const std::string&) {}

Status VolumeBindingV1_37Placeholder::PreBind(CycleState& state, const Pod&, const std::string&) {
  if (state.ReadAs<PlaceholderState>(kStateKey) == nullptr) return Status::Error("not found");
  return Status();
}

std::vector<ClusterEvent> VolumeBindingV1_37Placeholder::EventsToRegister() const {
  return VolumeBindingEvents();
}

// ---- NodeVolumeLimits at 1.37

Result<std::unique_ptr<Plugin>> NodeVolumeLimitsV1_37Placeholder::New(const PluginArgs& args,
                                                                      const Handle&) {
  if (!(args.is_null() || (args.is_object() && args.empty()))) {
    return Error{std::string(kName) + " takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeVolumeLimitsV1_37Placeholder>());
}

Status NodeVolumeLimitsV1_37Placeholder::PreFilter(CycleState&, const Pod& pod, PreFilterResult*) {
  for (const auto& v : pod.obj.spec().volumes()) {
    if (v.has_persistent_volume_claim() || v.has_ephemeral() || v.has_gce_persistent_disk() ||
        v.has_aws_elastic_block_store() || v.has_azure_disk() || v.has_rbd()) {
      return NotModelled();
    }
  }
  return Status(Code::kSkip);
}

Status NodeVolumeLimitsV1_37Placeholder::Filter(const CycleState&, const Pod&, const NodeInfo&) {
  return Status();
}

std::vector<ClusterEvent> NodeVolumeLimitsV1_37Placeholder::EventsToRegister() const {
  return {Event(resource::kCSINode, action::kAdd), Event(resource::kPod, action::kDelete)};
}

}  // namespace schedcheck::reference
