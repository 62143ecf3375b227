// The fast attach-limit plugins against the plain ones on one node whose storage objects change
// between cycles as the scheduler's informer handlers change them (bumping
// ClusterObjects::ChangeCount): each remembered result must be dropped exactly when it may have
// changed. The engine properties (//properties:engine_equivalence_test, storage traces) compare
// whole replays; this test names the invalidation cases one by one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/accel/node_volume_limits/fast_node_volume_limits.h"
#include "reference/accel/node_volume_limits/fast_non_csi_limits.h"
#include "reference/k8s/k8s_json.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

k8s::PersistentVolumeClaim Claim(const std::string& name, const std::string& volume) {
  return k8s::PersistentVolumeClaimFromJson(
             nlohmann::json::parse(R"({"metadata": {"name": ")" + name +
                                   R"(", "namespace": "default"}, "spec": {"volumeName": ")" +
                                   volume + R"("}})"),
             "test")
      .value();
}

k8s::PersistentVolume CsiVolume(const std::string& name) {
  return k8s::PersistentVolumeFromJson(
             nlohmann::json::parse(R"({"metadata": {"name": ")" + name +
                                   R"("}, "spec": {"csi": {"driver": "ebs.csi.aws.com",
                                   "volumeHandle": ")" +
                                   name + R"("}}})"),
             "test")
      .value();
}

k8s::PersistentVolume EbsVolume(const std::string& name) {
  return k8s::PersistentVolumeFromJson(
             nlohmann::json::parse(R"({"metadata": {"name": ")" + name +
                                   R"("}, "spec": {"awsElasticBlockStore": {"volumeID": ")" + name +
                                   R"("}}})"),
             "test")
      .value();
}

