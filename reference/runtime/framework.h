// Framework: one profile's plugins, instantiated and ordered per extension point, and the code
// that runs each point with upstream's contracts (framework/runtime/framework.go, v1.27).
#ifndef SCHEDCHECK_REFERENCE_RUNTIME_FRAMEWORK_H_
#define SCHEDCHECK_REFERENCE_RUNTIME_FRAMEWORK_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/runtime/profile.h"

namespace schedcheck::reference {

// One node's scores: per score plugin (in plugin order) the raw score, the normalized score and
// the weighted score, and the weighted total.
struct PluginScore {
  std::string plugin;
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weighted = 0;
};
// A plugin's raw Score for a node, before NormalizeScore (v1.37 NodePluginScores.RawScores).
struct RawPluginScore {
  std::string plugin;
  int64_t score = 0;
};
struct RawNodeScores {
  std::string name;
  std::vector<RawPluginScore> scores;
};
struct NodePluginScores {
  std::string name;
  std::vector<PluginScore> scores;
  int64_t total = 0;
};

// Upstream keeps the scores in one list per plugin name (RunScorePlugins' pluginToNodeScores), so
// a plugin listed twice at Score (v1.27's MultiPoint expansion can do that,
// reference/runtime/framework_build.cc) scores into one list, normalizes it once per listing and
// counts it once per listing in the total. For each position j of `plugins`, the position whose
// list it shares: the first with the same name (j itself for the first or only listing).
std::vector<size_t> SharedScoreLists(const std::vector<ScorePlugin*>& plugins);

// 15 minutes: the longest a Permit plugin may make a pod wait.
inline constexpr int64_t kMaxPermitWaitNs = 15LL * 60 * 1000 * 1000 * 1000;

class Framework final : public FrameworkRunner {
 public:
  // Instantiates every plugin the profile names (with its pluginConfig args), builds the
  // per-point lists (explicit lists, then MultiPoint expansion with upstream's ordering) and the
  // score weights. `handle` must outlive the framework.
  static Result<std::unique_ptr<Framework>> Create(const Profile& profile, const Registry& registry,
                                                   const Handle* handle);

  const std::string& scheduler_name() const { return scheduler_name_; }
  const Handle& handle() const { return *handle_; }
  std::optional<int32_t> percentage_of_nodes_to_score() const { return percentage_; }

