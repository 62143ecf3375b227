#include "reference/accel/node_ports/fast_node_ports.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/accel/plugin_equality/plugin_equality.h"
#include "reference/accel/plugin_equality/random_cluster.h"

namespace schedcheck::reference {
namespace {

// The fast engine's NodePorts gives the plain rule's statuses, node by node and in batches, with
// and without its PreFilter state.
RC_GTEST_PROP(FastNodePorts, EqualsPlainNodePorts, ()) {
  std::unique_ptr<RandomCluster> cluster = GenCluster(GenLevel());
  PodPtr pod = GenPod(*cluster);
  auto plain = NodePorts::New(nullptr, cluster->handle);
  auto fast = FastNodePorts::New(nullptr, cluster->handle);
  RC_ASSERT(plain.ok() && fast.ok());
  const std::string diff =
      FirstDifference(**plain, **fast, *pod, cluster->nodes, {.run_pre_filter = GenChance(80)});
  if (!diff.empty()) RC_FAIL(diff);
}

}  // namespace
}  // namespace schedcheck::reference
