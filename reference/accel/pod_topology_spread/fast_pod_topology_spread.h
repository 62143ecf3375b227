// PodTopologySpread for the fast engine: the results of the plain rule
// (reference/plugins/pod_topology_spread) with the work kept across cycles. PreFilter's and
// PreScore's per-domain sums over every node are brought up to date from the snapshot's change
// log (domain_counts.h) instead of recounted; per-node matching-pod counts and topology label
// values are kept while a node is unchanged (match_count_cache.h); selectors and topology keys
// are interned (fast_constraint.h); Filter and Score have batch forms (accel/batch_plugin.h).
// Argument parsing, default constraints and event registration are the plain plugin's.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_POD_TOPOLOGY_SPREAD_H_
#define SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_POD_TOPOLOGY_SPREAD_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/pod_topology_spread/domain_counts.h"
#include "reference/accel/pod_topology_spread/fast_constraint.h"
#include "reference/accel/pod_topology_spread/match_count_cache.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/pod_topology_spread/pod_topology_spread.h"

namespace schedcheck::reference {

class FastPodTopologySpread final : public PreFilterPlugin,
                                    public FilterPlugin,
                                    public PreScorePlugin,
                                    public ScorePlugin,
                                    public EnqueueExtensions,
                                    public QueueingHintExtensions,
                                    public BatchFilterPlugin,
                                    public BatchScorePlugin,
                                    public UniformScorePlugin,
                                    public SpreadDefaults {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  FastPodTopologySpread(PodTopologySpreadArgs args, const Handle& handle);

  std::string_view Name() const override { return PodTopologySpread::kName; }

  // fast_filtering.cc
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_remove,
                   const NodeInfo& node) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
  // True when PreFilter stored a state without DoNotSchedule constraints: Filter then passes
  // every node (that exists), whatever its pods, and AddPod / RemovePod change nothing it reads.
  bool FilterIgnoresPods(const CycleState& state) const;

  // fast_scoring.cc
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;
  // Every node scores 0 when the pod has no ScheduleAnyway constraints.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;

  std::vector<ClusterEvent> EventsToRegister() const override { return plain_.EventsToRegister(); }
  bool has_default_constraints() const override { return plain_.has_default_constraints(); }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return plain_.EventsToRegisterWithHints();
  }

 private:
  // The pod's own constraints for `action`, or the default constraints when it has none, compiled.
  Result<std::vector<pod_topology_spread::fast::FastConstraint>> GetConstraints(
      const Pod& pod, std::string_view action) const;
  // Adds delta to the counts for `updated` on `node` (updateWithPod).
  Status UpdateWithPod(CycleState& state, const Pod& updated, const Pod& preemptor,
                       const NodeInfo& node, int delta) const;

  // Arguments, default constraints and events.
  PodTopologySpread plain_;
  // Matching-pod counts of unchanged nodes, kept from earlier cycles (match_count_cache.h).
  pod_topology_spread::fast::MatchCountCache match_counts_;
  // PreFilter's and PreScore's per-domain sums, kept across cycles (domain_counts.h).
  pod_topology_spread::fast::DomainCountCache domain_counts_;
  // Nodes' topology label values, kept while a node is unchanged.
  pod_topology_spread::fast::NodeLabelMemo node_labels_;
  const Handle& handle_;
  // The counts keyed per constraint (v1.27: per topology key): spread_counts_per_constraint.
  bool per_constraint_;
  // Skip where v1.27 writes an empty state: skip_when_nothing_to_do.
  bool skip_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_POD_TOPOLOGY_SPREAD_FAST_POD_TOPOLOGY_SPREAD_H_
