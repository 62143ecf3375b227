// PodTopologySpread (v1.27 podtopologyspread/): DoNotSchedule constraints filter nodes whose
// domain would exceed maxSkew; ScheduleAnyway constraints score nodes by how many matching pods
// their domains already hold. PreFilter and PreScore never return Skip in v1.27 (added in 1.28):
// a pod without constraints gets an empty state, passes Filter, and every node normalises to 100.
// A pod without constraints gets the default constraints (System or List) with the selector of
// default_selector.h, unless that selector is empty. See README.md in this folder.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_POD_TOPOLOGY_SPREAD_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_POD_TOPOLOGY_SPREAD_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/pod_topology_spread/common.h"
#include "reference/plugins/pod_topology_spread/domain_counts.h"
#include "reference/plugins/pod_topology_spread/match_count_cache.h"

namespace schedcheck::reference {

inline constexpr std::string_view kErrReasonConstraintsNotMatch =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kErrReasonNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";

// PodTopologySpreadArgs after defaulting (defaultingType "" -> System) and validation.
struct PodTopologySpreadArgs {
  std::vector<k8s::TopologySpreadConstraint> default_constraints;
  std::string defaulting_type = "System";  // System | List
};

// Parses pluginConfig args (null = defaults) and applies ValidatePodTopologySpreadArgs.
Result<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(const PluginArgs& args);

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions, public BatchFilterPlugin, public BatchScorePlugin, public UniformScorePlugin {
 public:
  static constexpr std::string_view kName = "PodTopologySpread";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterPodTopologySpread";
  static constexpr std::string_view kPreScoreStateKey = "PreScorePodTopologySpread";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  PodTopologySpread(PodTopologySpreadArgs args, const Handle& handle);

  std::string_view Name() const override { return kName; }

  // filtering.cc
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_remove,
                   const NodeInfo& node) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;

  // scoring.cc
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) override;
  // Every node scores 0 when the pod has no ScheduleAnyway constraints.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;

  // Pod: All; Node: Add | Delete | UpdateNodeLabel.
  std::vector<ClusterEvent> EventsToRegister() const override;

 private:
  // The pod's own constraints for `action`, or the default constraints when it has none.
  Result<std::vector<pod_topology_spread::SpreadConstraint>> GetConstraints(
      const Pod& pod, std::string_view action) const;
  // buildDefaultConstraints: the default constraints with DefaultSelector (default_selector.h);
  // none when that selector is empty or handle_.objects is null.
  Result<std::vector<pod_topology_spread::SpreadConstraint>> BuildDefaultConstraints(
      const Pod& pod, std::string_view action) const;
  // Adds delta to the counts for `updated` on `node` (updateWithPod).
  Status UpdateWithPod(CycleState& state, const Pod& updated, const Pod& preemptor,
                       const NodeInfo& node, int delta) const;

  // The List's defaultConstraints, or the two system defaults with System.
  std::vector<k8s::TopologySpreadConstraint> default_constraints_;
  // Matching-pod counts of unchanged nodes, kept from earlier cycles (match_count_cache.h).
  pod_topology_spread::MatchCountCache match_counts_;
  // PreFilter's per-domain sums, kept across cycles (domain_counts.h).
  pod_topology_spread::DomainCountCache domain_counts_;
  // Nodes' topology label values, kept while a node is unchanged.
  pod_topology_spread::NodeLabelMemo node_labels_;
  bool system_defaulted_ = false;
  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_POD_TOPOLOGY_SPREAD_H_
