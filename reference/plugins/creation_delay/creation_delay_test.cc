#include "reference/plugins/creation_delay/creation_delay.h"

#include <gtest/gtest.h>

#include "reference/api/rfc3339.h"
#include "reference/testing/objects.h"

namespace schedcheck::reference {
namespace {

TEST(CreationDelayTest, RejectsUntilTheDelayHasPassed) {
  VirtualClock clock;
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  handle.clock = &clock;
  handle.epoch_unix_ns = *ParseRfc3339("2023-05-01T12:00:00Z");
  CreationDelay plugin(handle);
  PodPtr pod = testing::ParsePod(R"(metadata:
  name: p
  creationTimestamp: "2023-05-01T12:00:00Z"
  annotations: {schedcheck.io/creation-delay-seconds: "20"})",
                                 CompatLevel::kV1_27);
  CycleState state;
  PreFilterResult result;
  clock.SetNs(19 * kNanosPerSecond);
  Status s = plugin.PreFilter(state, *pod, &result);
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "pod is younger than its creation delay of 20s");
  clock.SetNs(20 * kNanosPerSecond);
  EXPECT_TRUE(plugin.PreFilter(state, *pod, &result).IsSuccess());
  EXPECT_TRUE(plugin.EventsToRegister().empty());
}

TEST(CreationDelayTest, NoAnnotationPassesAndGarbageIsAnError) {
  Handle handle{FeaturesFor(CompatLevel::kV1_27)};
  CreationDelay plugin(handle);
  CycleState state;
  PreFilterResult result;
  EXPECT_TRUE(
      plugin
          .PreFilter(state, *testing::ParsePod("metadata: {name: p}", CompatLevel::kV1_27), &result)
          .IsSuccess());
  PodPtr bad = testing::ParsePod(
      "metadata: {name: p, annotations: {schedcheck.io/creation-delay-seconds: soon}}",
      CompatLevel::kV1_27);
  EXPECT_EQ(plugin.PreFilter(state, *bad, &result).code(), Code::kError);
}

}  // namespace
}  // namespace schedcheck::reference
