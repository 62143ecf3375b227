#include "reference/plugins/volume_binding/volume_binding.h"

#include <cmath>
#include <map>

#include "reference/api/quantity.h"
#include "reference/base/go_int.h"
#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {
namespace {

using volume_binding::PodVolumeClaims;
using volume_binding::PodVolumes;

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

// SetDefaults_VolumeBindingArgs and validateFunctionShape at v1.37 (StorageCapacityScoring on):
// an absent or empty shape is {0%: 10, 100%: 0}; scores are scaled by MaxNodeScore / 10.
Result<std::vector<FunctionShapePoint>> ParseVolumeBindingShape(const nlohmann::json& shape,
                                                                const Features& features) {
  constexpr int64_t kScale = 10;  // framework.MaxNodeScore / config.MaxCustomPriorityScore
  if (shape.is_null() || (shape.is_array() && shape.empty())) {
    return std::vector<FunctionShapePoint>{{0, 10 * kScale}, {100, 0}};
  }
  auto points = ParseFunctionShape(shape, "shape", features);
  if (!points.ok()) return points.error();
  for (FunctionShapePoint& p : *points) p.score *= kScale;
  return points;
}

// The storage a class would use and have on a node (StorageResource).
struct ClassResource {
  int64_t requested = 0;
  int64_t capacity = 0;
};

int64_t StorageBytes(const google::protobuf::Map<std::string, std::string>& quantities) {
  auto it = quantities.find("storage");
  if (it == quantities.end()) return 0;
  Result<int64_t> bytes = ParseResourceQuantity("storage", it->second);
  return bytes.ok() ? *bytes : 0;
}

// buildScorerFunction's closure: each class's utilization through the shape, averaged and
// rounded half away from zero.
int64_t ScoreClasses(const std::function<int64_t(int64_t)>& shape,
                     const std::map<std::string, ClassResource>& classes) {
  if (classes.empty()) return 0;
  int64_t node_score = 0;
  for (const auto& [name, r] : classes) {
    node_score += (r.capacity == 0 || r.requested > r.capacity)
                      ? shape(100)
                      : shape(GoMul(r.requested, 100) / r.capacity);
  }
  return static_cast<int64_t>(
      std::round(static_cast<double>(node_score) / static_cast<double>(classes.size())));
}

}  // namespace

