#include "reference/plugins/image_locality/image_locality.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kMiB = 1024 * 1024;
// Below this the image is cheap to pull anyway; every such sum scores 0.
constexpr int64_t kMinThreshold = 23 * kMiB;
constexpr int64_t kMaxContainerThreshold = 1000 * kMiB;

// scaledImageScore: the image size times the fraction of nodes holding it (float math, truncated).
int64_t ScaledImageScore(const ImageStateSummary& state, size_t total_num_nodes) {
  double spread = static_cast<double>(state.num_nodes) / static_cast<double>(total_num_nodes);
  return static_cast<int64_t>(static_cast<double>(state.size) * spread);
}

// sumImageScores: the scaled scores of the containers' images that are on the node (v1.27: the
// regular containers only; v1.37 adds the init containers).
int64_t SumImageScores(const NodeInfo& node,
                       const google::protobuf::RepeatedPtrField<k8s::Container>& containers,
                       size_t total_num_nodes) {
  int64_t sum = 0;
  for (const k8s::Container& container : containers) {
    auto it = node.image_states().find(NormalizedImageName(container.image()));
    // total_num_nodes > 0 whenever a node is being scored from the snapshot.
    if (it != node.image_states().end() && total_num_nodes > 0) {
      sum += ScaledImageScore(it->second, total_num_nodes);
    }
  }
  return sum;
}

}  // namespace

Result<std::unique_ptr<Plugin>> ImageLocality::New(const PluginArgs& args, const Handle& handle) {
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"ImageLocality: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<ImageLocality>(handle));
}

Status ImageLocality::Score([[maybe_unused]] const CycleState& state, const Pod& pod,
                            const NodeInfo& node, int64_t* score) {
  *score = 0;
  if (handle_.snapshot == nullptr) return Status::Error("ImageLocality: no snapshot");
  const size_t total_num_nodes = handle_.snapshot->size();
  const auto& containers = pod.obj.spec().containers();
  int64_t sum = SumImageScores(node, containers, total_num_nodes);
  int image_count = containers.size();
  if (handle_.features.image_locality_counts_init_containers) {
    // v1.37 also scores the init containers' images and counts them (and image volumes, which
    // the schema does not have) in the cap.
    const auto& init_containers = pod.obj.spec().init_containers();
    sum += SumImageScores(node, init_containers, total_num_nodes);
    image_count += init_containers.size();
  }
  *score = CalculateImagePriority(sum, image_count);
  return Status();
}

int64_t CalculateImagePriority(int64_t sum_scores, int num_containers) {
  int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum_scores < kMinThreshold) {
    sum_scores = kMinThreshold;
  } else if (sum_scores > max_threshold) {
    sum_scores = max_threshold;
  }
  return kMaxNodeScore * (sum_scores - kMinThreshold) / (max_threshold - kMinThreshold);
}

std::string NormalizedImageName(std::string_view name) {
  size_t colon = name.rfind(':');
  size_t slash = name.rfind('/');
  // Go's LastIndex gives -1 for "absent"; compare with that convention.
  long colon_pos = colon == std::string_view::npos ? -1 : static_cast<long>(colon);
  long slash_pos = slash == std::string_view::npos ? -1 : static_cast<long>(slash);
  std::string out(name);
  if (colon_pos <= slash_pos) out += ":latest";
  return out;
}

}  // namespace schedcheck::reference
