// Features: what a run's compatibility level and feature gates switch on, as one value built once
// per run and handed to plugin factories, the runtime, the cache, BuildPod and the accelerator
// (upstream's pkg/scheduler/framework/plugins/feature.Features, which kube-scheduler builds from
// its feature gate and hands to every plugin factory).
//
// Rules branch on a named feature, never on the level: `if (features.sidecar_containers)`. The
// table in features.cc is the whole difference between the levels, one row per feature with its
// value at each level; a row named after an upstream feature gate takes that gate's value when a
// run sets it (`--feature-gates`). A change upstream made without a gate has a row named for
// what it does. Adding a level is a new column in that table plus the rules that really differ.
#ifndef SCHEDCHECK_REFERENCE_BASE_FEATURES_H_
#define SCHEDCHECK_REFERENCE_BASE_FEATURES_H_

#include <span>
#include <string_view>

#include "reference/base/compat_level.h"
#include "reference/base/feature_gates.h"
#include "reference/base/result.h"

namespace schedcheck::reference {

// Every field is set by FeaturesFor from the table; there is no default level.
struct Features {
  // --- upstream feature gates (the row is named after the gate) ---
  // Restartable init containers run beside the app containers and count in the pod's requests
  // (component-helpers' PodRequests); off, a pod's requests are v1.27's sums and peaks.
  bool sidecar_containers;
  // spec.resources counts in a pod's requests.
  bool pod_level_resources;
  // The pod-level status resources count in a pod's requests.
  bool in_place_pod_level_resources_vertical_scaling;
  // Plugins register queueing hints and the queue asks them (the v1.37 queue).
  bool scheduler_queueing_hints;
  // DefaultPreemption deletes victims asynchronously and holds the preemptor back meanwhile.
  bool scheduler_async_preemption;
  // The v1.33+ queue pops pods whose backoff ended from the backoff queue.
  bool scheduler_pop_from_backoff_q;
  // A later pod of the same signature may reuse the previous pod's scores.
  bool opportunistic_batching;
  // VolumeBinding scores nodes by the storage capacity its claims would use.
  bool storage_capacity_scoring;
  // NodeVolumeLimits rejects a node whose CSINode lacks the CSI driver of a new volume.
  bool volume_limit_scaling;
  // PodTopologySpread merges a constraint's matchLabelKeys into its selector.
  bool match_label_keys_in_pod_topology_spread;
  // GangScheduling joins the default profile; PodGroup events reach the wildcard hints.
  bool generic_workload;
  // The binding cycle writes nominatedNodeName before PreBind (PreBindPreFlight).
  bool nominated_node_name_for_expectation;
  // The API dispatcher queues the scheduler's API calls.
  bool scheduler_async_api_calls;
  // The DynamicResources plugin exists (it rejects pods with claims: not modelled).
  bool dynamic_resource_allocation;
  // The NodeDeclaredFeatures plugin exists.
  bool node_declared_features;

