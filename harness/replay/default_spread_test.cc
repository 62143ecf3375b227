// Workloads imported from manifests and replayed: PodTopologySpread's system default constraints
// (hostname maxSkew 3, ScheduleAnyway) spread the pods a Service or a ReplicaSet selects, where
// without them NodeResourcesFit's LeastAllocated piles every pod onto the one large node.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/replay/replayer.h"
#include "traces/importers/manifests_importer.h"

namespace schedcheck::replay {
namespace {

const std::string kData = "harness/replay/testdata/default_spread/";

// Pods bound per node after importing `files` and replaying with the default configuration.
std::map<std::string, int> BoundPerNode(const std::vector<std::string>& files) {
  std::vector<std::string> paths;
  for (const std::string& f : files) paths.push_back(kData + f);
  auto imported = trace::ImportManifests(paths, {});
  EXPECT_TRUE(imported.ok()) << imported.message();
  if (!imported.ok()) return {};
  ReplayOptions options;
  options.compat = "1.27";
  options.config = reference::DefaultConfiguration("1.27");
  auto replayer = Replayer::Create(options);
  EXPECT_TRUE(replayer.ok());
  Outcome ok = (*replayer)->Run(imported->records);
  EXPECT_TRUE(ok.ok()) << ok.message();
  std::map<std::string, int> out;
  for (const trace::Record& r : (*replayer)->log().records()) {
    if (r.has_binding()) ++out[r.binding().node()];
  }
  return out;
}

TEST(DefaultSpreadTest, WithoutSelectorObjectsTheLargeNodeTakesEveryPod) {
  EXPECT_EQ(BoundPerNode({"nodes.yaml", "job.yaml"}), (std::map<std::string, int>{{"node-a", 6}}));
}

TEST(DefaultSpreadTest, AServiceSelectingThePodsSpreadsThem) {
  // Each pod raises its node's count; with maxSkew 3 the spreading score outweighs the large
  // node's LeastAllocated advantage once it holds one pod more than the others.
  EXPECT_EQ(BoundPerNode({"nodes.yaml", "job.yaml", "service.yaml"}),
            (std::map<std::string, int>{{"node-a", 2}, {"node-b", 2}, {"node-c", 2}}));
}

TEST(DefaultSpreadTest, ADeploymentsReplicaSetSpreadsItsPodsWithoutAService) {
  EXPECT_EQ(BoundPerNode({"nodes.yaml", "deployment.yaml"}),
            (std::map<std::string, int>{{"node-a", 2}, {"node-b", 2}, {"node-c", 2}}));
}

}  // namespace
}  // namespace schedcheck::replay
