#include "reference/plugins/gang_scheduling/gang_scheduling.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParsePod;

// A pod "ns/name" with UID `name`, in pod group `group` (none when empty), bound to `node`.
PodPtr MakePod(const std::string& name, const std::string& group, const std::string& ns = "ns1",
               const std::string& node = "") {
  std::string yaml = "metadata: {name: " + name + ", namespace: " + ns + ", uid: " + name + "}\n";
  yaml += "spec: {";
  if (!group.empty()) yaml += "schedulingGroup: {podGroupName: " + group + "}";
  if (!node.empty()) yaml += std::string(group.empty() ? "" : ", ") + "nodeName: " + node;
  yaml += "}";
  return ParsePod(yaml, CompatLevel::kV1_37);
}

// A PodGroup with a gang policy of `min_count`, or a Basic policy when min_count is 0.
k8s::PodGroup MakePodGroup(const std::string& name, int min_count, const std::string& ns = "ns1") {
  k8s::PodGroup group;
  group.mutable_metadata()->set_namespace_(ns);
  group.mutable_metadata()->set_name(name);
  if (min_count > 0) {
    group.mutable_spec()->mutable_scheduling_policy()->mutable_gang()->set_min_count(min_count);
  } else {
    group.mutable_spec()->mutable_scheduling_policy()->mutable_basic();
  }
  return group;
}

// The framework's waiting pods as the test sees them: Allow succeeds for a pod listed as waiting.
class FakeWaitingPods final : public WaitingPods {
 public:
  bool Allow(const std::string& uid, std::string_view plugin) override {
    if (waiting.count(uid) == 0) return false;
    allowed.push_back(uid + " by " + std::string(plugin));
    return true;
  }
  void Activate(const std::vector<PodPtr>& pods) override {
    for (const PodPtr& p : pods) activated.push_back(p->obj.metadata().name());
  }
  std::set<std::string> waiting;
  std::vector<std::string> allowed;
  std::vector<std::string> activated;
};

struct Fixture {
  Fixture() : handle(FeaturesFor(CompatLevel::kV1_37)), plugin(handle) {
    handle.pod_groups = &groups;
    handle.waiting_pods = &waiting;
  }
  PodGroupStates groups;
  FakeWaitingPods waiting;
  Handle handle;
  GangScheduling plugin;
};

// kubernetes v1.37.2 pkg/scheduler/framework/plugins/gangscheduling/gangscheduling_test.go
// TestGangSchedulingFlow, "non-gang pod succeeds immediately (CPG=false)".
TEST(GangScheduling, NonGangPodSucceedsImmediately) {
  Fixture f;
  f.groups.AddPodGroup(MakePodGroup("pg1", 3));
  PodPtr pod = MakePod("non-gang", "");
  EXPECT_TRUE(f.plugin.PreEnqueue(*pod).IsSuccess());
  CycleState state;
  int64_t timeout_ns = 7;
  EXPECT_TRUE(f.plugin.Permit(state, *pod, "n1", &timeout_ns).IsSuccess());
  EXPECT_EQ(timeout_ns, 0);
}

// TestGangSchedulingFlow, "basic policy pod succeeds immediately (CPG=false)".
TEST(GangScheduling, BasicPolicyPodSucceedsImmediately) {
  Fixture f;
  f.groups.AddPodGroup(MakePodGroup("pg3", 0));
  PodPtr pod = MakePod("basic-pod", "pg3");
  f.groups.AddPod(pod);
  EXPECT_TRUE(f.plugin.PreEnqueue(*pod).IsSuccess());
  CycleState state;
  int64_t timeout_ns = 0;
  EXPECT_TRUE(f.plugin.Permit(state, *pod, "n1", &timeout_ns).IsSuccess());
}

// TestGangSchedulingFlow, "gang pod fails PreEnqueue when pod group is not yet created
// (CPG=false)" and "... when quorum is not met (CPG=false)".
TEST(GangScheduling, PreEnqueueGatesUntilGroupAndQuorumExist) {
  Fixture f;
  PodPtr p1 = MakePod("p1", "pg1");
  f.groups.AddPod(MakePod("p2", "pg1"));
  f.groups.AddPod(p1);
  Status s = f.plugin.PreEnqueue(*p1);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for pods's pod group \"pg1\" to appear in scheduling queue");

  f.groups.AddPodGroup(MakePodGroup("pg1", 3));
  s = f.plugin.PreEnqueue(*p1);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for minCount pods from a gang to appear in scheduling queue");

  // The third member completes the gang (a bound member counts too).
  f.groups.AddPod(MakePod("p3", "pg1", "ns1", "n1"));
  EXPECT_TRUE(f.plugin.PreEnqueue(*p1).IsSuccess());
}

