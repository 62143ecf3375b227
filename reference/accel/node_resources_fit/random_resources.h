// Test support for the equality tests of the fast NodeResourcesFit and
// NodeResourcesBalancedAllocation: clusters whose nodes and pods vary in what the two plugins
// read (allocatable and requested cpu, memory, ephemeral storage, pod counts, extended and
// hugepages resources, init containers, overhead, zero and missing requests), kept in a Cache so
// that unchanged nodes keep their NodeInfo generation from cycle to cycle, as in the scheduler,
// and changed between cycles (pods added and removed, nodes added, updated and removed). Draws
// with RapidCheck: use inside a property (RC_GTEST_PROP), which prints the seed of a failure.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_RANDOM_RESOURCES_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_RANDOM_RESOURCES_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/api/objects.h"
#include "reference/cache/cache.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"

namespace schedcheck::reference {

class ResourceCluster {
 public:
  // 0 to 8 nodes holding 0 to 4 pods each, in a cache and with pods of `level`.
  explicit ResourceCluster(CompatLevel level);

  // 1 to 4 changes, then the snapshot brought up to date.
  void Change();
  // The snapshot's NodeInfos in order, then one NodeInfo without a node.
  std::vector<const NodeInfo*> nodes() const;
  const Snapshot& snapshot() const { return snapshot_; }
  CompatLevel level() const { return level_; }

 private:
  void AddNode();
  void AddPodTo(const std::string& node_name);

  CompatLevel level_;
  Cache cache_;
  Snapshot snapshot_;
  std::vector<PodPtr> pods_;
  int next_node_ = 0;
  int next_pod_ = 0;
  NodeInfo without_node_;
};

// A pod to schedule (no spec.nodeName). At v1.37 pods may also have sidecars (restartable init
// containers) and pod-level requests.
PodPtr GenResourcePod(CompatLevel level);
// Either level, for fast forms that serve both.
CompatLevel GenResourceLevel();
// NodeResourcesFitArgs: null, a scoring strategy (with resources including extended ones and
// weights), ignored resources and groups.
nlohmann::json GenFitArgs();
// NodeResourcesBalancedAllocationArgs: null, or resources including extended ones.
nlohmann::json GenBalancedAllocationArgs();

// Runs `cycles` cycles on `cluster`: in each, 1 to 3 pods through both plugins
// (plugin_equality's FirstDifference, and Score and the batch Score on every node, feasible or
// not), then cluster.Change(). "" when they agree, else the first difference.
std::string DifferenceAcrossCycles(Plugin& plain, Plugin& fast, ResourceCluster& cluster,
                                   int cycles);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_RANDOM_RESOURCES_H_
