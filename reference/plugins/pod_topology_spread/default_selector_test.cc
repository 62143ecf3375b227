// DefaultSelector (helper/spread.go v1.27.8): which Services and controllers count and how their
// selectors combine. The selector is checked by what it matches.
#include "reference/plugins/pod_topology_spread/default_selector.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference::pod_topology_spread {
namespace {

using testing::ParsePod;

k8s::Service Service(const std::string& ns, const std::string& name,
                     std::map<std::string, std::string> selector) {
  k8s::Service s;
  s.mutable_metadata()->set_namespace_(ns);
  s.mutable_metadata()->set_name(name);
  for (const auto& [k, v] : selector) (*s.mutable_spec()->mutable_selector())[k] = v;
  return s;
}

template <typename Object>
void Put(std::map<std::string, Object, std::less<>>* store, const Object& o) {
  (*store)[o.metadata().namespace_() + "/" + o.metadata().name()] = o;
}

k8s::ReplicaSet ReplicaSet(const std::string& name, const std::string& key,
                           const std::string& value) {
  k8s::ReplicaSet rs;
  rs.mutable_metadata()->set_namespace_("default");
  rs.mutable_metadata()->set_name(name);
  (*rs.mutable_spec()->mutable_selector()->mutable_match_labels())[key] = value;
  return rs;
}

const char* kOwnedByRs1 =
    "metadata: {name: p, labels: {app: web, tier: front}, ownerReferences: "
    "[{apiVersion: apps/v1, kind: ReplicaSet, name: rs1, controller: true}]}";

bool Matches(const SpreadSelector& s, const std::string& labels) {
  return s.Matches(
      ParsePod("metadata: {name: other, labels: " + labels + "}", CompatLevel::kV1_27)->labels());
}

TEST(DefaultSelectorTest, NothingListedIsEmpty) {
  ClusterObjects objects;
  SpreadSelector s = DefaultSelector(*ParsePod(kOwnedByRs1, CompatLevel::kV1_27), objects);
  EXPECT_TRUE(s.Empty());
}

TEST(DefaultSelectorTest, MatchingServicesOfThePodsNamespaceMerge) {
  ClusterObjects objects;
  Put(&objects.services, Service("default", "a", {{"app", "web"}}));
  Put(&objects.services, Service("default", "b", {{"tier", "front"}}));
  Put(&objects.services, Service("default", "c", {{"app", "api"}}));  // does not select the pod
  Put(&objects.services, Service("other", "d", {{"zone", "x"}}));     // another namespace
  Put(&objects.services, Service("default", "e", {}));  // selects nothing / adds nothing
  SpreadSelector s = DefaultSelector(
      *ParsePod("metadata: {name: p, labels: {app: web, tier: front}}", CompatLevel::kV1_27),
      objects);
  EXPECT_FALSE(s.Empty());
  EXPECT_TRUE(Matches(s, "{app: web, tier: front, extra: y}"));
  EXPECT_FALSE(Matches(s, "{app: web}"));
  // Neither c (app: api; merged after a, it would replace app: web) nor d (zone) took part.
  EXPECT_TRUE(Matches(s, "{app: web, tier: front}"));
  EXPECT_FALSE(Matches(s, "{app: api, tier: front}"));
}

TEST(DefaultSelectorTest, ControllingReplicaSetAddsItsRequirements) {
  ClusterObjects objects;
  Put(&objects.replica_sets, ReplicaSet("rs1", "app", "web"));
  Put(&objects.services, Service("default", "s", {{"tier", "front"}}));
  SpreadSelector s = DefaultSelector(*ParsePod(kOwnedByRs1, CompatLevel::kV1_27), objects);
  EXPECT_TRUE(Matches(s, "{app: web, tier: front}"));
  EXPECT_FALSE(Matches(s, "{app: web}"));
  EXPECT_FALSE(Matches(s, "{tier: front}"));
}

TEST(DefaultSelectorTest, OwnerMustBeTheControllerOfTheRightGroupVersion) {
  ClusterObjects objects;
  Put(&objects.replica_sets, ReplicaSet("rs1", "app", "web"));
  EXPECT_TRUE(DefaultSelector(*ParsePod("metadata: {name: p, labels: {app: web}, ownerReferences: "
                                        "[{apiVersion: apps/v1, kind: ReplicaSet, name: rs1}]}",
                                        CompatLevel::kV1_27),
                              objects)
                  .Empty());  // not controller: true
  EXPECT_TRUE(
      DefaultSelector(
          *ParsePod(
              "metadata: {name: p, labels: {app: web}, ownerReferences: "
              "[{apiVersion: extensions/v1beta1, kind: ReplicaSet, name: rs1, controller: true}]}",
              CompatLevel::kV1_27),
          objects)
          .Empty());
  EXPECT_TRUE(
      DefaultSelector(
          *ParsePod("metadata: {name: p, namespace: ns2, labels: {app: web}, ownerReferences: "
                    "[{apiVersion: apps/v1, kind: ReplicaSet, name: rs1, controller: true}]}",
                    CompatLevel::kV1_27),
          objects)
          .Empty());  // looked up in the pod's namespace
}

TEST(DefaultSelectorTest, ReplicationControllerSelectorOverridesAServiceValue) {
  // labels.Merge: the RC's value replaces the Service's for the same key (upstream's comment says
  // they cannot conflict for objects that select the same pod; a selector naming the pod's own
  // label value is the only way both select it, so the merge is what matters).
  ClusterObjects objects;
  Put(&objects.services, Service("default", "s", {{"app", "web"}}));
  k8s::ReplicationController rc;
  rc.mutable_metadata()->set_namespace_("default");
  rc.mutable_metadata()->set_name("rc1");
  (*rc.mutable_spec()->mutable_selector())["app"] = "web2";
  Put(&objects.replication_controllers, rc);
  SpreadSelector s = DefaultSelector(
      *ParsePod("metadata: {name: p, labels: {app: web}, ownerReferences: "
                "[{apiVersion: v1, kind: ReplicationController, name: rc1, controller: true}]}",
                CompatLevel::kV1_27),
      objects);
  EXPECT_TRUE(Matches(s, "{app: web2}"));
  EXPECT_FALSE(Matches(s, "{app: web}"));
}

TEST(DefaultSelectorTest, StatefulSetWithMalformedOrMissingSelectorAddsNothing) {
  ClusterObjects objects;
  k8s::StatefulSet ss;
  ss.mutable_metadata()->set_namespace_("default");
  ss.mutable_metadata()->set_name("ss1");
  Put(&objects.stateful_sets, ss);  // nil selector
  const char* pod =
      "metadata: {name: p, labels: {app: db}, ownerReferences: "
      "[{apiVersion: apps/v1, kind: StatefulSet, name: ss1, controller: true}]}";
  EXPECT_TRUE(DefaultSelector(*ParsePod(pod, CompatLevel::kV1_27), objects).Empty());
  auto* req = ss.mutable_spec()->mutable_selector()->add_match_expressions();
  req->set_key("app");
  req->set_operator_("In");  // In without values: LabelSelectorAsSelector fails
  Put(&objects.stateful_sets, ss);
  EXPECT_TRUE(DefaultSelector(*ParsePod(pod, CompatLevel::kV1_27), objects).Empty());
  req->add_values("db");
  Put(&objects.stateful_sets, ss);
  SpreadSelector s = DefaultSelector(*ParsePod(pod, CompatLevel::kV1_27), objects);
  EXPECT_TRUE(Matches(s, "{app: db}"));
  EXPECT_FALSE(Matches(s, "{app: web}"));
}

}  // namespace
}  // namespace schedcheck::reference::pod_topology_spread
