// Running the extension points with upstream's v1.27 contracts (and v1.37's where they differ).
#include "reference/runtime/framework.h"

#include <algorithm>

namespace schedcheck::reference {
namespace {

// framework.AsStatus(fmt.Errorf("...: %w", s.AsError())): an Error status carrying the message.
Status WrapError(const std::string& prefix, const Status& s) {
  return Status::Error(prefix + s.Message());
}

std::string Quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

}  // namespace

std::vector<size_t> SharedScoreLists(const std::vector<ScorePlugin*>& plugins) {
  std::vector<size_t> list_of(plugins.size());
  for (size_t j = 0; j < plugins.size(); ++j) {
    list_of[j] = j;
    for (size_t k = 0; k < j; ++k) {
      if (plugins[k]->Name() == plugins[j]->Name()) {
        list_of[j] = k;
        break;
      }
    }
  }
  return list_of;
}

Status Framework::RunPreEnqueuePlugins(const Pod& pod) const {
  for (PreEnqueuePlugin* pl : pre_enqueue_) {
    Status s = pl->PreEnqueue(pod);
    if (!s.IsSuccess()) {
      s.WithPlugin(pl->Name());
      if (!s.IsRejected())
        return WrapError("running PreEnqueue plugin " + Quoted(pl->Name()) + ": ", s)
            .WithPlugin(pl->Name());
      return s;
    }
  }
  return Status();
}

bool Framework::QueueSortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  return queue_sort_.front()->Less(a, b);
}

Status Framework::RunPreFilterPlugins(CycleState& state, const Pod& pod, PreFilterResult* result,
                                      std::set<std::string>* plugins_with_nodes_out) const {
  // Without a handle (plugin tests): the form that stops at the first rejection.
  const bool past_unschedulable =
      handle_ != nullptr && handle_->features.pre_filter_runs_past_unschedulable;
  PreFilterResult merged;
  std::vector<std::string> plugins_with_nodes;
  std::set<std::string, std::less<>> skip;
  // v1.37 sets the Skip list on every return and goes on after an Unschedulable PreFilter,
  // reporting the last such status at the end.
  Status unschedulable;
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterResult r;
    Status s = pl->PreFilter(state, pod, &r);
    if (s.IsSkip()) {
      skip.insert(std::string(pl->Name()));
      continue;
    }
    if (!s.IsSuccess()) {
      s.WithPlugin(pl->Name());
      if (past_unschedulable) {
        if (s.code() == Code::kUnschedulable) {
          unschedulable = s;
          continue;
        }
        state.skip_filter_plugins = skip;
      }
      if (s.IsRejected()) return s;
      return WrapError("running PreFilter plugin " + Quoted(pl->Name()) + ": ", s)
          .WithPlugin(pl->Name());
    }
    if (!r.all_nodes) plugins_with_nodes.emplace_back(pl->Name());
    merged = merged.Merge(r);
    if (!merged.all_nodes && merged.node_names.empty()) {
      // v1.37 names the plugins in name order (sets.List) and the nodes cannot be helped
      // (UnschedulableAndUnresolvable); v1.27 in run order, Unschedulable.
      if (past_unschedulable) std::sort(plugins_with_nodes.begin(), plugins_with_nodes.end());
      // Go's %v of a string slice: "[A B]".
      std::string msg;
      if (plugins_with_nodes.size() == 1) {
        msg = "node(s) didn't satisfy plugin " + plugins_with_nodes[0];
      } else {
        std::string list;
        for (const std::string& n : plugins_with_nodes) list += (list.empty() ? "" : " ") + n;
        msg = "node(s) didn't satisfy plugin(s) [" + list + "] simultaneously";
      }
      if (past_unschedulable) {
        state.skip_filter_plugins = std::move(skip);
        *result = std::move(merged);
        if (plugins_with_nodes_out != nullptr) {
          plugins_with_nodes_out->insert(plugins_with_nodes.begin(), plugins_with_nodes.end());
        }
        return Status(Code::kUnschedulableAndUnresolvable, msg);
      }
      return Status(Code::kUnschedulable, msg);
    }
  }
  state.skip_filter_plugins = std::move(skip);
  *result = std::move(merged);
  if (plugins_with_nodes_out != nullptr) {
    plugins_with_nodes_out->insert(plugins_with_nodes.begin(), plugins_with_nodes.end());
  }
  return unschedulable;
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod,
                                              const PodInfo& to_add, const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() || state.skip_filter_plugins.count(pl->Name())) continue;
    Status s = pl->AddPod(state, pod, to_add, node);
    if (!s.IsSuccess())
      return WrapError("running AddPod on PreFilter plugin " + Quoted(pl->Name()) + ": ", s);
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod,
                                                 const PodInfo& to_remove,
                                                 const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() || state.skip_filter_plugins.count(pl->Name())) continue;
    Status s = pl->RemovePod(state, pod, to_remove, node);
    if (!s.IsSuccess())
      return WrapError("running RemovePod on PreFilter plugin " + Quoted(pl->Name()) + ": ", s);
  }
  return Status();
}

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod,
                                   const NodeInfo& node) const {
  for (FilterPlugin* pl : filter_) {
    if (state.skip_filter_plugins.count(pl->Name())) continue;
    Status s = pl->Filter(state, pod, node);
    if (!s.IsSuccess()) {
      if (!s.IsRejected()) s = WrapError("running " + Quoted(pl->Name()) + " filter plugin: ", s);
      s.WithPlugin(pl->Name());
      return s;
    }
  }
  return Status();
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                    const NodeInfo& node) const {
  if (handle_->nominator == nullptr || !handle_->nominator->HasNominatedPods()) {
    return RunFilterPlugins(state, pod, node);
  }
  std::vector<PodInfoPtr> nominated;
  if (node.node() != nullptr) {
    for (const PodInfoPtr& p : handle_->nominator->NominatedPodsForNode(node.name())) {
      if (p->pod->priority >= pod.priority && p->pod->uid() != pod.uid()) nominated.push_back(p);
    }
  }
  if (nominated.empty()) return RunFilterPlugins(state, pod, node);
  // Pass 1: with the nominated pods added to copies of the state and node.
  std::unique_ptr<CycleState> state_with = state.Clone();
  std::unique_ptr<NodeInfo> node_with = node.Clone();
  for (const PodInfoPtr& p : nominated) {
    node_with->AddPod(p);
    Status s = RunPreFilterExtensionAddPod(*state_with, pod, *p, *node_with);
    if (!s.IsSuccess()) return s;
  }
  Status first = RunFilterPlugins(*state_with, pod, *node_with);
  if (!first.IsSuccess()) return first;
  // Pass 2: without them (pod affinity must hold without relying on nominated pods).
  return RunFilterPlugins(state, pod, node);
}

