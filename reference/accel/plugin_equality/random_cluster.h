// Test support: random clusters and pods for the equality tests of the accelerated plugins.
// Nodes get labels, taints, the unschedulable flag, images and pods holding host ports; pods get
// spec.nodeName, tolerations, container images and ports, a nodeSelector and node affinity. All
// are drawn from small pools so that matches, conflicts and parse errors are frequent. The Gen*
// functions draw with RapidCheck: call them inside a property (RC_GTEST_PROP), which prints the
// seed that reproduces a failure.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_RANDOM_CLUSTER_H_
#define SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_RANDOM_CLUSTER_H_

#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "reference/framework/handle.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"

namespace schedcheck::reference {

struct RandomCluster {
  std::vector<std::shared_ptr<NodeInfo>> infos;
  // Every NodeInfo in order; a few hold no node (a node the cache has not seen).
  std::vector<const NodeInfo*> nodes;
  Snapshot snapshot;                                // the NodeInfos with a node
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};  // handle.snapshot points at `snapshot`
};

// True with probability percent / 100.
bool GenChance(int percent);

// 0 to 8 NodeInfos; the handle at compatibility level `level`.
std::unique_ptr<RandomCluster> GenCluster(CompatLevel level);
// Either level, for fast forms that serve both.
CompatLevel GenLevel();
// A pod to schedule on `cluster` (spec.nodeName, when set, mostly names one of its nodes).
PodPtr GenPod(const RandomCluster& cluster);
// A node selector term (JSON, as in a pod spec): matchExpressions and matchFields from a pool
// that includes requirements that do not parse.
nlohmann::json GenNodeSelectorTerm();
// A node selector term that parses (what plugin args may hold).
nlohmann::json GenValidNodeSelectorTerm();

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_PLUGIN_EQUALITY_RANDOM_CLUSTER_H_
