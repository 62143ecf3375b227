#include "reference/accel/volume_binding/fast_volume_binding.h"

#include "reference/plugins/volume_helper/volume_helper.h"

namespace schedcheck::reference {

template <typename Plain>
void FastVolumeBindingOf<Plain>::FilterNodes(const CycleState& state, const Pod& pod,
                                             NodeBatch nodes,
                                             std::vector<BatchRejection>* rejected) {
  const auto* data = state.ReadAs<VolumeBindingState>(this->kStateKey);
  // Claims to bind or provision need FindPodVolumes per node.
  if (data == nullptr || data->claims == nullptr || !data->claims->unbound_delay_binding.empty()) {
    FilterEachNode(*this, state, pod, nodes, rejected);
    return;
  }
  // FindPodVolumes' checkBoundClaims: the first claim whose volume is missing fails every node;
  // a volume without required node affinity fits every node.
  bool missing = false;
  for (const volume_binding::Claim& claim : data->claims->bound) {
    const volume_binding::Volume* pv =
        this->cache_.GetPV(StorageObjectsOf(this->handle_), claim.spec().volume_name());
    if (pv == nullptr) {
      missing = true;
      break;
    }
    if (pv->spec().has_node_affinity() && pv->spec().node_affinity().has_required()) {
      FilterEachNode(*this, state, pod, nodes, rejected);
      return;
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    const uint32_t index = static_cast<uint32_t>(i);
    if (node.node() == nullptr) {
      rejected->push_back({index, Status::Error("node not found")});
    } else if (missing) {
      rejected->push_back({index, Status(Code::kUnschedulableAndUnresolvable,
                                         std::string(volume_binding::kErrReasonPVNotExist))});
    } else {
      (*data->by_node)[node.node()->name()] = volume_binding::PodVolumes{};
    }
  }
}

template class FastVolumeBindingOf<VolumeBinding>;
template class FastVolumeBindingOf<VolumeBindingV1_37>;

Result<std::unique_ptr<Plugin>> FastVolumeBinding::NewPlain(const PluginArgs& args,
                                                            const Handle& handle) {
  return VolumeBinding::New(args, handle);
}

Result<std::unique_ptr<Plugin>> FastVolumeBinding::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = NewPlain(args, handle);
  if (!plain.ok()) return plain.error();
  // The plain plugin holds the configured arguments; the fast one takes them over.
  const auto& checked = dynamic_cast<const VolumeBinding&>(**plain);
  if (handle.features.volume_binding_pre_score) {
    auto fast = std::make_unique<FastVolumeBindingOf<VolumeBindingV1_37>>(handle);
    fast->CopyArgsFrom(checked);
    return std::unique_ptr<Plugin>(std::move(fast));
  }
  auto fast = std::make_unique<FastVolumeBindingOf<VolumeBinding>>(handle);
  fast->CopyArgsFrom(checked);
  return std::unique_ptr<Plugin>(std::move(fast));
}

}  // namespace schedcheck::reference