k8s::CSINode CsiNode(int64_t count) {
  return k8s::CSINodeFromJson(nlohmann::json::parse(
                                  R"({"metadata": {"name": "n1"}, "spec": {"drivers": [
                                  {"name": "ebs.csi.aws.com", "nodeID": "n1",
                                   "allocatable": {"count": )" +
                                  std::to_string(count) + "}}]}}"),
                              "test")
      .value();
}

PodPtr ClaimPod(const std::string& name, const std::string& claim, CompatLevel level) {
  return testing::ParsePod("metadata: {name: " + name + ", namespace: default, uid: " + name +
                               "}\nspec: {nodeName: n1, containers: [{name: c}], volumes: "
                               "[{name: v, persistentVolumeClaim: {claimName: " +
                               claim + "}}]}",
                           level);
}

// A node, its storage objects and the plain and fast forms of one plugin over them.
class Fixture {
 public:
  Fixture(CompatLevel level, PluginFactory plain, PluginFactory fast)
      : level_(level), handle_(FeaturesFor(level)) {
    handle_.objects = &objects_;
    plain_ = std::move(*plain(nullptr, handle_));
    fast_ = std::move(*fast(nullptr, handle_));
    node_ = testing::ParseNode("metadata: {name: n1}\nstatus: {allocatable: {cpu: 4}}");
  }
  // The informer handlers' bookkeeping (reference/scheduler/eventhandlers_storage.cc).
  template <typename Object>
  void Put(std::map<std::string, Object, std::less<>>* store, const std::string& key,
           const Object& object, ClusterObjects::ChangeCount* counts) {
    ++(store->count(key) ? counts->updates : counts->adds);
    (*store)[key] = object;
  }
  void PutClaim(const std::string& name, const std::string& volume) {
    Put(&objects_.persistent_volume_claims, "default/" + name, Claim(name, volume),
        &objects_.volume_changes);
  }
  void DeleteClaim(const std::string& name) {
    objects_.persistent_volume_claims.erase("default/" + name);
    ++objects_.volume_changes.updates;
  }
  void PutVolume(const k8s::PersistentVolume& pv) {
    Put(&objects_.persistent_volumes, pv.metadata().name(), pv, &objects_.volume_changes);
  }
  void PutCsiNode(const k8s::CSINode& c) {
    Put(&objects_.csi_nodes, "n1", c, &objects_.csi_node_changes);
  }
  // The node holding pods with these claims (a new NodeInfo generation when they change).
  void SetPods(const std::vector<std::string>& claims) {
    std::vector<PodPtr> pods;
    for (size_t i = 0; i < claims.size(); ++i) {
      pods.push_back(ClaimPod("e" + std::to_string(i), claims[i], level_));
    }
    info_ = testing::MakeNodeInfo(node_, pods);
  }

  // "" when the plain Filter and the fast FilterNodes agree on `claim`'s pod, else both results.
  std::string Compare(const std::string& claim) {
    PodPtr pod = ClaimPod("p", claim, level_);
    CycleState state;
    auto* pre = dynamic_cast<PreFilterPlugin*>(plain_.get());
    PreFilterResult unused;
    if (pre != nullptr && pre->PreFilter(state, *pod, &unused).IsSkip()) return "";
    const Status want = dynamic_cast<FilterPlugin&>(*plain_).Filter(state, *pod, *info_);
    std::vector<BatchRejection> rejected;
    const NodeInfo* nodes[] = {info_.get()};
    dynamic_cast<BatchFilterPlugin&>(*fast_).FilterNodes(state, *pod, NodeBatch(nodes), &rejected);
    const Status got = rejected.empty() ? Status() : rejected[0].status;
    if (want.DebugString() == got.DebugString()) return "";
    return "plain " + want.DebugString() + ", fast " + got.DebugString();
  }
  std::string Verdict(const std::string& claim) {
    PodPtr pod = ClaimPod("p", claim, level_);
    CycleState state;
    return dynamic_cast<FilterPlugin&>(*plain_).Filter(state, *pod, *info_).DebugString();
  }

 private:
  CompatLevel level_;
  ClusterObjects objects_;
  Handle handle_;
  std::unique_ptr<Plugin> plain_, fast_;
  NodePtr node_;
  std::shared_ptr<NodeInfo> info_;
};

TEST(FastNodeVolumeLimits, FollowsStorageChangesBetweenCycles) {
  for (CompatLevel level : {CompatLevel::kV1_27, CompatLevel::kV1_37}) {
    SCOPED_TRACE(level == CompatLevel::kV1_27 ? "1.27" : "1.37");
    Fixture f(level, &NodeVolumeLimits::New, &FastNodeVolumeLimits::New);
    f.PutCsiNode(CsiNode(1));
    for (const char* name : {"a", "b"}) {
      f.PutVolume(CsiVolume(std::string("pv-") + name));
      f.PutClaim(name, std::string("pv-") + name);
    }
    f.SetPods({"a"});
    const std::string full = f.Verdict("b");
    EXPECT_NE(full, Status().DebugString());  // one attached, one new, limit 1
    EXPECT_EQ(f.Compare("b"), "");
    EXPECT_EQ(f.Compare("a"), "");  // the same volume again fits
    // Another claim and volume added: the node's result stays (its look-ups found everything).
    f.PutVolume(CsiVolume("pv-c"));
    f.PutClaim("c", "pv-c");
    EXPECT_EQ(f.Compare("c"), "");
    // The node pod's claim deleted: it attaches nothing any more.
    f.DeleteClaim("a");
    EXPECT_EQ(f.Verdict("b"), Status().DebugString());
    EXPECT_EQ(f.Compare("b"), "");
    // Added back: a node result that missed the claim must notice the add.
    f.PutClaim("a", "pv-a");
    EXPECT_EQ(f.Verdict("b"), full);
    EXPECT_EQ(f.Compare("b"), "");
    // The CSINode's limit raised.
    f.PutCsiNode(CsiNode(2));
    EXPECT_EQ(f.Verdict("b"), Status().DebugString());
    EXPECT_EQ(f.Compare("b"), "");
    // The node's pods changed (a new generation).
    f.SetPods({"a", "c"});
    EXPECT_EQ(f.Verdict("b"), full);
    EXPECT_EQ(f.Compare("b"), "");
  }
}

TEST(FastNonCSILimits, FollowsStorageChangesBetweenCycles) {
  Fixture f(CompatLevel::kV1_27, &EBSLimits::New, &FastNonCSILimitsOf<EBSLimits>::New);
  for (int i = 0; i < 41; ++i) {
    const std::string name = "v" + std::to_string(i);
    f.PutVolume(EbsVolume("pv-" + name));
    f.PutClaim(name, "pv-" + name);
  }
  std::vector<std::string> claims;
  for (int i = 0; i < 39; ++i) claims.push_back("v" + std::to_string(i));
  f.SetPods(claims);  // 39 EBS volumes: the default limit
  const std::string full = f.Verdict("v40");
  EXPECT_NE(full, Status().DebugString());
  EXPECT_EQ(f.Compare("v40"), "");
  EXPECT_EQ(f.Compare("v0"), "");
  // A node pod's volume replaced by a CSI one: one EBS volume fewer.
  f.PutVolume(CsiVolume("pv-v0"));
  EXPECT_EQ(f.Verdict("v40"), Status().DebugString());
  EXPECT_EQ(f.Compare("v40"), "");
  // A CSINode appears: EBS migrated there, the in-tree limit no longer applies.
  f.PutVolume(EbsVolume("pv-v0"));
  EXPECT_EQ(f.Compare("v40"), "");
  f.PutCsiNode(CsiNode(1));
  EXPECT_EQ(f.Verdict("v40"), Status().DebugString());
  EXPECT_EQ(f.Compare("v40"), "");
}

}  // namespace
}  // namespace schedcheck::reference
