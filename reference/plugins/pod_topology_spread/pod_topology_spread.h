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

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/pod_topology_spread/common.h"

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

namespace pod_topology_spread {
struct PreFilterState;  // filtering.cc
struct PreScoreState;   // scoring.cc
}  // namespace pod_topology_spread

// What v1.37's SignPod asks of PodTopologySpread, whichever engine's form it is.
class SpreadDefaults {
 public:
  virtual ~SpreadDefaults() = default;
  // v1.37's SignPod refuses every pod while the plugin has default constraints.
  virtual bool has_default_constraints() const = 0;
};

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions,
                                public QueueingHintExtensions,
                                public SpreadDefaults {
 public:
  static constexpr std::string_view kName = "PodTopologySpread";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterPodTopologySpread";
  static constexpr std::string_view kPreScoreStateKey = "PreScorePodTopologySpread";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  PodTopologySpread(PodTopologySpreadArgs args, const Handle& handle);
  bool has_default_constraints() const override { return !default_constraints_.empty(); }

  std::string_view Name() const override { return kName; }

  // filtering.cc
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_remove,
                   const NodeInfo& node) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;

  // scoring.cc
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& filtered_nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;

  // Pod: All; Node: Add | Delete | UpdateNodeLabel.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37 (queueing_hints.cc): AssignedPod Add | UpdatePodLabel | Delete; TargetPod
  // UpdatePodToleration | UpdatePodLabel; Node Add | Delete | UpdateNodeLabel | UpdateNodeTaint.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // buildDefaultConstraints (common.go): the default constraints for `action`, each given the
  // selector of DefaultSelector (default_selector.h); none when that selector is empty or
  // handle.objects is null. Public so that other implementations of this plugin can reuse it.
  Result<std::vector<pod_topology_spread::SpreadConstraint>> BuildDefaultConstraints(
      const Pod& pod, std::string_view action) const;
  // Whether the default constraints are the System ones (scoring.go's requireAllTopologies).
  bool system_defaulted() const { return system_defaulted_; }

 private:
  // getConstraints: the pod's DoNotSchedule constraints, or the default ones when it has none.
  Result<std::vector<pod_topology_spread::SpreadConstraint>> GetConstraints(const Pod& pod) const;
  // queueing_hints.cc.
  Result<QueueingHint> IsSchedulableAfterTargetPodChange(const Pod& pod,
                                                         const EventObjects& e) const;
  Result<QueueingHint> IsSchedulableAfterAssignedPodChange(const Pod& pod,
                                                           const EventObjects& e) const;
  Result<QueueingHint> IsSchedulableAfterNodeChange(const Pod& pod, const EventObjects& e) const;

  // filtering.cc: calPreFilterState and updateWithPod.
  Result<std::unique_ptr<pod_topology_spread::PreFilterState>> CalPreFilterState(
      const Pod& pod) const;
  void UpdateWithPod(pod_topology_spread::PreFilterState& s, const Pod& updated_pod,
                     const Pod& preemptor_pod, const Node* node, int delta) const;
  // scoring.cc: initPreScoreState.
  Outcome InitPreScoreState(pod_topology_spread::PreScoreState& s, const Pod& pod,
                            const std::vector<const NodeInfo*>& filtered_nodes,
                            bool require_all_topologies) const;

  // The List's defaultConstraints, or the two system defaults with System.
  std::vector<k8s::TopologySpreadConstraint> default_constraints_;
  bool system_defaulted_ = false;
  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_POD_TOPOLOGY_SPREAD_H_
