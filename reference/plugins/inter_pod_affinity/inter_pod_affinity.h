// InterPodAffinity (v1.27 framework/plugins/interpodaffinity): required pod affinity and
// anti-affinity as a filter (with PreFilter extensions for nominated pods and preemption), and
// preferred terms plus existing pods' terms as a score. The plain rule: plugin.go here and in
// inter_pod_affinity.cc, filtering.go in filtering.cc, scoring.go in scoring.cc; every cycle
// walks the snapshot's nodes and their pods.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/api/selectors.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/inter_pod_affinity/topology_counts.h"

namespace schedcheck::reference {

// InterPodAffinityArgs (apis/config): defaults hardPodAffinityWeight = 1, ignore... = false.
struct InterPodAffinityArgs {
  int32_t hard_pod_affinity_weight = 1;
  bool ignore_preferred_terms_of_existing_pods = false;
};

// JSON null = defaults. Unknown fields and a weight outside [0, 100] are errors naming the field.
Result<InterPodAffinityArgs> ParseInterPodAffinityArgs(const PluginArgs& args);

namespace interpodaffinity {

// preFilterState: written by PreFilter under "PreFilterInterPodAffinity", read by Filter and
// AddPod/RemovePod.
class PreFilterState final : public StateData {
 public:
  // Existing pods whose required anti-affinity terms match the incoming pod.
  TopologyToMatchedTermCount existing_anti_affinity_counts;
  // Existing pods matching all of the incoming pod's required affinity terms (one per term).
  TopologyToMatchedTermCount affinity_counts;
  // Existing pods matching the incoming pod's required anti-affinity terms (one per term).
  TopologyToMatchedTermCount anti_affinity_counts;
  // The incoming pod, its required terms' namespaceSelectors merged into namespaces.
  std::shared_ptr<const PodInfo> pod_info;
  // The incoming pod's namespace labels (empty when the namespace is unknown).
  Labels namespace_labels;

  // The counts are copied; pod_info never changes and is shared.
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  // updateWithPod: account for `pod`'s (anti)affinity matches on `node` with +1 or -1.
  void UpdateWithPod(const PodInfo& pod, const Node& node, int64_t multiplier);
};

// preScoreState: written by PreScore under "PreScoreInterPodAffinity", read by Score and
// NormalizeScore.
class PreScoreState final : public StateData {
 public:
  ScoreMap topology_score;
  // The incoming pod, its preferred terms' namespaceSelectors merged (null when PreScore had
  // nothing to compute).
  std::shared_ptr<const PodInfo> pod_info;
  Labels namespace_labels;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

// framework.NewPodInfo for the incoming pod, failing as upstream does when a term's selector
// does not parse (parse.h). The pod is copied: the state may outlive the caller's reference.
Result<std::shared_ptr<PodInfo>> NewPodInfo(const Pod& pod);

// GetNamespaceLabelsSnapshot: the namespace's labels, empty when the namespace is unknown.
Labels GetNamespaceLabelsSnapshot(const std::string& ns, const Handle& handle);

// mergeAffinityTermNamespacesIfNotEmpty: a non-empty namespaceSelector of an incoming pod's
// term is replaced by the names of the known namespaces it selects.
void MergeAffinityTermNamespacesIfNotEmpty(AffinityTerm& term, const Handle& handle);

// NormalizeScore's arithmetic once PreScore accumulated something: each score becomes
// kMaxNodeScore * (score - min) / (max - min) over `scores`, truncated (all 0 when max == min).
// The fast engine's NormalizeScore calls it too.
void NormalizeTopologyScores(NodeScoreList& scores);

}  // namespace interpodaffinity

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions,
                               public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "InterPodAffinity";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterInterPodAffinity";
  static constexpr std::string_view kPreScoreStateKey = "PreScoreInterPodAffinity";

  static constexpr std::string_view kErrReasonExistingAntiAffinityRulesNotMatch =
      "node(s) didn't satisfy existing pods anti-affinity rules";
  static constexpr std::string_view kErrReasonAffinityRulesNotMatch =
      "node(s) didn't match pod affinity rules";
  static constexpr std::string_view kErrReasonAntiAffinityRulesNotMatch =
      "node(s) didn't match pod anti-affinity rules";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  InterPodAffinity(InterPodAffinityArgs args, const Handle& handle)
      : args_(args), handle_(handle) {}

  std::string_view Name() const override { return kName; }
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37 (queueing_hints.cc): AssignedPod Add | UpdatePodLabel | Delete; TargetPod
  // UpdatePodLabel; Node Add | UpdateNodeLabel. The hints read no plugin state.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // Skip (v1.27) when no existing pod's anti-affinity matches the pod and the pod has no
  // required terms; UAU "parsing pod: ..." when a term's selector does not parse.
  Status PreFilter(CycleState& cycle_state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& cycle_state, const Pod& pod_to_schedule, const PodInfo& pod_info_to_add,
                const NodeInfo& node_info) override;
  Status RemovePod(CycleState& cycle_state, const Pod& pod_to_schedule,
                   const PodInfo& pod_info_to_remove, const NodeInfo& node_info) override;
  // Pod affinity (UAU), then pod anti-affinity, then existing pods' anti-affinity (both
  // Unschedulable).
  Status Filter(const CycleState& cycle_state, const Pod& pod, const NodeInfo& node_info) override;

  Status PreScore(CycleState& cycle_state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  Status Score(const CycleState& cycle_state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& cycle_state, const Pod& pod,
                        NodeScoreList& scores) override;

  const InterPodAffinityArgs& args() const { return args_; }

 private:
  // scoring.cc: PreScore at v1.37.
  Status PreScoreV1_37(CycleState& cycle_state, const Pod& pod);
  // scoring.cc: the PreScore state both levels build past their shortcuts: the pod's preferred
  // terms with namespace selectors merged, and the scores accumulated over the nodes that matter.
  // `any_score`: some node contributed an entry (v1.37's "index != -1").
  std::unique_ptr<interpodaffinity::PreScoreState> AccumulateScores(
      const Pod& pod, std::shared_ptr<PodInfo> pod_info, bool has_constraints,
      bool* any_score) const;
  using TopologyToMatchedTermCount = interpodaffinity::TopologyToMatchedTermCount;

  // getExistingAntiAffinityCounts: existing pods' required anti-affinity terms against `pod`.
  TopologyToMatchedTermCount GetExistingAntiAffinityCounts(
      const Pod& pod, const Labels& ns_labels, const std::vector<const NodeInfo*>& nodes) const;
  // getIncomingAffinityAntiAffinityCounts: the incoming pod's required terms against every pod.
  std::pair<TopologyToMatchedTermCount, TopologyToMatchedTermCount>
  GetIncomingAffinityAntiAffinityCounts(const PodInfo& pod_info,
                                        const std::vector<const NodeInfo*>& all_nodes) const;
  // processExistingPod.
  void ProcessExistingPod(const interpodaffinity::PreScoreState& state, const PodInfo& existing_pod,
                          const NodeInfo& existing_pod_node_info, const Pod& incoming_pod,
                          interpodaffinity::ScoreMap& topo_score) const;

  InterPodAffinityArgs args_;
  const Handle& handle_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_
