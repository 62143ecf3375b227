// The fast engine's InterPodAffinity: the results of the plain rule
// (reference/plugins/inter_pod_affinity), byte for byte, computed with interned labels
// (compiled_term.h, interned_topology_counts.h) and with each node's share of PreFilter's counts
// and PreScore's scores kept across cycles for the nodes unchanged since (contribution_cache.h,
// keyed by cache_keys.h). Arguments, parsing, namespace merging, messages and events are the
// plain rule's own.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_FAST_INTER_POD_AFFINITY_H_
#define SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_FAST_INTER_POD_AFFINITY_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/inter_pod_affinity/compiled_term.h"
#include "reference/accel/inter_pod_affinity/contribution_cache.h"
#include "reference/accel/inter_pod_affinity/interned_topology_counts.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/inter_pod_affinity/inter_pod_affinity.h"

namespace schedcheck::reference {
namespace interpodaffinity::fast {

// The plain PreFilterState with interned counts and the incoming pod's terms compiled. Written
// under the same key; only the fast plugin reads it.
class PreFilterState final : public StateData {
 public:
  TopologyToMatchedTermCount existing_anti_affinity_counts;
  TopologyToMatchedTermCount affinity_counts;
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

// The plain PreScoreState's topology scores, interned.
class PreScoreState final : public StateData {
 public:
  TopologyScores topology_score;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

}  // namespace interpodaffinity::fast

class FastInterPodAffinity final : public PreFilterPlugin,
                                   public FilterPlugin,
                                   public PreScorePlugin,
                                   public ScorePlugin,
                                   public EnqueueExtensions,
                                   public QueueingHintExtensions,
                                   public UniformScorePlugin {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  FastInterPodAffinity(InterPodAffinityArgs args, const Handle& handle)
      : args_(args), handle_(handle) {}

  std::string_view Name() const override { return InterPodAffinity::kName; }
  std::vector<ClusterEvent> EventsToRegister() const override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const Pod& pod_to_schedule, const PodInfo& pod_to_remove,
                   const NodeInfo& node) override;
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

 private:
  InterPodAffinityArgs args_;
  const Handle& handle_;
  // Nodes' contributions to PreFilter's counts and PreScore's scores, kept from earlier cycles
  // for the nodes unchanged since (contribution_cache.h). One cache per aggregate: their keys
  // name different things.
  interpodaffinity::fast::ContributionCache existing_anti_affinity_cache_;
  interpodaffinity::fast::ContributionCache affinity_cache_;
  interpodaffinity::fast::ContributionCache anti_affinity_cache_;
  interpodaffinity::fast::ContributionCache score_cache_;
  // Existing pods' terms compiled once per PodInfo (compiled_term.h).
  interpodaffinity::fast::ExistingTermsCache existing_terms_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_INTER_POD_AFFINITY_FAST_INTER_POD_AFFINITY_H_
