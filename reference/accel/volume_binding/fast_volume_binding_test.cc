#include "reference/accel/volume_binding/fast_volume_binding.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// The fast engine's VolumeBinding gives the plain plugin's statuses and scores at its level, and
// its UniformScore is the score of every node.
RC_GTEST_PROP(FastVolumeBinding, EqualsPlainVolumeBinding, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  auto plain = FastVolumeBinding::NewPlain(nullptr, cluster->handle);
  auto fast = FastVolumeBinding::New(nullptr, cluster->handle);
  RC_ASSERT(plain.ok() && fast.ok());
  const std::string diff =
      FirstDifference(**plain, **fast, *pod, cluster->nodes, {.run_pre_filter = GenChance(80)});
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
