#include "reference/base/features.h"

#include <string>

namespace schedcheck::reference {
namespace {

using F = Features;

// The difference between the levels. Columns: v1.27, v1.37 (kube-scheduler v1.27.8, v1.37.2).
// A gate's v1.37 value is its default at v1.37.2 (feature_gates.cc); its v1.27 value is what
// v1.27.8 did (a gate that did not exist yet: off, but MatchLabelKeysInPodTopologySpread, beta
// and on at v1.27).
constexpr FeatureRow kTable[] = {
    // Upstream feature gates.
    {"SidecarContainers", &F::sidecar_containers, {false, true}, true},
    {"PodLevelResources", &F::pod_level_resources, {false, true}, true},
    {"InPlacePodLevelResourcesVerticalScaling",
     &F::in_place_pod_level_resources_vertical_scaling,
     {false, true},
     true},
    {"SchedulerQueueingHints", &F::scheduler_queueing_hints, {false, true}, true},
    {"SchedulerAsyncPreemption", &F::scheduler_async_preemption, {false, true}, true},
    {"SchedulerPopFromBackoffQ", &F::scheduler_pop_from_backoff_q, {false, true}, true},
    {"OpportunisticBatching", &F::opportunistic_batching, {false, true}, true},
    {"StorageCapacityScoring", &F::storage_capacity_scoring, {false, true}, true},
    {"VolumeLimitScaling", &F::volume_limit_scaling, {false, true}, true},
    {"MatchLabelKeysInPodTopologySpread",
     &F::match_label_keys_in_pod_topology_spread,
     {true, true},
     true},
    {"GenericWorkload", &F::generic_workload, {false, false}, true},
    {"NominatedNodeNameForExpectation",
     &F::nominated_node_name_for_expectation,
     {false, true},
     true},
    {"SchedulerAsyncAPICalls", &F::scheduler_async_api_calls, {false, false}, true},
    {"DynamicResourceAllocation", &F::dynamic_resource_allocation, {false, true}, true},
    {"NodeDeclaredFeatures", &F::node_declared_features, {false, true}, true},
    // Changes without a gate.
    {"GangSchedulingPlugin", &F::gang_scheduling_plugin, {false, true}, false},
    {"SkipWhenNothingToDo", &F::skip_when_nothing_to_do, {false, true}, false},
    {"PreFilterRunsPastUnschedulable",
     &F::pre_filter_runs_past_unschedulable,
     {false, true},
     false},
    {"DiagnosisCoversEveryNode", &F::diagnosis_covers_every_node, {false, true}, false},
    {"FirstFeasibleNodeWithoutScorePlugins",
     &F::first_feasible_node_without_score_plugins,
     {false, true},
     false},
    {"ScoreHeapPicksHost", &F::score_heap_picks_host, {false, true}, false},
    {"RewordedMessages", &F::reworded_messages, {false, true}, false},
    {"UntoleratedTaintMessageHidesTaint",
     &F::untolerated_taint_message_hides_taint,
     {false, true},
     false},
    {"ImageLocalityCountsInitContainers",
     &F::image_locality_counts_init_containers,
     {false, true},
     false},
    {"NodeNamePreFilter", &F::node_name_pre_filter, {false, true}, false},
    {"FitComparesRequestedResourcesOnly",
     &F::fit_compares_requested_resources_only,
     {false, true},
     false},
    {"BalancedAllocationScoresTheChange",
     &F::balanced_allocation_scores_the_change,
     {false, true},
     false},
    {"SpreadCountsPerConstraint", &F::spread_counts_per_constraint, {false, true}, false},
    {"PreemptionReadsStartTimesOnce", &F::preemption_reads_start_times_once, {false, true}, false},
    {"PreemptionSkipsTerminatingVictims",
     &F::preemption_skips_terminating_victims,
     {false, true},
     false},
    {"DefaultPreemptionPreEnqueue", &F::default_preemption_pre_enqueue, {false, true}, false},
    {"VolumeZoneReadsGaLabels", &F::volume_zone_reads_ga_labels, {false, true}, false},
    {"VolumeAssumeCacheIsPassive", &F::volume_assume_cache_is_passive, {false, true}, false},
    {"VolumeBindingPreScore", &F::volume_binding_pre_score, {false, true}, false},
    {"VolumeBindingNarrowsToBoundPvNodes",
     &F::volume_binding_narrows_to_bound_pv_nodes,
     {true, false},
     false},
    {"VolumeBindWaitHasDeadline", &F::volume_bind_wait_has_deadline, {false, true}, false},
    {"RbdInTreePlugin", &F::rbd_in_tree_plugin, {true, false}, false},
    {"CsiMigrationComplete", &F::csi_migration_complete, {false, true}, false},
    {"VolumeLimitsFromCsiNodeOnly", &F::volume_limits_from_csi_node_only, {false, true}, false},
    {"SnapshotRefreshesImageCounts", &F::snapshot_refreshes_image_counts, {false, true}, false},
    {"FailureHandlerSkipsRecreatedPod",
     &F::failure_handler_skips_recreated_pod,
     {false, true},
     false},
    {"PodSchedulingGroupField", &F::pod_scheduling_group_field, {false, true}, false},
    {"MultiPointExpansionWalksACopy", &F::multi_point_expansion_walks_a_copy, {false, true}, false},
};

}  // namespace

std::span<const FeatureRow> FeatureTable() { return kTable; }

Result<Features> FeaturesFor(CompatLevel level, const FeatureGates& gates) {
  if (std::string why = CheckFeatureGates(gates, CompatLevelName(level)); !why.empty()) {
    return Error{why};
  }
  Features features = FeaturesFor(level);
  for (const FeatureRow& row : kTable) {
    if (!row.is_gate) continue;
    if (auto it = gates.find(std::string(row.name)); it != gates.end()) {
      features.*row.field = it->second;
    }
  }
  return features;
}

Features FeaturesFor(CompatLevel level) {
  Features features;
  for (const FeatureRow& row : kTable) features.*row.field = row.by_level[static_cast<int>(level)];
  return features;
}

}  // namespace schedcheck::reference