std::vector<std::pair<std::string, Status>> Framework::RunEachFilterPlugin(
    const CycleState& state, const Pod& pod, const NodeInfo& node) const {
  std::vector<std::pair<std::string, Status>> out;
  for (FilterPlugin* pl : filter_) {
    if (state.skip_filter_plugins.count(pl->Name())) {
      out.emplace_back(std::string(pl->Name()), Status(Code::kSkip));
      continue;
    }
    Status s = pl->Filter(state, pod, node);
    s.WithPlugin(pl->Name());
    out.emplace_back(std::string(pl->Name()), std::move(s));
  }
  return out;
}

Status Framework::RunPostFilterPlugins(CycleState& state, const Pod& pod,
                                       const NodeToStatus& statuses,
                                       PostFilterResult* result) const {
  std::optional<PostFilterResult> remembered;
  Status merged(Code::kUnschedulable);
  bool any = false;
  for (PostFilterPlugin* pl : post_filter_) {
    PostFilterResult r;
    Status s = pl->PostFilter(state, pod, statuses, &r);
    if (s.IsSuccess()) {
      *result = std::move(r);
      return s;
    }
    if (s.code() == Code::kUnschedulableAndUnresolvable) {
      *result = std::move(r);
      return s.WithPlugin(pl->Name());
    }
    if (!s.IsRejected()) return Status::Error(s.Message()).WithPlugin(pl->Name());
    if (r.nominating_info.mode != NominatingInfo::Mode::kNoop) remembered = std::move(r);
    // PluginToStatus.Merge: every reason, the winning code's plugin.
    for (const std::string& reason : s.reasons()) merged.AppendReason(reason);
    if (!any) merged.WithPlugin(pl->Name());
    any = true;
  }
  if (remembered) *result = std::move(*remembered);
  return merged;
}

Status Framework::RunPreScorePlugins(CycleState& state, const Pod& pod,
                                     const std::vector<const NodeInfo*>& nodes) const {
  std::set<std::string, std::less<>> skip;
  for (PreScorePlugin* pl : pre_score_) {
    Status s = pl->PreScore(state, pod, nodes);
    if (s.IsSkip()) {
      skip.insert(std::string(pl->Name()));
      continue;
    }
    if (!s.IsSuccess()) return WrapError("running PreScore plugin " + Quoted(pl->Name()) + ": ", s);
  }
  state.skip_score_plugins = std::move(skip);
  return Status();
}

