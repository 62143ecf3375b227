#include "reference/plugins/gang_scheduling/gang_scheduling.h"

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

using testing::ParsePod;

// kubernetes v1.37.2 pkg/scheduler/framework/plugins/gangscheduling/gangscheduling_test.go
// TestGangSchedulingFlow, "non-gang pod succeeds immediately (CPG=false)": PreEnqueue and Permit
// both admit a pod without a scheduling group, even with gang pod groups around.
TEST(GangScheduling, NonGangPodSucceedsImmediately) {
  GangScheduling pl;
  PodPtr pod = ParsePod("metadata: {name: p, namespace: ns1}", CompatLevel::kV1_37);
  EXPECT_TRUE(pl.PreEnqueue(*pod).IsSuccess());
  CycleState state;
  int64_t timeout_ns = 7;
  EXPECT_TRUE(pl.Permit(state, *pod, "n1", &timeout_ns).IsSuccess());
  EXPECT_EQ(timeout_ns, 0);
}

// gangscheduling_test.go Test_isSchedulableAfterPodGroupUpdated "pod without a scheduling group
// is skipped" (and, by the same first rule, the pod-added and pod-group-added hints): every
// registered event answers QueueSkip for such a pod.
TEST(GangScheduling, EveryHintSkipsAPodWithoutASchedulingGroup) {
  GangScheduling pl;
  PodPtr pod = ParsePod("metadata: {name: p, namespace: ns1}", CompatLevel::kV1_37);
  PodPtr added = ParsePod("metadata: {name: q, namespace: ns1}", CompatLevel::kV1_37);
  const std::vector<ClusterEventWithHint> events = pl.EventsToRegisterWithHints();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].event.resource, resource::kUnscheduledPod);
  EXPECT_EQ(events[0].event.action, action::kAdd);
  EXPECT_EQ(events[1].event.resource, resource::kAssignedPod);
  EXPECT_EQ(events[1].event.action, action::kAdd);
  EXPECT_EQ(events[2].event.resource, resource::kPodGroup);
  EXPECT_EQ(events[2].event.action, action::kAdd);
  EXPECT_EQ(events[3].event.resource, resource::kPodGroup);
  EXPECT_EQ(events[3].event.action, action::kUpdateV1_37);
  EventObjects objects;
  objects.new_pod = added;
  for (const ClusterEventWithHint& e : events) {
    ASSERT_TRUE(e.hint);
    Result<QueueingHint> hint = e.hint(*pod, objects);
    ASSERT_TRUE(hint.ok());
    EXPECT_EQ(*hint, QueueingHint::kQueueSkip) << e.event.resource;
  }
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