  // --- extension points, in the order a pod meets them ---
  Status RunPreEnqueuePlugins(const Pod& pod) const;
  bool QueueSortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const;
  // `plugins_with_nodes` (v1.37, optional): the plugins whose result narrowed the nodes, as
  // upstream returns them (empty on a rejection by a plugin).
  Status RunPreFilterPlugins(CycleState& state, const Pod& pod, PreFilterResult* result,
                             std::set<std::string>* plugins_with_nodes = nullptr) const;
  Status RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod, const PodInfo& to_add,
                                     const NodeInfo& node) const override;
  Status RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod, const PodInfo& to_remove,
                                        const NodeInfo& node) const override;
  // Filters in order, stopping at the first non-Success (which names its plugin).
  Status RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node) const;
  // Two passes when higher-or-equal priority pods are nominated to the node
  // (docs/SEMANTICS.md#filtering-with-nominated-pods).
  Status RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                           const NodeInfo& node) const override;
  // For explain: every filter plugin's own status on the node, without short-circuit.
  std::vector<std::pair<std::string, Status>> RunEachFilterPlugin(const CycleState& state,
                                                                  const Pod& pod,
                                                                  const NodeInfo& node) const;
  Status RunPostFilterPlugins(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                              PostFilterResult* result) const;
  Status RunPreScorePlugins(CycleState& state, const Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) const;
  // Every node's raw, normalized and weighted score per plugin, and its total.
  Status RunScorePlugins(const CycleState& state, const Pod& pod,
                         const std::vector<const NodeInfo*>& nodes,
                         std::vector<NodePluginScores>* out) const;
  // v1.37 RunRawScorePlugins (OpportunisticBatching's rescore): the raw score of each score
  // plugin the state does not skip, for one node, in run order.
  Status RunRawScorePlugins(const CycleState& state, const Pod& pod, const NodeInfo& node,
                            std::vector<RawPluginScore>* out) const;
  // v1.37 NormalizeScores: rows of raw scores (a plugin missing from a row counts 0) normalized
  // across the rows by each non-skipped plugin, weighted; `totals` gets each row's total.
  Status NormalizeScores(const CycleState& state, const Pod& pod,
                         const std::vector<RawNodeScores>& rows,
                         std::vector<int64_t>* totals) const;
  Status RunReservePluginsReserve(CycleState& state, const Pod& pod, const std::string& node) const;
  void RunReservePluginsUnreserve(CycleState& state, const Pod& pod, const std::string& node) const;
  // Success, a rejection, Error, or Wait with the per-plugin timeouts in `waits`.
  Status RunPermitPlugins(CycleState& state, const Pod& pod, const std::string& node,
                          std::map<std::string, int64_t>* waits) const;
  // v1.37 RunPreBindPreFlights: Success when some PreBind plugin will act, Skip when none will
  // (those skipping are recorded in the state, and RunPreBindPlugins passes them by), or Error.
  Status RunPreBindPreFlights(CycleState& state, const Pod& pod, const std::string& node) const;
  // Success, a rejection or Error; Wait when a plugin is not done yet (PreBindPlugin::PreBind):
  // run it again after kPreBindPollIntervalNs, and it resumes at that plugin.
  Status RunPreBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const;
  Status RunBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const;
  void RunPostBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const;

  const std::vector<PreEnqueuePlugin*>& pre_enqueue_plugins() const { return pre_enqueue_; }
  bool HasFilterPlugins() const { return !filter_.empty(); }
  // The plugins per point, in run order (the fast engine's loops walk them).
  const std::vector<FilterPlugin*>& filter_plugins() const { return filter_; }
  const std::vector<ScorePlugin*>& score_plugins() const { return score_; }
  bool HasScorePlugins() const { return !score_.empty(); }
  // Some score plugin is listed twice (SharedScoreLists).
  bool RepeatsAScorePlugin() const { return repeats_a_score_plugin_; }
  bool HasPostFilterPlugins() const { return !post_filter_.empty(); }

  // Plugin names per point, in run order (for explain and tests).
  std::vector<std::string> PluginNames(ExtensionPoint point) const;
  int64_t ScoreWeight(const std::string& plugin) const;
  // The profile's instance of a plugin, or null (for explain's look into DefaultPreemption).
  const Plugin* GetPlugin(const std::string& name) const {
    auto it = plugins_.find(name);
    return it == plugins_.end() ? nullptr : it->second.get();
  }
  // Every plugin's event registration: (event, plugin) pairs in plugin-name order.
  std::vector<std::pair<ClusterEvent, std::string>> EventRegistrations() const;
  // v1.37 (fillEnqueueExtensions): the registrations with hints of every plugin at PreEnqueue,
  // PreFilter, Filter, Reserve or Permit, in plugin-name order, each with its plugin's name. A
  // plugin without QueueingHintExtensions registers every action of every resource of
  // UnrollWildCardResource, without hint functions.
  std::vector<std::pair<ClusterEventWithHint, std::string>> EventRegistrationsWithHints() const;

 private:
  Framework() = default;

  // nonSkippedScorePlugins: the score plugins whose PreScore did not return Skip, in order.
  std::vector<ScorePlugin*> NonSkippedScorePlugins(const CycleState& state) const;
  // NormalizeScore of each plugin that has one over its list (lists[j] is plugins[j]'s), then the
  // [0, 100] check; the lists' scores are normalized in place.
  Status NormalizeScoreLists(const CycleState& state, const Pod& pod,
                             const std::vector<ScorePlugin*>& plugins,
                             std::vector<NodeScoreList>* lists) const;

  std::string scheduler_name_;
  std::optional<int32_t> percentage_;
  const Handle* handle_ = nullptr;
  std::map<std::string, std::unique_ptr<Plugin>> plugins_;
  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  std::vector<QueueSortPlugin*> queue_sort_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePlugin*> score_;
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<PostBindPlugin*> post_bind_;
  std::map<std::string, int64_t> score_weight_;
  bool repeats_a_score_plugin_ = false;

  friend class FrameworkBuilder;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_RUNTIME_FRAMEWORK_H_
