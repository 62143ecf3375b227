#include "reference/base/features.h"

#include <set>

#include <gtest/gtest.h>

namespace schedcheck::reference {
namespace {

TEST(FeaturesTest, TheTableSetsEveryFieldOnce) {
  Features probe{};  // every field false
  std::set<std::string_view> names;
  for (const FeatureRow& row : FeatureTable()) {
    EXPECT_FALSE(probe.*row.field) << row.name << ": a field in two rows";
    probe.*row.field = true;
    EXPECT_TRUE(names.insert(row.name).second) << row.name << ": a name in two rows";
  }
  // Features holds bools only: one row per field.
  EXPECT_EQ(FeatureTable().size(), sizeof(Features) / sizeof(bool));
}

TEST(FeaturesTest, EachLevelsColumn) {
  const Features v127 = FeaturesFor(CompatLevel::kV1_27);
  const Features v137 = FeaturesFor(CompatLevel::kV1_37);
  // Gates that did not exist at v1.27, on by default at v1.37.
  EXPECT_FALSE(v127.sidecar_containers);
  EXPECT_TRUE(v137.sidecar_containers);
  EXPECT_FALSE(v127.pod_level_resources);
  EXPECT_TRUE(v137.pod_level_resources);
  EXPECT_FALSE(v127.scheduler_async_preemption);
  EXPECT_TRUE(v137.scheduler_async_preemption);
  EXPECT_FALSE(v127.opportunistic_batching);
  EXPECT_TRUE(v137.opportunistic_batching);
  // Beta and on at both levels; off at both.
  EXPECT_TRUE(v127.match_label_keys_in_pod_topology_spread);
  EXPECT_TRUE(v137.match_label_keys_in_pod_topology_spread);
  EXPECT_FALSE(v127.generic_workload);
  EXPECT_FALSE(v137.generic_workload);
  // Switches without a gate, in both directions.
  EXPECT_FALSE(v127.score_heap_picks_host);
  EXPECT_TRUE(v137.score_heap_picks_host);
  EXPECT_TRUE(v127.rbd_in_tree_plugin);
  EXPECT_FALSE(v137.rbd_in_tree_plugin);
  EXPECT_TRUE(v127.volume_binding_narrows_to_bound_pv_nodes);
  EXPECT_FALSE(v137.volume_binding_narrows_to_bound_pv_nodes);
  // Every row takes its column.
  for (const FeatureRow& row : FeatureTable()) {
    EXPECT_EQ(v127.*row.field, row.by_level[static_cast<int>(CompatLevel::kV1_27)]) << row.name;
    EXPECT_EQ(v137.*row.field, row.by_level[static_cast<int>(CompatLevel::kV1_37)]) << row.name;
  }
}

// A gate row's v1.37 value is the gate's v1.37.2 default, as the gate list has it.
TEST(FeaturesTest, GateRowsAtV137AreTheGateDefaults) {
  const FeatureGates none;
  for (const FeatureRow& row : FeatureTable()) {
    if (!row.is_gate) continue;
    // Gates locked at v1.37.2 (GA) are not in the settable list; their column says on.
    const bool settable =
        CheckFeatureGates({{std::string(row.name), row.by_level[1]}}, "1.37").empty();
    if (settable) {
      EXPECT_EQ(row.by_level[1], GateEnabled(none, row.name)) << row.name;
    }
  }
}

TEST(FeaturesTest, GatesApplyOverTheColumn) {
  auto f = FeaturesFor(CompatLevel::kV1_37, {{"SchedulerAsyncPreemption", false},
                                             {"OpportunisticBatching", false},
                                             {"GenericWorkload", true}});
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_FALSE(f->scheduler_async_preemption);
  EXPECT_FALSE(f->opportunistic_batching);
  EXPECT_TRUE(f->generic_workload);
  // Rows the gates leave alone keep the column.
  EXPECT_TRUE(f->storage_capacity_scoring);
  EXPECT_TRUE(f->score_heap_picks_host);
  auto pod_level =
      FeaturesFor(CompatLevel::kV1_37, {{"PodLevelResources", false},
                                        {"InPlacePodLevelResourcesVerticalScaling", false},
                                        {"PodLevelResourcesFixDefaulting", false},
                                        {"PodLevelResourcesFixKubeletQOSClass", false}});
  ASSERT_TRUE(pod_level.ok()) << pod_level.message();
  EXPECT_FALSE(pod_level->pod_level_resources);
  EXPECT_FALSE(pod_level->in_place_pod_level_resources_vertical_scaling);
}

TEST(FeaturesTest, RefusesWhatTheGateCheckRefuses) {
  // A dependency: InPlacePodLevelResourcesVerticalScaling (on) needs PodLevelResources.
  auto dependency = FeaturesFor(CompatLevel::kV1_37, {{"PodLevelResources", false}});
  ASSERT_FALSE(dependency.ok());
  EXPECT_NE(dependency.message().find("InPlacePodLevelResourcesVerticalScaling is enabled, but "
                                      "depends on features that are disabled: [PodLevelResources]"),
            std::string::npos)
      << dependency.message();
  // No gates at v1.27; no gate that is not one, nor a switch's name.
  EXPECT_FALSE(FeaturesFor(CompatLevel::kV1_27, {{"OpportunisticBatching", false}}).ok());
  EXPECT_FALSE(FeaturesFor(CompatLevel::kV1_37, {{"ScoreHeapPicksHost", false}}).ok());
  EXPECT_TRUE(FeaturesFor(CompatLevel::kV1_27, {}).ok());
}

}  // namespace
}  // namespace schedcheck::reference
