#include "reference/plugins/scheduling_gates/scheduling_gates.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

struct Case {
  const char* name;
  const char* pod_yaml;
  Code want_code;
  std::string want_reason;
};

// Modelled on upstream schedulinggates/scheduling_gates_test.go TestPreEnqueue (v1.27).
TEST(SchedulingGates, PreEnqueue) {
  const std::vector<Case> cases = {
      {"pod does not carry scheduling gates", "metadata: {name: p}", Code::kSuccess, ""},
      {"empty gate list", "metadata: {name: p}\nspec: {schedulingGates: []}", Code::kSuccess, ""},
      {"pod carries scheduling gates",
       "metadata: {name: p}\nspec: {schedulingGates: [{name: foo}, {name: bar}]}",
       Code::kUnschedulableAndUnresolvable, "waiting for scheduling gates: [foo bar]"},
      {"single gate", "metadata: {name: p}\nspec: {schedulingGates: [{name: example.com/g}]}",
       Code::kUnschedulableAndUnresolvable, "waiting for scheduling gates: [example.com/g]"},
  };
  SchedulingGates pl;
  for (const Case& c : cases) {
    Status s = pl.PreEnqueue(*testing::ParsePod(c.pod_yaml, CompatLevel::kV1_27));
    EXPECT_EQ(s.code(), c.want_code) << c.name;
    if (!c.want_reason.empty()) {
      ASSERT_EQ(s.reasons().size(), 1u) << c.name;
      EXPECT_EQ(s.reasons()[0], c.want_reason) << c.name;
    } else {
      EXPECT_TRUE(s.reasons().empty()) << c.name;
    }
  }
}

TEST(SchedulingGates, EventsToRegister) {
  SchedulingGates pl;
  auto events = pl.EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].resource, "Pod");
  EXPECT_EQ(events[0].action, action::kUpdate);
}

TEST(SchedulingGates, NewRejectsArgs) {
  Handle h{FeaturesFor(CompatLevel::kV1_27)};
  EXPECT_TRUE(SchedulingGates::New(nullptr, h).ok());
  EXPECT_FALSE(SchedulingGates::New(nlohmann::json{{"foo", true}}, h).ok());
}

}  // namespace
}  // namespace schedcheck::reference
