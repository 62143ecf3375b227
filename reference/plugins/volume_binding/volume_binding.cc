#include "reference/plugins/volume_binding/volume_binding.h"

#include <map>

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

using volume_binding::PodVolumeClaims;
using volume_binding::PodVolumes;

class VolumeBindingState final : public StateData {
 public:
  bool all_bound = false;
  // Null for a pod without claims (PreFilter's empty state).
  std::shared_ptr<PodVolumeClaims> claims;
  // Filter runs once per node and may not change the shared state: each node's result is kept
  // in a map the clones share, as upstream's stateData shares its map under a lock.
  std::shared_ptr<std::map<std::string, PodVolumes>> by_node =
      std::make_shared<std::map<std::string, PodVolumes>>();
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(*this);
  }
};

// podHasPVCs: whether the pod has claim or ephemeral volumes, or the error that rejects it.
Result<bool> PodHasClaims(const Pod& pod, const ClusterObjects& objects) {
  bool has = false;
  for (const auto& volume : pod.obj.spec().volumes()) {
    std::string name;
    bool ephemeral = false;
    if (!ClaimNameOf(pod, volume, &name, &ephemeral)) continue;
    has = true;
    const k8s::PersistentVolumeClaim* claim = objects.FindClaim(pod.ns(), name);
    if (claim == nullptr) {
      if (ephemeral) {
        return Error{
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" +
            name + "\""};
      }
      return Error{ListerNotFound(lister_resource::kPersistentVolumeClaim, name)};
    }
    if (claim->status().phase() == "Lost") {
      return Error{"persistentvolumeclaim \"" + claim->metadata().name() +
                   "\" bound to non-existent persistentvolume \"" + claim->spec().volume_name() +
                   "\""};
    }
    if (!claim->metadata().deletion_timestamp().empty()) {
      return Error{"persistentvolumeclaim \"" + claim->metadata().name() + "\" is being deleted"};
    }
    if (ephemeral) {
      if (std::string err = EphemeralClaimNotForPod(pod, *claim); !err.empty()) return Error{err};
    }
  }
  return has;
}

}  // namespace

Result<std::unique_ptr<Plugin>> VolumeBinding::New(const PluginArgs& args, const Handle& handle) {
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
  return std::unique_ptr<Plugin>(std::make_unique<VolumeBinding>(handle));
}

Status VolumeBinding::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  Result<bool> has = PodHasClaims(pod, StorageObjectsOf(handle_));
  if (!has.ok()) return Status(Code::kUnschedulableAndUnresolvable, has.message());
  if (!*has) {
    state.Write(std::string(kStateKey), std::make_unique<VolumeBindingState>());
    return Status(Code::kSkip);
  }
  Result<PodVolumeClaims> claims = binder_.GetPodVolumeClaims(pod);
  if (!claims.ok()) return Status::Error(claims.message());
  if (!claims->unbound_immediate.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  "pod has unbound immediate PersistentVolumeClaims");
  }
  if (auto eligible = binder_.GetEligibleNodes(claims->bound)) {
    result->all_nodes = false;
    result->node_names = std::move(*eligible);
  }
  auto data = std::make_unique<VolumeBindingState>();
  data->claims = std::make_shared<PodVolumeClaims>(std::move(*claims));
  state.Write(std::string(kStateKey), std::move(data));
  return Status();
}

Status VolumeBinding::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  if (node.node() == nullptr) return Status::Error("node not found");
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  static const PodVolumeClaims kNoClaims;
  PodVolumes volumes;
  Result<std::vector<std::string>> reasons =
      binder_.FindPodVolumes(pod, data->claims ? *data->claims : kNoClaims, *node.node(), &volumes);
  if (!reasons.ok()) return Status::Error(reasons.message());
  if (!reasons->empty()) return Status(Code::kUnschedulableAndUnresolvable, std::move(*reasons));
  (*data->by_node)[node.node()->name()] = std::move(volumes);
  return Status();
}

Status VolumeBinding::Score(const CycleState&, const Pod&, const NodeInfo&, int64_t* score) {
  *score = 0;
  return Status();
}

Status VolumeBinding::Reserve(CycleState& state, const Pod& pod, const std::string& node) {
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  auto it = data->by_node->find(node);
  if (it == data->by_node->end()) {
    data->all_bound = true;
    return Status();
  }
  Result<bool> all_bound = binder_.AssumePodVolumes(pod, node, &it->second);
  if (!all_bound.ok()) return Status::Error(all_bound.message());
  data->all_bound = *all_bound;
  return Status();
}

void VolumeBinding::Unreserve(CycleState& state, const Pod&, const std::string& node) {
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return;
  auto it = data->by_node->find(node);
  if (it != data->by_node->end()) binder_.RevertAssumedPodVolumes(it->second);
}

Status VolumeBinding::PreBind(CycleState& state, const Pod&, const std::string& node) {
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  if (data->all_bound) return Status();
  auto it = data->by_node->find(node);
  if (it == data->by_node->end()) {
    return Status::Error("no pod volumes found for node \"" + node + "\"");
  }
  // BindPodVolumes writes each PV's claimRef, then each provisioned claim's selected-node
  // annotation, through the API server, then waits for the PV controller. Replay has no API
  // server to write to: the first write fails as NotFound, as it does in the kube adapters
  // (harness/kube/README.md, "No PV controller"; docs/DEVIATIONS.md).
  if (!it->second.static_bindings.empty()) {
    return Status::Error("persistentvolumes \"" +
                         it->second.static_bindings.front().pv.metadata().name() + "\" not found");
  }
  if (!it->second.dynamic_provisions.empty()) {
    return Status::Error("persistentvolumeclaims \"" +
                         it->second.dynamic_provisions.front().metadata().name() + "\" not found");
  }
  return Status();
}

std::vector<ClusterEvent> VolumeBinding::EventsToRegister() const { return VolumeBindingEvents(); }

}  // namespace schedcheck::reference
