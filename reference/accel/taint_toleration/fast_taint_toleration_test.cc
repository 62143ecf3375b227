#include "reference/accel/taint_toleration/fast_taint_toleration.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// The fast engine's TaintToleration gives the plain rule's statuses and scores, node by node and in
// batches, with and without its PreScore state.
RC_GTEST_PROP(FastTaintToleration, EqualsPlainTaintToleration, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  auto plain = TaintToleration::New(nullptr, cluster->handle);
  auto fast = FastTaintToleration::New(nullptr, cluster->handle);
  RC_ASSERT(plain.ok() && fast.ok());
  const std::string diff =
      FirstDifference(**plain, **fast, *pod, cluster->nodes, {.run_pre_score = GenChance(80)});
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
