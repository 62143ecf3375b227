// ImageLocality for the fast engine: the plain rule (plugins/image_locality) with a batch Score
// that scores the nodes without images (most nodes of a synthetic cluster) as an empty sum
// without looking the pod's images up.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_IMAGE_LOCALITY_FAST_IMAGE_LOCALITY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_IMAGE_LOCALITY_FAST_IMAGE_LOCALITY_H_

#include <memory>

#include "reference/accel/batch_plugin.h"
#include "reference/plugins/image_locality/image_locality.h"

namespace schedcheck::reference {

class FastImageLocality final : public ImageLocality, public BatchScorePlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit FastImageLocality(const Handle& handle) : ImageLocality(handle) {}

  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_IMAGE_LOCALITY_FAST_IMAGE_LOCALITY_H_