// TestGangSchedulingFlow, "gang pod passes PreEnqueue, but waits at Permit (CPG=false)": p2 is
// assumed and waits; p1 is assumed, waits for the 5-minute timeout and activates p3, the member
// still unscheduled. Members of another group (pg2) are not touched.
TEST(GangScheduling, WaitsAtPermitBelowQuorumAndActivatesUnscheduledMembers) {
  Fixture f;
  f.groups.AddPodGroup(MakePodGroup("pg1", 3));
  f.groups.AddPodGroup(MakePodGroup("pg2", 4));
  PodPtr p1 = MakePod("p1", "pg1");
  PodPtr p2 = MakePod("p2", "pg1");
  for (const PodPtr& p : {p1, p2, MakePod("p3", "pg1"), MakePod("p4", "pg2")}) f.groups.AddPod(p);
  ASSERT_TRUE(f.plugin.PreEnqueue(*p1).IsSuccess());

  CycleState state;
  int64_t timeout_ns = 0;
  f.groups.AssumePod(p2);
  ASSERT_TRUE(f.plugin.Permit(state, *p2, "some-node", &timeout_ns).IsWait());
  f.waiting.waiting.insert("p2");
  f.waiting.activated.clear();

  f.groups.AssumePod(p1);
  Status s = f.plugin.Permit(state, *p1, "some-node", &timeout_ns);
  EXPECT_TRUE(s.IsWait());
  EXPECT_EQ(s.Message(), "waiting for minCount pods from a gang to be scheduled");
  EXPECT_EQ(timeout_ns, 5LL * 60 * 1'000'000'000);
  EXPECT_EQ(f.waiting.activated, std::vector<std::string>{"p3"});
  EXPECT_TRUE(f.waiting.allowed.empty());
}

// TestGangSchedulingFlow, "final gang pod arrives at Permit and allows all waiting pods from a
// gang (CPG=false)": p2 and p3 wait, p1 completes the quorum of 3 and allows them; the waiting
// members of pg2 stay waiting.
TEST(GangScheduling, FinalMemberAllowsEveryWaitingMember) {
  Fixture f;
  f.groups.AddPodGroup(MakePodGroup("pg1", 3));
  f.groups.AddPodGroup(MakePodGroup("pg2", 4));
  PodPtr p1 = MakePod("p1", "pg1");
  PodPtr p2 = MakePod("p2", "pg1");
  PodPtr p3 = MakePod("p3", "pg1");
  PodPtr p4 = MakePod("p4", "pg2");
  for (const PodPtr& p : {p1, p2, p3, p4}) f.groups.AddPod(p);
  CycleState state;
  int64_t timeout_ns = 0;
  for (const PodPtr& p : {p2, p3, p4}) {
    f.groups.AssumePod(p);
    ASSERT_TRUE(f.plugin.Permit(state, *p, "some-node", &timeout_ns).IsWait()) << p->key;
    f.waiting.waiting.insert(p->uid());
  }
  f.groups.AssumePod(p1);
  Status s = f.plugin.Permit(state, *p1, "some-node", &timeout_ns);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  EXPECT_EQ(timeout_ns, 0);
  // p1 itself is assumed but not waiting: Allow finds no waiting pod for it.
  EXPECT_EQ(f.waiting.allowed,
            (std::vector<std::string>{"p2 by GangScheduling", "p3 by GangScheduling"}));
}

// A forgotten member (its binding failed, or its Permit wait timed out) no longer counts: the
// next member waits again. podgroupstate.go forgetPod.
TEST(GangScheduling, ForgottenMemberNoLongerCountsTowardsTheQuorum) {
  Fixture f;
  f.groups.AddPodGroup(MakePodGroup("pg", 2));
  PodPtr a = MakePod("a", "pg");
  PodPtr b = MakePod("b", "pg");
  f.groups.AddPod(a);
  f.groups.AddPod(b);
  f.groups.AssumePod(a);
  f.groups.ForgetPod(*a);
  f.groups.AssumePod(b);
  CycleState state;
  int64_t timeout_ns = 0;
  EXPECT_TRUE(f.plugin.Permit(state, *b, "n", &timeout_ns).IsWait());
  EXPECT_EQ(f.groups.GetState("ns1", "pg")->UnscheduledPods().size(), 1u);
}

// Permit of a member whose group has no object: the lister's error, as an Error status.
TEST(GangScheduling, PermitWithoutPodGroupObjectIsAnError) {
  Fixture f;
  PodPtr p = MakePod("p", "pg");
  f.groups.AddPod(p);
  CycleState state;
  int64_t timeout_ns = 0;
  Status s = f.plugin.Permit(state, *p, "n", &timeout_ns);
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(),
            "failed to get podGroup ns1/pg: pod group object not found for pod group ns1/pg");
}

Result<QueueingHint> Hint(const GangScheduling& pl, size_t event, const Pod& pod,
                          const EventObjects& objects) {
  return pl.EventsToRegisterWithHints().at(event).hint(pod, objects);
}