Result<std::unique_ptr<Plugin>> VolumeBinding::New(const PluginArgs& args, const Handle& handle) {
  const bool pre_score = handle.features.volume_binding_pre_score;
  nlohmann::json shape;
  int64_t bind_timeout_seconds = 600;  // the v1 default
  if (!args.is_null()) {
    if (!args.is_object()) return Error{"VolumeBindingArgs: expected an object"};
    for (const auto& [key, value] : args.items()) {
      if (key == "apiVersion" || key == "kind") continue;
      if (key == "bindTimeoutSeconds") {
        if (!value.is_number_integer() || value.get<int64_t>() < 0) {
          return Error{"bindTimeoutSeconds: Invalid value: must be a non-negative integer"};
        }
        bind_timeout_seconds = value.get<int64_t>();
      } else if (key == "shape") {
        shape = value;
        // Without the PreScore (v1.27, whose VolumeCapacityPriority gate is off), validation
        // rejects a shape.
        if (!pre_score && !shape.is_null() && !(shape.is_array() && shape.empty())) {
          return Error{
              "shape: Invalid value: unsupported while VolumeCapacityPriority is disabled"};
        }
      } else {
        return Error{"VolumeBindingArgs: unknown field \"" + key + "\""};
      }
    }
  }
  if (!pre_score) {
    auto plugin = std::make_unique<VolumeBinding>(handle);
    plugin->bind_timeout_seconds_ = bind_timeout_seconds;
    return std::unique_ptr<Plugin>(std::move(plugin));
  }
  auto plugin = std::make_unique<VolumeBindingV1_37>(handle);
  plugin->bind_timeout_seconds_ = bind_timeout_seconds;
  if (!handle.features.storage_capacity_scoring) {
    // No scorer (Score gives 0, PreScore skips); a shape would take effect once the gate is on.
    if (!shape.is_null()) {
      return Error{
          "shape: Invalid value: unexpected field `shape`, remove it or turn on the feature gate "
          "StorageCapacityScoring"};
    }
    return std::unique_ptr<Plugin>(std::move(plugin));
  }
  auto points = ParseVolumeBindingShape(shape, handle.features);
  if (!points.ok()) return points.error();
  plugin->scorer_ = BuildBrokenLinearFunction(std::move(*points));
  return std::unique_ptr<Plugin>(std::move(plugin));
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
  if (handle_.features.volume_binding_narrows_to_bound_pv_nodes) {
    if (auto eligible = binder_.GetEligibleNodes(claims->bound)) {
      result->all_nodes = false;
      result->node_names = std::move(*eligible);
    }
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

Status VolumeBinding::Score(const CycleState& state, const Pod&, const NodeInfo& node,
                            int64_t* score) {
  *score = 0;
  if (!scorer_) return Status();
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  if (node.node() == nullptr) return Status::Error("node not found");
  auto it = data->by_node->find(node.node()->name());
  if (it == data->by_node->end()) return Status();
  const PodVolumes& volumes = it->second;
  std::map<std::string, ClassResource> classes;
  if (!volumes.static_bindings.empty()) {
    // StorageCapacityScoring scores provisioning only when nothing is bound statically; then the
    // static bindings' claims and volumes are grouped by the volume's class.
    for (const volume_binding::Binding& b : volumes.static_bindings) {
      ClassResource& r = classes[b.pv.spec().storage_class_name()];
      r.requested += StorageBytes(b.pvc.spec().resources().requests());
      r.capacity += StorageBytes(b.pv.spec().capacity());
    }
  } else {
    for (const volume_binding::DynamicProvision& p : volumes.dynamic_provisions) {
      if (!p.node_capacity) continue;
      if (!p.node_capacity->has_capacity()) {
        // Sufficient by maximumVolumeSize alone, it has no capacity to score against: v1.37.2
        // dereferences the missing capacity and panics, taking kube-scheduler down. The reference
        // fails the attempt instead (docs/DEVIATIONS.md).
        return Status::Error("CSIStorageCapacity \"" + p.node_capacity->metadata().namespace_() +
                             "/" + p.node_capacity->metadata().name() +
                             "\" has maximumVolumeSize but no capacity: kube-scheduler v1.37.2 "
                             "panics here (nil pointer dereference in VolumeBinding Score)");
      }
      ClassResource& r = classes[p.pvc.spec().storage_class_name()];
      // One capacity per class however many of its claims the pod has: assigned, not added.
      const std::string* capacity =
          p.node_capacity->has_capacity() ? &p.node_capacity->capacity() : nullptr;
      Result<int64_t> bytes =
          capacity ? ParseResourceQuantity("storage", *capacity) : Result<int64_t>(0);
      r.capacity = bytes.ok() ? *bytes : 0;
      r.requested += StorageBytes(p.pvc.spec().resources().requests());
    }
  }
  *score = ScoreClasses(scorer_, classes);
  return Status();
}

bool VolumeBinding::ScoresZeroOnEveryNode(const CycleState& state) const {
  if (!scorer_) return true;
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  return data != nullptr && (!data->claims || data->claims->unbound_delay_binding.empty());
}

Status VolumeBindingV1_37::PreScore(CycleState& state, const Pod&,
                                    const std::vector<const NodeInfo*>&) {
  if (!scorer_) return Status(Code::kSkip);  // StorageCapacityScoring off
  // StorageCapacityScoring is on: every pod is scored (hasStaticBindings does not matter).
  if (state.ReadAs<VolumeBindingState>(kStateKey) == nullptr) return Status::Error("not found");
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

Status VolumeBinding::PreBindPreFlight(CycleState& state, const Pod&, const std::string& node) {
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  if (data->all_bound) return Status(Code::kSkip);
  if (!data->by_node->count(node)) {
    return Status::Error("no pod volume found for node \"" + node + "\"");
  }
  return Status();
}

Status VolumeBinding::PreBind(CycleState& state, const Pod& pod, const std::string& node) {
  auto* data = state.ReadAs<VolumeBindingState>(kStateKey);
  if (data == nullptr) return Status::Error("not found");
  if (data->all_bound) return Status();
  auto it = data->by_node->find(node);
  if (it == data->by_node->end()) {
    return Status::Error(std::string(handle_.features.reworded_messages
                                         ? "no pod volume found for node \""
                                         : "no pod volumes found for node \"") +
                         node + "\"");
  }
  if (data->poll != nullptr) return LookAgain(pod, data->poll->written, &data->poll->looks);
  PodVolumes written;
  Status status = BindPodVolumes(pod, it->second, &written);
  if (status.IsWait()) {
    data->poll = std::make_shared<VolumeBindingState::Poll>();
    data->poll->written = std::move(written);
  }
  return status;
}

Status VolumeBinding::BindPodVolumes(const Pod& pod, const PodVolumes& volumes,
                                     PodVolumes* written) const {
  VolumeApi* api = handle_.volume_api;
  if (api == nullptr) {
    // bindAPIUpdate writes each PV's claimRef, then each provisioned claim's selected-node
    // annotation. Without an API server holding volumes (the replay's volume controllers off),
    // the first write fails as NotFound, as it does in the kube adapters
    // (harness/kube/README.md, "No PV controller"; docs/DEVIATIONS.md).
    if (!volumes.static_bindings.empty()) {
      return Status::Error("persistentvolumes \"" +
                           volumes.static_bindings.front().pv.metadata().name() + "\" not found");
    }
    if (!volumes.dynamic_provisions.empty()) {
      return Status::Error("persistentvolumeclaims \"" +
                           volumes.dynamic_provisions.front().pvc.metadata().name() +
                           "\" not found");
    }
    return Status();
  }
  // bindAPIUpdate: the writes in order, each kept as the API server returned it. A failed write
  // ends PreBind (Unreserve then reverts every assumed object).
  for (const volume_binding::Binding& b : volumes.static_bindings) {
    Result<k8s::PersistentVolume> pv = api->UpdatePersistentVolume(b.pv);
    if (!pv.ok()) return Status::Error(pv.message());
    written->static_bindings.push_back(volume_binding::Binding{std::move(*pv), b.pvc});
  }
  for (const volume_binding::DynamicProvision& provision : volumes.dynamic_provisions) {
    Result<k8s::PersistentVolumeClaim> claim = api->UpdatePersistentVolumeClaim(provision.pvc);
    if (!claim.ok()) return Status::Error(claim.message());
    written->dynamic_provisions.push_back(
        volume_binding::DynamicProvision{std::move(*claim), std::nullopt});
  }
  // The poll (every second, the first look a second after the writes, up to the bind timeout).
  api->Settle();
  // v1.37 polls under a context whose deadline is the timeout: 0 has passed before any look.
  // (v1.27's wait.Poll has no timer then, and polls until bound.)
  if (handle_.features.volume_bind_wait_has_deadline && bind_timeout_seconds_ == 0) {
    return Status::Error(BindTimeoutMessage());
  }
  // Controllers that answer later: the binding runs PreBind again for each look (LookAgain).
  if (api->AnswersLater()) return Status(Code::kWait);
  // Controllers that answer at once: one look after they have settled decides; still unbound
  // then is the poll's timeout.
  Result<bool> bound = binder_.CheckBindings(pod, pod.node_name(), *written);
  if (!bound.ok()) return Status::Error("binding volumes: " + bound.message());
  return *bound ? Status() : Status::Error(BindTimeoutMessage());
}

Status VolumeBinding::LookAgain(const Pod& pod, const PodVolumes& written, int64_t* looks) const {
  ++*looks;
  const bool timed_out = bind_timeout_seconds_ > 0 && *looks >= bind_timeout_seconds_;
  // v1.37: at the timeout the context's deadline has passed, which the poll checks before it
  // looks (docs/FORMATS.md, "Volume controllers").
  if (timed_out && handle_.features.volume_bind_wait_has_deadline) {
    return Status::Error(BindTimeoutMessage());
  }
  Result<bool> bound = binder_.CheckBindings(pod, pod.node_name(), written);
  if (!bound.ok()) return Status::Error("binding volumes: " + bound.message());
  if (*bound) return Status();
  // v1.27: wait.Poll looks once more when its timer closes the channel, then times out. A
  // timeout of 0 never fires.
  return timed_out ? Status::Error(BindTimeoutMessage()) : Status(Code::kWait);
}

std::string VolumeBinding::BindTimeoutMessage() const {
  return handle_.features.volume_bind_wait_has_deadline
             ? "binding volumes: context deadline exceeded"
             : "binding volumes: timed out waiting for the condition";
}

std::vector<ClusterEvent> VolumeBinding::EventsToRegister() const { return VolumeBindingEvents(); }

}  // namespace schedcheck::reference
