#include "reference/plugins/image_locality/image_locality.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

constexpr int64_t kMB = 1024 * 1024;

PodPtr ImagesPod(const std::vector<std::string>& images) {
  std::string y = "metadata: {name: p}\nspec:\n  containers:\n";
  for (size_t i = 0; i < images.size(); ++i) {
    y += "  - {name: c" + std::to_string(i) + ", image: '" + images[i] + "'}\n";
  }
  y += "  initContainers:\n  - {name: init, image: 'gcr.io/2000'}\n";
  return testing::ParsePod(y, CompatLevel::kV1_27);
}

// Image states as the cache builds them when each image is on exactly one node.
std::shared_ptr<const NodeInfo> NodeWithImages(const std::string& name,
                                               const std::map<std::string, int64_t>& images) {
  auto info = testing::MakeNodeInfo(testing::ParseNode("metadata: {name: " + name + "}"));
  for (const auto& [image, size] : images) info->image_states()[image] = {size, 1};
  return info;
}

struct Case {
  std::string name;
  std::vector<std::string> images;
  bool with_empty_node;
  std::vector<int64_t> want;  // node403002000, node25010[, nodeWithNoImages]
};

// Transcribed from upstream imagelocality/image_locality_test.go TestImageLocalityPriority
// (v1.27 cases: regular containers only; the init container image must not count).
TEST(ImageLocalityTest, Score) {
  std::vector<Case> cases = {
      // node2: 100 * (250M/2 - 23M) / (1000M*2 - 23M) = 5
      {"two images spread on two nodes, prefer the larger image one",
       {"gcr.io/40", "gcr.io/250"},
       false,
       {0, 5}},
      // node1: 100 * ((40M + 300M)/2 - 23M) / (1000M*2 - 23M) = 7
      {"two images on one node, prefer this node", {"gcr.io/40", "gcr.io/300"}, false, {7, 0}},
      // node1: 100 * (2000M/2 - 23M) / (1000M*2 - 23M) = 49
      {"if exceed limit, use limit", {"gcr.io/2000", "gcr.io/10"}, false, {49, 0}},
      // node1: 100 * (2000M/3 - 23M) / (1000M*2 - 23M) = 32
      {"if exceed limit, use limit (with node which has no images present)",
       {"gcr.io/2000", "gcr.io/10"},
       true,
       {32, 0, 0}},
      {"tagged image does not match :latest", {"gcr.io/300:v1"}, false, {0, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::shared_ptr<const NodeInfo>> nodes = {
        NodeWithImages("node403002000", {{"gcr.io/40:latest", 40 * kMB},
                                         {"gcr.io/300:latest", 300 * kMB},
                                         {"gcr.io/2000:latest", 2000 * kMB}}),
        NodeWithImages("node25010",
                       {{"gcr.io/250:latest", 250 * kMB}, {"gcr.io/10:latest", 10 * kMB}}),
    };
    if (c.with_empty_node) nodes.push_back(NodeWithImages("nodeWithNoImages", {}));
    Snapshot snapshot(nodes);
    Handle handle{FeaturesFor(CompatLevel::kV1_27)};
    handle.snapshot = &snapshot;
    auto plugin = ImageLocality::New(nullptr, handle);
    ASSERT_TRUE(plugin.ok());
    auto* il = dynamic_cast<ImageLocality*>(plugin->get());
    PodPtr pod = ImagesPod(c.images);
    for (size_t i = 0; i < nodes.size(); ++i) {
      CycleState state;
      int64_t score = -1;
      ASSERT_TRUE(il->Score(state, *pod, *nodes[i], &score).IsSuccess());
      EXPECT_EQ(score, c.want[i]) << nodes[i]->name();
    }
  }
}

TEST(ImageLocalityTest, NormalizedImageName) {
  EXPECT_EQ(NormalizedImageName("nginx"), "nginx:latest");
  EXPECT_EQ(NormalizedImageName("nginx:1.25"), "nginx:1.25");
  EXPECT_EQ(NormalizedImageName("localhost:5000/app"), "localhost:5000/app:latest");
  EXPECT_EQ(NormalizedImageName("localhost:5000/app:v2"), "localhost:5000/app:v2");
  EXPECT_EQ(NormalizedImageName("app@sha256:abc"), "app@sha256:abc");
}

TEST(ImageLocalityTest, CalculatePriority) {
  EXPECT_EQ(CalculateImagePriority(0, 1), 0);
  EXPECT_EQ(CalculateImagePriority(23 * kMB, 1), 0);
  EXPECT_EQ(CalculateImagePriority(1000 * kMB, 1), 100);
  EXPECT_EQ(CalculateImagePriority(5000 * kMB, 1), 100);
  EXPECT_EQ(CalculateImagePriority(0, 0), 0);  // no containers: 0, no division by zero
}

TEST(ImageLocalityTest, ErrorWithoutSnapshot) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  ImageLocality plugin(handle);
  CycleState state;
  int64_t score = 0;
  auto node = NodeWithImages("n", {});
  EXPECT_EQ(plugin.Score(state, *ImagesPod({"a"}), *node, &score).code(), Code::kError);
}

}  // namespace
}  // namespace schedcheck::reference
