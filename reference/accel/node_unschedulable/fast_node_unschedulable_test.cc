#include "reference/accel/node_unschedulable/fast_node_unschedulable.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// The fast engine's NodeUnschedulable gives the plain rule's statuses, node by node and in
// batches.
RC_GTEST_PROP(FastNodeUnschedulable, EqualsPlainNodeUnschedulable, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  auto plain = NodeUnschedulable::New(nullptr, cluster->handle);
  auto fast = FastNodeUnschedulable::New(nullptr, cluster->handle);
  RC_ASSERT(plain.ok() && fast.ok());
  const std::string diff = FirstDifference(**plain, **fast, *pod, cluster->nodes);
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
