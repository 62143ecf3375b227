#include "reference/base/feature_gates.h"

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(FeatureGatesTest, ParsesGosMapStringBool) {
  auto g = ParseFeatureGates(" OpportunisticBatching=false, SchedulerPopFromBackoffQ=T ");
  ASSERT_TRUE(g.ok()) << g.message();
  EXPECT_EQ(*g,
            (FeatureGates{{"OpportunisticBatching", false}, {"SchedulerPopFromBackoffQ", true}}));
  EXPECT_EQ(FeatureGatesText(*g), "OpportunisticBatching=false,SchedulerPopFromBackoffQ=true");
  EXPECT_TRUE(ParseFeatureGates("")->empty());
  for (const char* bad :
       {"OpportunisticBatching", "OpportunisticBatching=maybe", "=true", "A=true,,B=false"}) {
    auto r = ParseFeatureGates(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.message().find("expected NAME=true|false"), std::string::npos) << r.message();
  }
}

TEST(FeatureGatesTest, OnlyModelledValuesAtCompat137) {
  EXPECT_EQ(CheckFeatureGates({}, "1.27"), "");
  EXPECT_EQ(CheckFeatureGates({{"OpportunisticBatching", false}}, "1.37"), "");
  // Defaults are accepted for every known gate.
  EXPECT_EQ(CheckFeatureGates({{"SchedulerAsyncPreemption", true}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"SchedulerAsyncAPICalls", false}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"SchedulerPopFromBackoffQ", false}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"SchedulerAsyncPreemption", false}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"NominatedNodeNameForExpectation", false}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"InPlacePodLevelResourcesVerticalScaling", false}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"GenericWorkload", true}}, "1.37"), "");
  // MatchLabelKeysInPodTopologySpread off needs the API server's selector merge off too.
  EXPECT_EQ(CheckFeatureGates({{"MatchLabelKeysInPodTopologySpread", false},
                               {"MatchLabelKeysInPodTopologySpreadSelectorMerge", false}},
                              "1.37"),
            "");
  EXPECT_NE(CheckFeatureGates({{"MatchLabelKeysInPodTopologySpread", false}}, "1.37")
                .find("MatchLabelKeysInPodTopologySpreadSelectorMerge is enabled, but depends on "
                      "features that are disabled: [MatchLabelKeysInPodTopologySpread]"),
            std::string::npos);
  // The DRA beta gates, each way; their own dependencies hold.
  EXPECT_EQ(CheckFeatureGates({{"DRAPartitionableDevices", false},
                               {"DRASchedulerFilterTimeout", false},
                               {"DRADeviceBindingConditions", false}},
                              "1.37"),
            "");
  EXPECT_NE(CheckFeatureGates({{"DRAConsumableCapacity", false}}, "1.37")
                .find("DRAFractionalCapacityRange is enabled, but depends"),
            std::string::npos);
  EXPECT_NE(
      CheckFeatureGates({{"DRAWorkloadResourceClaims", true}}, "1.37").find("[GenericWorkload]"),
      std::string::npos);
  EXPECT_EQ(
      CheckFeatureGates({{"DRAWorkloadResourceClaims", true}, {"GenericWorkload", true}}, "1.37"),
      "");
  // An alpha gate kube-scheduler reads: its default only.
  EXPECT_NE(CheckFeatureGates({{"CompositePodGroup", true}}, "1.37")
                .find("models the alpha gate CompositePodGroup only at its v1.37.2 default"),
            std::string::npos);
  // PodLevelResources off needs the gates on by default that depend on it off too.
  EXPECT_EQ(CheckFeatureGates({{"PodLevelResources", false},
                               {"InPlacePodLevelResourcesVerticalScaling", false},
                               {"PodLevelResourcesFixDefaulting", false},
                               {"PodLevelResourcesFixKubeletQOSClass", false}},
                              "1.37"),
            "");
  EXPECT_EQ(
      CheckFeatureGates({{"PodLevelResources", false}, {"PodLevelResourcesFixDefaulting", false}},
                        "1.37"),
      "feature gates PodLevelResources=false,PodLevelResourcesFixDefaulting=false: "
      "[InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are "
      "disabled: [PodLevelResources], PodLevelResourcesFixKubeletQOSClass is enabled, but depends "
      "on features that are disabled: [PodLevelResources]]");
  EXPECT_EQ(CheckFeatureGates({{"SchedulerAsyncAPICalls", true}}, "1.37"), "");
  EXPECT_EQ(CheckFeatureGates({{"SchedulerPreQueueingHints", true}}, "1.37"), "");
  EXPECT_NE(CheckFeatureGates({{"TaintTolerationComparisonOperators", true}}, "1.37")
                .find("only at its v1.37.2 default (false)"),
            std::string::npos);
  EXPECT_NE(CheckFeatureGates({{"NoSuchGate", true}}, "1.37").find("feature gate NoSuchGate"),
            std::string::npos);
  EXPECT_NE(CheckFeatureGates({{"OpportunisticBatching", false}}, "1.27").find("compat 1.37 only"),
            std::string::npos);
  EXPECT_FALSE(GateEnabled({{"OpportunisticBatching", false}}, kOpportunisticBatching));
  EXPECT_TRUE(GateEnabled({}, kOpportunisticBatching));
  EXPECT_FALSE(GateEnabled({}, "SchedulerAsyncAPICalls"));
  EXPECT_FALSE(GateEnabled({}, kGenericWorkload));
}

}  // namespace
}  // namespace schedcheck::reference
