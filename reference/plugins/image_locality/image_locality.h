// ImageLocality (imagelocality/image_locality.go, v1.27): a Score-only plugin favouring nodes
// that already hold the pod's container images, weighted by image size and by how widely the
// image is spread (to avoid piling pods onto the one node that has it).
// Reads NodeInfo::image_states(), which the cache fills (size from the cluster-wide image
// state, num_nodes = nodes holding it when this node was last added or updated).
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_IMAGE_LOCALITY_IMAGE_LOCALITY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_IMAGE_LOCALITY_IMAGE_LOCALITY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// normalizedImageName: ":latest" is appended when the name carries no tag (no ':' after the
// last '/'). Digests ("@sha256:...") already contain a ':' and are left alone.
std::string NormalizedImageName(std::string_view name);

// calculatePriority: the summed image score clamped to [23 MiB, 1000 MiB * containers] and
// mapped linearly onto 0..100.
int64_t CalculateImagePriority(int64_t sum_scores, int num_containers);

class ImageLocality : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "ImageLocality";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit ImageLocality(const Handle& handle) : handle_(handle) {}

  std::string_view Name() const override { return kName; }
  // Uses only spec.containers (init containers count from v1.30). Error without a snapshot.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;

 protected:
  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_IMAGE_LOCALITY_IMAGE_LOCALITY_H_
