#include "reference/accel/pod_topology_spread/domain_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/base/rand.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference::pod_topology_spread::fast {
namespace {

using testing::MakeNodeInfo;
using testing::ParseNode;
using testing::ParsePod;

// Two keys: the node's zone, counting pods labelled app=a; its hostname, counting every pod.
// A node without a zone counts for neither.
void ZoneAndHostname(const NodeInfo& info, std::span<NodeContribution> out) {
  const LabelId zone = info.node()->label_ids.Get(InternLabel("zone"));
  if (zone == kNoLabel) return;
  int app_a = 0;
  for (const PodInfoPtr& p : info.pods())
    app_a += p->pod->labels().count("app") && p->pod->labels().at("app") == "a";
  out[0] = {zone, app_a};
  out[1] = {info.node()->label_ids.Get(InternLabel("kubernetes.io/hostname")),
            static_cast<int>(info.pods().size())};
}

std::map<std::string, int> Sums(const DomainCounts& counts, size_t key) {
  IdMap<int> exported;
  counts.Export(key, &exported);
  std::map<std::string, int> out;
  exported.ForEach([&](uint64_t value, int n) { out[LabelText(static_cast<LabelId>(value))] = n; });
  return out;
}

NodePtr NodeIn(const std::string& name, const std::string& zone) {
  std::string labels = "kubernetes.io/hostname: " + name;
  if (!zone.empty()) labels += ", zone: " + zone;
  return ParseNode("metadata: {name: " + name + ", labels: {" + labels + "}}");
}

PodPtr PodOn(const std::string& name, const std::string& app) {
  return ParsePod("metadata: {name: " + name + ", labels: {app: " + app + "}}",
                  CompatLevel::kV1_27);
}

TEST(DomainCounts, FollowsReplacedNodesThroughTheChangeLog) {
  std::vector<std::shared_ptr<const NodeInfo>> infos = {MakeNodeInfo(NodeIn("n1", "z1")),
                                                        MakeNodeInfo(NodeIn("n2", "z1")),
                                                        MakeNodeInfo(NodeIn("n3", "z2"))};
  Snapshot snapshot(infos);
  DomainCounts counts;
  counts.Sync(snapshot, 2, ZoneAndHostname);
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z1", 0}, {"z2", 0}}));

  // A pod lands on n2; its zone gains a match, n2 a pod.
  auto n2 = std::make_shared<NodeInfo>(*infos[1]);
  n2->AddPod(MakePodInfo(PodOn("p1", "a")));
  ASSERT_TRUE(snapshot.Replace(n2));
  counts.Sync(snapshot, 2, ZoneAndHostname);
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z1", 1}, {"z2", 0}}));
  EXPECT_EQ(Sums(counts, 1), (std::map<std::string, int>{{"n1", 0}, {"n2", 1}, {"n3", 0}}));

  // n3 loses its zone: z2 has no counting node left and disappears; n3 no longer counts.
  ASSERT_TRUE(snapshot.Replace(MakeNodeInfo(NodeIn("n3", ""))));
  counts.Sync(snapshot, 2, ZoneAndHostname);
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z1", 1}}));
  EXPECT_EQ(Sums(counts, 1), (std::map<std::string, int>{{"n1", 0}, {"n2", 1}}));
}

TEST(DomainCounts, ASnapshotResetOrAnotherSnapshotIsCountedAfresh) {
  Snapshot first({MakeNodeInfo(NodeIn("n1", "z1"), {PodOn("p", "a")})});
  Snapshot second({MakeNodeInfo(NodeIn("n1", "z9"))});
  DomainCounts counts;
  counts.Sync(first, 2, ZoneAndHostname);
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z1", 1}}));
  counts.Sync(second, 2, ZoneAndHostname);  // same size, another epoch
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z9", 0}}));
  first.Reset({MakeNodeInfo(NodeIn("n1", "z2"))});
  counts.Sync(first, 2, ZoneAndHostname);
  EXPECT_EQ(Sums(counts, 0), (std::map<std::string, int>{{"z2", 0}}));
}

TEST(DomainCounts, RandomReplacementsAgreeWithAFullCount) {
  constexpr uint64_t kSeed = 20261123;
  Rand rng(kSeed);
  const std::vector<std::string> zones = {"z1", "z2", "z3", ""};
  std::vector<std::shared_ptr<const NodeInfo>> infos;
  for (int i = 0; i < 40; ++i) {
    infos.push_back(
        MakeNodeInfo(NodeIn("n" + std::to_string(i), zones[rng.Uniform(zones.size())])));
  }
  Snapshot snapshot(infos);
  DomainCounts incremental;
  int pods = 0;
  for (int step = 0; step < 300; ++step) {
    // Between syncs, a few nodes change: a pod added or removed, or the node relabelled.
    for (uint64_t changes = rng.Uniform(4); changes > 0; --changes) {
      const size_t at = rng.Uniform(infos.size());
      std::shared_ptr<NodeInfo> next;
      switch (rng.Uniform(3)) {
        case 0:
          next = std::make_shared<NodeInfo>(*infos[at]);
          next->AddPod(
              MakePodInfo(PodOn("p" + std::to_string(pods++), rng.Uniform(2) ? "a" : "b")));
          break;
        case 1:
          next = std::make_shared<NodeInfo>(*infos[at]);
          if (!next->pods().empty()) {
            ASSERT_TRUE(next->RemovePod(*next->pods().front()->pod));
          }
          break;
        default:
          next = std::make_shared<NodeInfo>(*infos[at]);
          next->SetNode(NodeIn(infos[at]->name(), zones[rng.Uniform(zones.size())]));
      }
      infos[at] = next;
      ASSERT_TRUE(snapshot.Replace(next));
    }
    incremental.Sync(snapshot, 2, ZoneAndHostname);
    DomainCounts full;
    full.Sync(snapshot, 2, ZoneAndHostname);
    for (size_t key = 0; key < 2; ++key) {
      ASSERT_EQ(Sums(incremental, key), Sums(full, key))
          << "key " << key << " after step " << step << " (seed " << kSeed
          << "; reproduce: bazel test //reference/accel/pod_topology_spread:domain_counts_test)";
    }
  }
}

}  // namespace
}  // namespace schedcheck::reference::pod_topology_spread::fast
