#include "reference/framework/events.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

ClusterEvent Event(std::string_view resource, uint32_t action) {
  return {std::string(resource), action, ""};
}

// Every row of kubernetes v1.37.2 pkg/scheduler/framework/types_test.go TestClusterEventMatching.
TEST(MatchClusterEventsV1_37Test, TestClusterEventMatchingRows) {
  using namespace action;
  struct Row {
    const char* name;
    ClusterEvent registered;
    ClusterEvent incoming;
    bool want;
  };
  const Row rows[] = {
      {"wildcard event matches with all kinds of coming events", Event("*", kAllV1_37),
       Event("Pod", kUpdateNodeLabel), true},
      {"event with resource = 'Pod' matching with coming events carries matching actionType",
       Event("Pod", kUpdateNodeLabel | kUpdateNodeTaint), Event("Pod", kUpdateNodeLabel), true},
      {"event with resource = 'Pod' also matches event with 'UnscheduledPod' resource and matching "
       "actionType",
       Event("Pod", kUpdateNodeLabel | kUpdateNodeTaint), Event("UnscheduledPod", kUpdateNodeLabel),
       true},
      {"event with resource = '*' matching with coming events carries same actionType",
       Event("*", kUpdateNodeLabel), Event("Pod", kUpdateNodeLabel), true},
      {"event with resource = '*' matching with coming events carries different actionType",
       Event("*", kUpdateNodeLabel), Event("Pod", kUpdateNodeAllocatable), false},
      {"event matching with coming events carries '*' resources", Event("Pod", kUpdateNodeLabel),
       Event("*", kUpdateNodeLabel), false},
      {"event with resource = '*' matching with coming events carrying a too broad actionType",
       Event("*", kUpdateNodeLabel), Event("Pod", kUpdateV1_37), false},
      {"event with resource = '*' matching with coming events carrying a more specific actionType",
       Event("*", kUpdateV1_37), Event("Pod", kUpdateNodeLabel), true},
      {"event with resource = 'Pod' also matches event with 'UnscheduledPod' resource and matching "
       "actionType",
       Event("Pod", kUpdateNodeLabel | kUpdateNodeTaint), Event("UnscheduledPod", kUpdateNodeLabel),
       true},
      {"event with resource = 'Pod' also matches event with AssignedPod resource and same "
       "actionType",
       Event("Pod", kUpdateNodeLabel), Event("AssignedPod", kUpdateNodeLabel), true},
      {"event with resource = 'Pod' also matches event with 'TargetPod' resource and same "
       "actionType",
       Event("Pod", kUpdateNodeTaint), Event("TargetPod", kUpdateNodeTaint), true},
      {"event with resource 'AssignedPod' does not match event with 'UnscheduledPod' resource and "
       "same actionType",
       Event("AssignedPod", kAdd), Event("UnscheduledPod", kAdd), false},
      {"event with resource 'AssignedPod' does not match event with 'TargetPod' resource and same "
       "actionType",
       Event("AssignedPod", kUpdateV1_37), Event("TargetPod", kUpdateV1_37), false},
      {"event with resource 'TargetPod' does not match event with 'AssignedPod' resource and same "
       "actionType",
       Event("TargetPod", kUpdateV1_37), Event("AssignedPod", kUpdateV1_37), false},
      {"event with resource 'AssignedPod' does not match with broad 'Pod' resource and same "
       "actionType",
       Event("AssignedPod", kAdd), Event("Pod", kAdd), false},
      {"event with resource 'AssignedPod' does not match with 'WildCard' resource and same "
       "actionType",
       Event("AssignedPod", kAdd), Event("*", kAdd), false},
      {"event with resource 'UnscheduledPod' does not match with broad 'Pod' resource and same "
       "actionType",
       Event("UnscheduledPod", kAdd), Event("Pod", kAdd), false},
      {"event with resource 'UnscheduledPod' does not match with 'WildCard' resource and same "
       "actionType",
       Event("UnscheduledPod", kAdd), Event("*", kAdd), false},
      {"WildCard matches with a pod sub-type resource 'TargetPod' and any actionType",
       Event("*", kAllV1_37), Event("TargetPod", kUpdateV1_37), true},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(MatchClusterEventsV1_37(row.registered, row.incoming), row.want) << row.name;
  }
}

TEST(ActionNameV1_37Test, RoundTripsEveryBit) {
  for (uint32_t bit = 1; bit <= action::kUpdatePodGeneratedResourceClaim; bit <<= 1) {
    std::string_view name = ActionNameV1_37(bit);
    ASSERT_FALSE(name.empty()) << bit;
    EXPECT_EQ(ParseActionNameV1_37(name), bit) << name;
  }
  EXPECT_EQ(ActionNameV1_37(action::kUpdatePodLabel), "UpdatePodLabel");
  EXPECT_EQ(ParseActionNameV1_37("Update"), action::kUpdateV1_37);
  EXPECT_EQ(ParseActionNameV1_37("All"), action::kAllV1_37);
  EXPECT_EQ(ParseActionNameV1_37("update"), 0u);
  EXPECT_EQ(ActionNameV1_37(action::kAdd | action::kDelete), "");
}

}  // namespace
}  // namespace schedcheck::reference
