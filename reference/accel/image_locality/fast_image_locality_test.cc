#include "reference/accel/image_locality/fast_image_locality.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// The fast engine's ImageLocality gives the plain rule's scores, node by node and in batches,
// and its error without a snapshot.
RC_GTEST_PROP(FastImageLocality, EqualsPlainImageLocality, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  const Handle no_snapshot{cluster->handle.features};
  const Handle& handle = GenChance(10) ? no_snapshot : cluster->handle;
  auto plain = ImageLocality::New(nullptr, handle);
  auto fast = FastImageLocality::New(nullptr, handle);
  RC_ASSERT(plain.ok() && fast.ok());
  const std::string diff = FirstDifference(**plain, **fast, *pod, cluster->nodes);
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
