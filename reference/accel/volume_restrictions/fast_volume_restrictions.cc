#include "reference/accel/volume_restrictions/fast_volume_restrictions.h"

#include <algorithm>

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastVolumeRestrictions::New(const PluginArgs& args,
                                                            const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = VolumeRestrictions::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastVolumeRestrictions>(handle));
}

void FastVolumeRestrictions::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                         std::vector<BatchRejection>* rejected) {
  const auto& volumes = pod.obj.spec().volumes();
  if (nodes.empty() || std::any_of(volumes.begin(), volumes.end(), [](const k8s::Volume& v) {
        return NeedsRestrictionsCheck(v);
      })) {
    FilterEachNode(*this, state, pod, nodes, rejected);
    return;
  }
  // No inline disk: the first node's status is every node's.
  const Status s = Filter(state, pod, *nodes[0]);
  if (s.IsSuccess()) return;
  for (size_t i = 0; i < nodes.size(); ++i) rejected->push_back({static_cast<uint32_t>(i), s});
}

}  // namespace schedcheck::reference