std::vector<ScorePlugin*> Framework::NonSkippedScorePlugins(const CycleState& state) const {
  std::vector<ScorePlugin*> plugins;
  for (ScorePlugin* pl : score_) {
    if (!state.skip_score_plugins.count(pl->Name())) plugins.push_back(pl);
  }
  return plugins;
}

Status Framework::NormalizeScoreLists(const CycleState& state, const Pod& pod,
                                      const std::vector<ScorePlugin*>& plugins,
                                      std::vector<NodeScoreList>* lists) const {
  // A plugin listed twice normalizes its one list twice, one run after the other (upstream runs
  // them in parallel on the same slice; with parallelism 1, as the kube adapters run, in order).
  const std::vector<size_t> list_of = SharedScoreLists(plugins);
  for (size_t j = 0; j < plugins.size(); ++j) {
    if (!plugins[j]->HasNormalizeScore()) continue;
    Status s = plugins[j]->NormalizeScore(state, pod, (*lists)[list_of[j]]);
    if (!s.IsSuccess()) {
      return WrapError("running Normalize on Score plugin " + Quoted(plugins[j]->Name()) + ": ", s);
    }
  }
  // The range check. Upstream checks nodes in parallel; plugin by plugin, the first node out of
  // range is the one reported.
  for (size_t j = 0; j < plugins.size(); ++j) {
    for (const NodeScore& ns : (*lists)[list_of[j]]) {
      if (ns.score < kMinNodeScore || ns.score > kMaxNodeScore) {
        return Status::Error("plugin " + Quoted(plugins[j]->Name()) + " returns an invalid score " +
                             std::to_string(ns.score) +
                             ", it should in the range of [0, 100] after normalizing");
      }
    }
  }
  return Status();
}

Status Framework::RunScorePlugins(const CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes,
                                  std::vector<NodePluginScores>* out) const {
  const std::vector<ScorePlugin*> plugins = NonSkippedScorePlugins(state);
  // Score: one list per plugin, in node order; a plugin listed twice writes its one list twice.
  const std::vector<size_t> list_of = SharedScoreLists(plugins);
  std::vector<NodeScoreList> raw(plugins.size(), NodeScoreList(nodes.size()));
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (size_t j = 0; j < plugins.size(); ++j) {
      NodeScore& slot = raw[list_of[j]][i];
      slot.name = nodes[i]->name();
      Status s = plugins[j]->Score(state, pod, *nodes[i], &slot.score);
      if (!s.IsSuccess())
        return WrapError("running Score plugin " + Quoted(plugins[j]->Name()) + ": ", s);
    }
  }
  // NormalizeScore, for the plugins that have it, on a copy: the raw scores are reported too.
  std::vector<NodeScoreList> normalized = raw;
  if (Status s = NormalizeScoreLists(state, pod, plugins, &normalized); !s.IsSuccess()) return s;
  out->assign(nodes.size(), NodePluginScores{});
  for (size_t i = 0; i < nodes.size(); ++i) {
    NodePluginScores& row = (*out)[i];
    row.name = nodes[i]->name();
    for (size_t j = 0; j < plugins.size(); ++j) {
      const std::string name(plugins[j]->Name());
      const int64_t score = normalized[list_of[j]][i].score;
      const int64_t weighted = score * ScoreWeight(name);
      row.scores.push_back({name, raw[list_of[j]][i].score, score, weighted});
      row.total += weighted;
    }
  }
  return Status();
}

Status Framework::RunRawScorePlugins(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                     std::vector<RawPluginScore>* out) const {
  out->clear();
  for (ScorePlugin* pl : NonSkippedScorePlugins(state)) {
    int64_t score = 0;
    Status s = pl->Score(state, pod, node, &score);
    if (!s.IsSuccess()) return WrapError("plugin " + Quoted(pl->Name()) + " failed with: ", s);
    out->push_back({std::string(pl->Name()), score});
  }
  return Status();
}

