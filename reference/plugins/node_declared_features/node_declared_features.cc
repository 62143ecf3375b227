#include "reference/plugins/node_declared_features/node_declared_features.h"

#include <algorithm>

namespace schedcheck::reference {
namespace {

constexpr std::string_view kRestartAllContainers = "RestartAllContainersOnContainerExits";
constexpr std::string_view kUserNamespacesHostNetwork = "UserNamespacesHostNetworkSupport";
constexpr std::string_view kVolumeBindMountOptions = "VolumeBindMountOptions";

bool HasRestartAllContainersRule(const google::protobuf::RepeatedPtrField<k8s::Container>& cs) {
  for (const k8s::Container& c : cs) {
    for (const k8s::ContainerRestartRule& rule : c.restart_policy_rules()) {
      if (rule.action() == "RestartAllContainers") return true;
    }
  }
  return false;
}

bool HasBindMountOptions(const google::protobuf::RepeatedPtrField<k8s::Container>& cs) {
  for (const k8s::Container& c : cs) {
    for (const k8s::VolumeMount& m : c.volume_mounts()) {
      if (!m.bind_mount_options().empty()) return true;
    }
  }
  return false;
}

// Feature.InferForScheduling of each registry entry; the six not listed never require anything
// for scheduling at v1.37 (they matter only to pod updates, or not yet).
bool InferForScheduling(std::string_view feature, const k8s::PodSpec& spec) {
  if (feature == kRestartAllContainers) {
    return HasRestartAllContainersRule(spec.containers()) ||
           HasRestartAllContainersRule(spec.init_containers());
  }
  if (feature == kUserNamespacesHostNetwork) {
    return spec.host_network() && spec.has_host_users() && !spec.host_users();
  }
  if (feature == kVolumeBindMountOptions) {
    return HasBindMountOptions(spec.containers()) || HasBindMountOptions(spec.init_containers());
  }
  return false;
}

}  // namespace

const std::vector<std::string_view>& DeclaredFeatureRegistry() {
  static const std::vector<std::string_view> registry = [] {
    std::vector<std::string_view> names = {
        "DRANodeAllocatableResources",
        "DRAOptionalNodeOperations",
        "ExtendWebSocketsToKubelet",
        "InPlacePodLevelResourcesVerticalScaling",
        "InPlacePodVerticalScalingInitContainers",
        "InPlacePodVerticalScalingMemoryBackedVolumes",
        kRestartAllContainers,
        kUserNamespacesHostNetwork,
        kVolumeBindMountOptions,
    };
    std::sort(names.begin(), names.end());
    return names;
  }();
  return registry;
}

std::vector<std::string_view> InferForPodScheduling(const k8s::PodSpec& spec) {
  std::vector<std::string_view> reqs;
  for (std::string_view feature : DeclaredFeatureRegistry()) {
    if (InferForScheduling(feature, spec)) reqs.push_back(feature);
  }
  return reqs;
}

std::vector<std::string_view> TryMapDeclaredFeatures(
    const google::protobuf::RepeatedPtrField<std::string>& declared) {
  const std::vector<std::string_view>& registry = DeclaredFeatureRegistry();
  std::vector<std::string_view> found;
  size_t i = 0, j = 0;
  while (i < static_cast<size_t>(declared.size()) && j < registry.size()) {
    const std::string_view name = declared.Get(static_cast<int>(i));
    if (name == registry[j]) {
      found.push_back(registry[j]);
      ++i;
      ++j;
    } else if (name < registry[j]) {
      ++i;  // unknown: dropped
    } else {
      ++j;
    }
  }
  return found;
}

Result<std::unique_ptr<Plugin>> NodeDeclaredFeatures::New(const PluginArgs& args,
                                                          const Handle& handle) {
  if (!handle.features.node_declared_features) {
    return Error{"NodeDeclaredFeatures: not a plugin of kube-scheduler 1.27 (added in 1.35)"};
  }
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"NodeDeclaredFeatures: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<NodeDeclaredFeatures>());
}

std::vector<ClusterEventWithHint> NodeDeclaredFeatures::EventsToRegisterWithHints() const {
  auto after_node_change = [](const Pod&, const EventObjects& e) -> Result<QueueingHint> {
    if (e.old_node == nullptr) return QueueingHint::kQueue;
    const auto& before = e.old_node->obj.status().declared_features();
    const auto& after = e.new_node->obj.status().declared_features();
    const bool same =
        before.size() == after.size() && std::equal(before.begin(), before.end(), after.begin());
    return same ? QueueingHint::kQueueSkip : QueueingHint::kQueue;
  };
  auto after_target_pod_update = [](const Pod&, const EventObjects& e) -> Result<QueueingHint> {
    return InferForPodScheduling(e.old_pod->obj.spec()) ==
                   InferForPodScheduling(e.new_pod->obj.spec())
               ? QueueingHint::kQueueSkip
               : QueueingHint::kQueue;
  };
  return {
      {{std::string(resource::kNode), action::kAdd | action::kUpdateNodeDeclaredFeature, ""},
       after_node_change},
      {{std::string(resource::kTargetPod), action::kUpdateV1_37, ""}, after_target_pod_update},
  };
}

Status NodeDeclaredFeatures::PreFilter(CycleState& state, const Pod& pod,
                                       [[maybe_unused]] PreFilterResult* result) {
  std::vector<std::string_view> reqs = InferForPodScheduling(pod.obj.spec());
  if (reqs.empty()) return Status(Code::kSkip);
  state.Write(std::string(kPreFilterStateKey), std::make_unique<PreFilterState>(std::move(reqs)));
  return Status();
}

Status NodeDeclaredFeatures::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                    const NodeInfo& node) {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycle-state: not found");
  }
  if (node.node() == nullptr) return Status::Error("node not found");
  const std::vector<std::string_view> declared =
      TryMapDeclaredFeatures(node.node()->obj.status().declared_features());
  for (std::string_view req : s->reqs) {
    if (std::find(declared.begin(), declared.end(), req) == declared.end()) {
      return Status(Code::kUnschedulableAndUnresolvable,
                    std::string(kErrReasonUnsatisfiedRequirements));
    }
  }
  return Status();
}

}  // namespace schedcheck::reference
