// InterPodAffinity (v1.27 framework/plugins/interpodaffinity): required pod affinity and
// anti-affinity as a filter (with PreFilter extensions for nominated pods and preemption), and
// preferred terms plus existing pods' terms as a score. See docs/SEMANTICS.md#plugin-interpodaffinity.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/api/selectors.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/inter_pod_affinity/compiled_term.h"
#include "reference/plugins/inter_pod_affinity/contribution_cache.h"
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

// Written by PreFilter under "PreFilterInterPodAffinity", read by Filter and AddPod/RemovePod.
class PreFilterState final : public StateData {
 public:
  // Existing pods whose required anti-affinity terms match the incoming pod.
  TopologyToMatchedTermCount existing_anti_affinity_counts;
  // Existing pods matching all of the incoming pod's required affinity terms (one per term).
  TopologyToMatchedTermCount affinity_counts;
  // Existing pods matching the incoming pod's required anti-affinity terms (one per term).
  TopologyToMatchedTermCount anti_affinity_counts;
  // The incoming pod with its required terms' namespaceSelectors merged into namespaces.
  std::shared_ptr<const PodInfo> pod_info;
  // Its required terms compiled (shared by clones: they never change).
  std::shared_ptr<const std::vector<CompiledTerm>> affinity_terms;
  std::shared_ptr<const std::vector<CompiledTerm>> anti_affinity_terms;
  // The incoming pod matches all its own required affinity terms (false without terms).
  bool matches_own_affinity_terms = false;
  // The incoming pod's namespace labels (empty when the namespace is unknown).
  Labels namespace_labels;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  // updateWithPod: account for `pod` (anti)affinity matches on `node` with +1 or -1.
  void UpdateWithPod(const PodInfo& pod, const Node& node, int64_t multiplier);
};

// Written by PreScore under "PreScoreInterPodAffinity", read by Score and NormalizeScore.
class PreScoreState final : public StateData {
 public:
  TopologyScores topology_score;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

}  // namespace interpodaffinity

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions, public UniformScorePlugin {
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

  // Skip (v1.27) when no existing pod's anti-affinity matches the pod and the pod has no
  // required terms; UAU "parsing pod: ..." when a term's selector does not parse.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_remove,
                   const NodeInfo& node) override;
  // Pod affinity (UAU), then pod anti-affinity, then existing pods' anti-affinity (both
  // Unschedulable).
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;

  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  // Every node scores 0 when PreScore accumulated no topology scores.
  bool UniformScore(const CycleState& state, const Pod& pod, int64_t* score) const override;
  bool UniformNormalizedScore(const CycleState& state, const Pod& pod, int64_t uniform,
                              int64_t* normalized) const override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;

  const InterPodAffinityArgs& args() const { return args_; }

 private:
  // mergeAffinityTermNamespacesIfNotEmpty: a non-empty namespaceSelector of an incoming pod's
  // term is replaced by the names of the known namespaces it selects.
  void MergeAffinityTermNamespacesIfNotEmpty(AffinityTerm& term) const;
  // GetNamespaceLabelsSnapshot: the namespace's labels, empty when the namespace is unknown.
  Labels NamespaceLabelsSnapshot(const std::string& ns) const;
  // NewPodInfo for the incoming pod, with its selectors validated as upstream parses them.
  Result<std::shared_ptr<PodInfo>> NewIncomingPodInfo(const Pod& pod) const;

  InterPodAffinityArgs args_;
  const Handle& handle_;
  // Nodes' contributions to PreFilter's counts and PreScore's scores, kept from earlier cycles
  // for the nodes unchanged since (contribution_cache.h). One cache per aggregate: their keys
  // name different things.
  interpodaffinity::ContributionCache existing_anti_affinity_cache_;
  interpodaffinity::ContributionCache affinity_cache_;
  interpodaffinity::ContributionCache anti_affinity_cache_;
  interpodaffinity::ContributionCache score_cache_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_INTER_POD_AFFINITY_INTER_POD_AFFINITY_H_