  // --- changes upstream made without a gate (named for what they do) ---
  // The GangScheduling plugin exists (new in v1.35).
  bool gang_scheduling_plugin;
  // PreFilter and PreScore return Skip when the pod gives the plugin nothing to do (v1.27
  // writes an empty state and returns Success).
  bool skip_when_nothing_to_do;
  // RunPreFilterPlugins goes on after an Unschedulable PreFilter, keeps the Skip set on every
  // return, and reports disjoint node sets as UnschedulableAndUnresolvable.
  bool pre_filter_runs_past_unschedulable;
  // The diagnosis covers every node: PreFilter's narrowing plugins reject the nodes it left
  // out, the next start index rotates over all nodes, names that are not nodes are skipped, and
  // a preemption FitError counts every node.
  bool diagnosis_covers_every_node;
  // A profile that scores nothing takes the first feasible node.
  bool first_feasible_node_without_score_plugins;
  // The score heap picks the host (sortedScoredNodes) instead of reservoir sampling.
  bool score_heap_picks_host;
  // Error and reason texts use their newer wording (each use site quotes both).
  bool reworded_messages;
  // TaintToleration's Filter says "untolerated taint(s)" without the taint.
  bool untolerated_taint_message_hides_taint;
  // ImageLocality scores the init containers' images too.
  bool image_locality_counts_init_containers;
  // NodeName has a PreFilter that narrows the nodes to spec.nodeName.
  bool node_name_pre_filter;
  // NodeResourcesFit compares only the resources a pod requests (> 0), and a request beyond the
  // node's allocatable is UnschedulableAndUnresolvable.
  bool fit_compares_requested_resources_only;
  // BalancedAllocation scores the change the pod makes to the node's balance.
  bool balanced_allocation_scores_the_change;
  // PodTopologySpread counts matching pods per constraint (not per topology pair alone).
  bool spread_counts_per_constraint;
  // DefaultPreemption reads each victim's start time once, sorts victims by importance again
  // after the reprieve, and picks candidates with the v1.37 order.
  bool preemption_reads_start_times_once;
  // DefaultPreemption's prepareCandidate leaves out victims already terminating.
  bool preemption_skips_terminating_victims;
  // DefaultPreemption is also a PreEnqueue plugin (it holds back a preemptor whose asynchronous
  // preemption runs, under SchedulerAsyncPreemption).
  bool default_preemption_pre_enqueue;
  // VolumeZone falls back to the GA topology label for a beta one.
  bool volume_zone_reads_ga_labels;
  // The assume cache of VolumeBinding is passive (v1.37): versions must be equal, and the
  // listers' NotFound is the API's.
  bool volume_assume_cache_is_passive;
  // VolumeBinding is a PreScore plugin (scoring under StorageCapacityScoring).
  bool volume_binding_pre_score;
  // VolumeBinding's PreFilter narrows the nodes to those of the bound PVs' node affinity.
  bool volume_binding_narrows_to_bound_pv_nodes;
  // VolumeBinding's wait for bindings runs under a context deadline (checked before each look).
  bool volume_bind_wait_has_deadline;
  // rbd is an in-tree volume plugin (counted against its CSI driver's limit).
  bool rbd_in_tree_plugin;
  // CSI migration is complete for every migratable in-tree plugin (no CSINode annotation read).
  bool csi_migration_complete;
  // NodeVolumeLimits alone counts volumes (the in-tree EBS/GCEPD/AzureDisk limits are gone):
  // limits come from the CSINode alone, keyed by driver, and a missing claim is unresolvable.
  bool volume_limits_from_csi_node_only;
  // The cache refreshes the image counts of changed nodes when it updates the snapshot.
  bool snapshot_refreshes_image_counts;
  // The failure handler leaves a pod that was deleted and recreated under the same name while it
  // was being scheduled (a new UID) to the informer: not requeued, no nomination written.
  bool failure_handler_skips_recreated_pod;
  // Pods have spec.schedulingGroup (v1.36, naming a scheduling.k8s.io PodGroup); v1.27 has no
  // such field.
  bool pod_scheduling_group_field;
  // expandMultiPointPlugins walks a copy of an extension point's explicit list while it deletes
  // the plugins also in MultiPoint from it (v1.37). v1.27 walks the list itself, so a plugin is
  // repeated and the one after each deletion is passed by (reference/runtime/framework_build.cc).
  bool multi_point_expansion_walks_a_copy;
};

// One row of the table: a feature and its value at each level (indexed by CompatLevel).
struct FeatureRow {
  std::string_view name;  // the upstream gate's name, or the switch's
  bool Features::*field;
  bool by_level[kNumCompatLevels];
  // A run's `--feature-gates` may set it (CheckFeatureGates decides which values).
  bool is_gate;
};

// The table, in declaration order of Features.
std::span<const FeatureRow> FeatureTable();

// The features of a run at `level` with `gates` applied over the level's column. Errors: the
// gates CheckFeatureGates refuses (e.g. a gate on whose dependency is off), with its reason.
Result<Features> FeaturesFor(CompatLevel level, const FeatureGates& gates);
// The features of a run at `level` with no gates set (cannot fail).
Features FeaturesFor(CompatLevel level);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_BASE_FEATURES_H_
