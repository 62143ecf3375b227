#include "reference/accel/image_locality/fast_image_locality.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> FastImageLocality::New(const PluginArgs& args,
                                                       const Handle& handle) {
  Result<std::unique_ptr<Plugin>> plain = ImageLocality::New(args, handle);
  if (!plain.ok()) return plain.error();
  return std::unique_ptr<Plugin>(std::make_unique<FastImageLocality>(handle));
}

Status FastImageLocality::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                     int64_t* scores) {
  const int64_t no_images = CalculateImagePriority(0, pod.obj.spec().containers().size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (handle_.snapshot != nullptr && nodes[i]->image_states().empty()) {
      scores[i] = no_images;
      continue;
    }
    Status s = Score(state, pod, *nodes[i], &scores[i]);
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

}  // namespace schedcheck::reference