Status Framework::NormalizeScores(const CycleState& state, const Pod& pod,
                                  const std::vector<RawNodeScores>& rows,
                                  std::vector<int64_t>* totals) const {
  totals->assign(rows.size(), 0);
  const std::vector<ScorePlugin*> plugins = NonSkippedScorePlugins(state);
  // One list per plugin, a row's entry left empty (no name, 0) where the row lacks the plugin.
  std::vector<NodeScoreList> lists(plugins.size(), NodeScoreList(rows.size()));
  for (size_t j = 0; j < plugins.size(); ++j) {
    for (size_t i = 0; i < rows.size(); ++i) {
      for (const RawPluginScore& raw : rows[i].scores) {
        if (raw.plugin == plugins[j]->Name()) lists[j][i] = {rows[i].name, raw.score};
      }
    }
  }
  if (Status s = NormalizeScoreLists(state, pod, plugins, &lists); !s.IsSuccess()) return s;
  const std::vector<size_t> list_of = SharedScoreLists(plugins);
  for (size_t j = 0; j < plugins.size(); ++j) {
    const int64_t weight = ScoreWeight(std::string(plugins[j]->Name()));
    for (size_t i = 0; i < rows.size(); ++i) (*totals)[i] += lists[list_of[j]][i].score * weight;
  }
  return Status();
}

Status Framework::RunReservePluginsReserve(CycleState& state, const Pod& pod,
                                           const std::string& node) const {
  for (ReservePlugin* pl : reserve_) {
    Status s = pl->Reserve(state, pod, node);
    if (!s.IsSuccess())
      return WrapError("running Reserve plugin " + Quoted(pl->Name()) + ": ", s)
          .WithPlugin(pl->Name());
  }
  return Status();
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const Pod& pod,
                                           const std::string& node) const {
  for (auto it = reserve_.rbegin(); it != reserve_.rend(); ++it) (*it)->Unreserve(state, pod, node);
}

Status Framework::RunPermitPlugins(CycleState& state, const Pod& pod, const std::string& node,
                                   std::map<std::string, int64_t>* waits) const {
  waits->clear();
  for (PermitPlugin* pl : permit_) {
    int64_t timeout = 0;
    Status s = pl->Permit(state, pod, node, &timeout);
    if (s.IsSuccess()) continue;
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    if (s.IsWait()) {
      (*waits)[std::string(pl->Name())] = std::min(timeout, kMaxPermitWaitNs);
      continue;
    }
    return WrapError("running Permit plugin " + Quoted(pl->Name()) + ": ", s)
        .WithPlugin(pl->Name());
  }
  return waits->empty() ? Status() : Status(Code::kWait);
}

Status Framework::RunPreBindPreFlights(CycleState& state, const Pod& pod,
                                       const std::string& node) const {
  Status result(Code::kSkip);
  std::set<std::string, std::less<>> skipped;
  for (PreBindPlugin* pl : pre_bind_) {
    Status s = pl->PreBindPreFlight(state, pod, node);
    if (s.code() == Code::kError) {
      return WrapError("running PreBindPreFlight " + Quoted(pl->Name()) + ": ", s);
    }
    if (s.IsSuccess()) {
      result = Status();
    } else if (s.IsSkip()) {
      skipped.insert(std::string(pl->Name()));
    } else {
      return Status::Error("PreBindPreFlight " + std::string(pl->Name()) + " returned \"" +
                           std::string(CodeName(s.code())) +
                           "\", which is unsupported. It is supposed to return Success, Skip, or "
                           "Error status");
    }
  }
  state.skip_pre_bind_plugins = std::move(skipped);
  return result;
}

Status Framework::RunPreBindPlugins(CycleState& state, const Pod& pod,
                                    const std::string& node) const {
  for (size_t i = state.pre_bind_resume_at; i < pre_bind_.size(); ++i) {
    PreBindPlugin* pl = pre_bind_[i];
    if (state.skip_pre_bind_plugins.count(pl->Name())) continue;
    Status s = pl->PreBind(state, pod, node);
    if (s.IsSuccess()) continue;
    if (s.IsWait()) {
      state.pre_bind_resume_at = i;
      return s.WithPlugin(pl->Name());
    }
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    return WrapError("running PreBind plugin " + Quoted(pl->Name()) + ": ", s)
        .WithPlugin(pl->Name());
  }
  return Status();
}

Status Framework::RunBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const {
  Status last(Code::kSkip);
  for (BindPlugin* pl : bind_) {
    Status s = pl->Bind(state, pod, node);
    if (s.IsSkip()) {
      last = s;
      continue;
    }
    if (s.IsSuccess()) return s;
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    return WrapError("running Bind plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
  }
  return last;
}

void Framework::RunPostBindPlugins(CycleState& state, const Pod& pod,
                                   const std::string& node) const {
  for (PostBindPlugin* pl : post_bind_) pl->PostBind(state, pod, node);
}

}  // namespace schedcheck::reference