// Test_isSchedulableAfterPodAdded (CPG=false cases): a new member of the pod's own group (bound
// or not) queues it; another namespace or group, or a pod without a group, does not.
TEST(GangScheduling, PodAddedHint) {
  Fixture f;
  PodPtr pod = MakePod("p", "pg");
  auto hint = [&](PodPtr added, size_t event) {
    EventObjects objects;
    objects.new_pod = std::move(added);
    Result<QueueingHint> h = Hint(f.plugin, event, *pod, objects);
    EXPECT_TRUE(h.ok());
    return h.ok() ? *h : QueueingHint::kQueueSkip;
  };
  EXPECT_EQ(hint(MakePod("q", "pg"), 0), QueueingHint::kQueue);
  EXPECT_EQ(hint(MakePod("q", "pg", "ns1", "node1"), 1), QueueingHint::kQueue);
  EXPECT_EQ(hint(MakePod("q", "pg", "foo"), 0), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(MakePod("q", "pg2"), 0), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(MakePod("q", ""), 0), QueueingHint::kQueueSkip);
}

// Test_isSchedulableAfterPodGroupAdded and Test_isSchedulableAfterPodGroupUpdated (CPG=false
// cases): the pod's own group added queues it; an update queues it only when its gang minCount
// decreased.
TEST(GangScheduling, PodGroupHints) {
  Fixture f;
  PodPtr pod = MakePod("p", "pg");
  auto hint = [&](size_t event, std::optional<k8s::PodGroup> old_group, k8s::PodGroup new_group,
                  const Pod& for_pod) {
    EventObjects objects;
    if (old_group) objects.old_object = std::make_shared<k8s::PodGroup>(*old_group);
    objects.new_object = std::make_shared<k8s::PodGroup>(new_group);
    Result<QueueingHint> h = Hint(f.plugin, event, for_pod, objects);
    EXPECT_TRUE(h.ok());
    return h.ok() ? *h : QueueingHint::kQueueSkip;
  };
  EXPECT_EQ(hint(2, std::nullopt, MakePodGroup("pg", 2), *pod), QueueingHint::kQueue);
  EXPECT_EQ(hint(2, std::nullopt, MakePodGroup("pg1", 2), *pod), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(2, std::nullopt, MakePodGroup("pg", 2, "foo"), *pod), QueueingHint::kQueueSkip);
  // "minCount decreased matches target pod", "minCount increased", "minCount unchanged",
  // "update Basic policy", "pod without a scheduling group is skipped".
  EXPECT_EQ(hint(3, MakePodGroup("pg", 4), MakePodGroup("pg", 3), *pod), QueueingHint::kQueue);
  EXPECT_EQ(hint(3, MakePodGroup("pg", 3), MakePodGroup("pg", 4), *pod), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(3, MakePodGroup("pg", 3), MakePodGroup("pg", 3), *pod), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(3, MakePodGroup("pg", 0), MakePodGroup("pg", 0), *pod), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(3, MakePodGroup("pg", 4), MakePodGroup("pg1", 3), *pod), QueueingHint::kQueueSkip);
  EXPECT_EQ(hint(3, MakePodGroup("pg", 4), MakePodGroup("pg", 3), *MakePod("q", "")),
            QueueingHint::kQueueSkip);
  // A node where a PodGroup is expected: util.As's error.
  EventObjects wrong;
  wrong.new_object = std::make_shared<k8s::Node>();
  EXPECT_FALSE(Hint(f.plugin, 2, *pod, wrong).ok());
}

// TestPlacementFeasible: minCount met, still reachable (Wait), out of reach (Unschedulable).
TEST(GangScheduling, PlacementFeasible) {
  EXPECT_TRUE(GangScheduling::PlacementFeasible(2, 2, 0).IsSuccess());
  Status wait = GangScheduling::PlacementFeasible(3, 1, 2);
  EXPECT_TRUE(wait.IsWait());
  EXPECT_EQ(wait.Message(), "minCount (3) is not yet satisfied: 1 scheduled, 2 remaining");
  Status no = GangScheduling::PlacementFeasible(3, 0, 2);
  EXPECT_EQ(no.code(), Code::kUnschedulable);
  EXPECT_EQ(no.Message(), "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining");
}

TEST(GangScheduling, DoesNotExistAtCompat127) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  EXPECT_FALSE(GangScheduling::New(nullptr, handle).ok());
  handle.features = FeaturesFor(CompatLevel::kV1_37);
  EXPECT_TRUE(GangScheduling::New(nullptr, handle).ok());
  EXPECT_FALSE(GangScheduling::New(nlohmann::json{{"minCount", 2}}, handle).ok());
}

}  // namespace
}  // namespace schedcheck::reference
