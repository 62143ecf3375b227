// Running the extension points with upstream's v1.27 contracts.
#include <algorithm>

#include "reference/runtime/framework.h"

namespace schedcheck::reference {
namespace {

// framework.AsStatus(fmt.Errorf("...: %w", s.AsError())): an Error status carrying the message.
Status WrapError(const std::string& prefix, const Status& s) { return Status::Error(prefix + s.Message()); }

std::string Quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

}  // namespace

Status Framework::RunPreEnqueuePlugins(const Pod& pod) const {
  for (PreEnqueuePlugin* pl : pre_enqueue_) {
    Status s = pl->PreEnqueue(pod);
    if (!s.IsSuccess()) {
      s.WithPlugin(pl->Name());
      if (!s.IsRejected()) return WrapError("running PreEnqueue plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
      return s;
    }
  }
  return Status();
}

bool Framework::QueueSortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  return queue_sort_.front()->Less(a, b);
}

Status Framework::RunPreFilterPlugins(CycleState& state, const Pod& pod, PreFilterResult* result) const {
  PreFilterResult merged;
  std::vector<std::string> plugins_with_nodes;
  std::set<std::string, std::less<>> skip;
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterResult r;
    Status s = pl->PreFilter(state, pod, &r);
    if (s.IsSkip()) {
      skip.insert(std::string(pl->Name()));
      continue;
    }
    if (!s.IsSuccess()) {
      s.WithPlugin(pl->Name());
      if (s.IsRejected()) return s;
      return WrapError("running PreFilter plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
    }
    if (!r.all_nodes) plugins_with_nodes.emplace_back(pl->Name());
    merged = merged.Merge(r);
    if (!merged.all_nodes && merged.node_names.empty()) {
      // Go's %v of a string slice: "[A B]".
      std::string msg;
      if (plugins_with_nodes.size() == 1) {
        msg = "node(s) didn't satisfy plugin " + plugins_with_nodes[0];
      } else {
        std::string list;
        for (const std::string& n : plugins_with_nodes) list += (list.empty() ? "" : " ") + n;
        msg = "node(s) didn't satisfy plugin(s) [" + list + "] simultaneously";
      }
      return Status(Code::kUnschedulable, msg);
    }
  }
  state.skip_filter_plugins = std::move(skip);
  state.skip_filter_mask.assign(filter_.size(), 0);
  for (size_t i = 0; i < filter_.size(); ++i) {
    state.skip_filter_mask[i] = state.skip_filter_plugins.count(filter_[i]->Name()) > 0;
  }
  *result = std::move(merged);
  return Status();
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod, const PodInfo& to_add,
                                              const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() || state.skip_filter_plugins.count(pl->Name())) continue;
    Status s = pl->AddPod(state, pod, to_add, node);
    if (!s.IsSuccess()) return WrapError("running AddPod on PreFilter plugin " + Quoted(pl->Name()) + ": ", s);
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod, const PodInfo& to_remove,
                                                 const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() || state.skip_filter_plugins.count(pl->Name())) continue;
    Status s = pl->RemovePod(state, pod, to_remove, node);
    if (!s.IsSuccess()) return WrapError("running RemovePod on PreFilter plugin " + Quoted(pl->Name()) + ": ", s);
  }
  return Status();
}

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node) const {
  const bool use_mask = state.skip_filter_mask.size() == filter_.size();
  for (size_t i = 0; i < filter_.size(); ++i) {
    FilterPlugin* pl = filter_[i];
    if (use_mask ? state.skip_filter_mask[i] != 0 : state.skip_filter_plugins.count(pl->Name()) > 0) continue;
    Status s = pl->Filter(state, pod, node);
    if (!s.IsSuccess()) {
      if (!s.IsRejected()) s = WrapError("running " + Quoted(pl->Name()) + " filter plugin: ", s);
      s.WithPlugin(pl->Name());
      return s;
    }
  }
  return Status();
}

bool Framework::RunFilterPluginsOnNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                        std::vector<BatchRejection>* rejected) const {
  rejected->clear();
  const bool use_mask = state.skip_filter_mask.size() == filter_.size();
  // The nodes still passing, and their positions in `nodes`; reused across calls.
  static thread_local std::vector<const NodeInfo*> passing;
  static thread_local std::vector<uint32_t> positions;
  static thread_local std::vector<BatchRejection> by_plugin;
  passing.assign(nodes.begin(), nodes.end());
  positions.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) positions[i] = static_cast<uint32_t>(i);
  size_t plugins_rejecting = 0;
  for (size_t i = 0; i < filter_.size() && !passing.empty(); ++i) {
    FilterPlugin* pl = filter_[i];
    if (use_mask ? state.skip_filter_mask[i] != 0 : state.skip_filter_plugins.count(pl->Name()) > 0) continue;
    by_plugin.clear();
    pl->FilterNodes(state, pod, NodeBatch(passing), &by_plugin);
    if (by_plugin.empty()) continue;
    ++plugins_rejecting;
    const std::string& plugin = InternPluginName(pl->Name());
    for (BatchRejection& r : by_plugin) {
      if (!r.status.IsRejected()) return false;
      r.status.WithInternedPlugin(plugin);
      rejected->push_back({positions[r.index], std::move(r.status)});
    }
    // Drop the rejected nodes (`by_plugin` is in position order) and keep the order of the rest.
    size_t kept = 0, next_rejected = 0;
    for (size_t k = 0; k < passing.size(); ++k) {
      if (next_rejected < by_plugin.size() && by_plugin[next_rejected].index == k) {
        ++next_rejected;
        continue;
      }
      passing[kept] = passing[k];
      positions[kept] = positions[k];
      ++kept;
    }
    passing.resize(kept);
    positions.resize(kept);
  }
  // Each plugin's rejections are in position order; several plugins' interleave.
  if (plugins_rejecting > 1) {
    std::sort(rejected->begin(), rejected->end(),
              [](const BatchRejection& a, const BatchRejection& b) { return a.index < b.index; });
  }
  return true;
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

std::vector<std::pair<std::string, Status>> Framework::RunEachFilterPlugin(const CycleState& state,
                                                                           const Pod& pod,
                                                                           const NodeInfo& node) const {
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

Status Framework::RunPostFilterPlugins(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
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

Status Framework::RunScorePlugins(const CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes, ScoreTable* table) const {
  const size_t n = nodes.size();
  table->plugins.clear();
  table->weights.clear();
  // Reused across cycles: the plugins that score this pod, in order.
  static thread_local std::vector<ScorePlugin*> active;
  active.clear();
  for (ScorePlugin* pl : score_) {
    if (state.skip_score_plugins.count(pl->Name())) continue;
    active.push_back(pl);
    table->plugins.push_back(pl->Name());
    table->weights.push_back(ScoreWeight(std::string(pl->Name())));
  }
  const size_t p = active.size();
  table->raw.resize(n * p);
  if (table->keep_columns) table->normalized.resize(n * p);
  // Plugins that score every node alike (UniformScore) are not called per node; when their
  // normalisation is known too (no NormalizeScore, or UniformNormalizedScore), the column is one
  // constant that goes straight into the totals.
  struct Uniform {
    bool raw_known = false, normalized_known = false;
    int64_t raw = 0, normalized = 0;
  };
  static thread_local std::vector<Uniform> uniform;
  uniform.assign(p, Uniform{});
  static thread_local std::vector<size_t> per_node;
  per_node.clear();
  int64_t constant_total = 0;
  for (size_t j = 0; j < p; ++j) {
    Uniform& u = uniform[j];
    u.raw_known = active[j]->UniformScore(state, pod, &u.raw);
    if (!u.raw_known) {
      per_node.push_back(j);
      continue;
    }
    u.normalized = u.raw;
    u.normalized_known = !active[j]->HasNormalizeScore() ||
                         active[j]->UniformNormalizedScore(state, pod, u.raw, &u.normalized);
    // NormalizeScore reads the raw column; the details read both.
    if (!u.normalized_known || table->keep_columns) {
      std::fill_n(table->raw.begin() + static_cast<std::ptrdiff_t>(j * n), n, u.raw);
    }
    if (u.normalized_known && table->keep_columns) {
      std::fill_n(table->normalized.begin() + static_cast<std::ptrdiff_t>(j * n), n, u.normalized);
    }
    if (u.normalized_known) constant_total += u.normalized * table->weights[j];
  }
  // Batches of nodes small enough to stay in the cache while every plugin scores them in turn
  // (each plugin's score of a node is independent of the others', so the order does not change
  // results).
  constexpr size_t kBatch = 256;
  bool batch_failed = false;
  for (size_t begin = 0; begin < n && !batch_failed; begin += kBatch) {
    const NodeBatch batch(nodes.data() + begin, std::min(kBatch, n - begin));
    for (size_t j : per_node) {
      if (!active[j]->ScoreNodes(state, pod, batch, &table->raw[j * n + begin]).IsSuccess()) {
        batch_failed = true;
        break;
      }
    }
  }
  if (batch_failed) {
    // The error of the first node, in node order and then plugin order, as the one-by-one loop
    // reports it.
    for (size_t i = 0; i < n; ++i) {
      for (size_t j : per_node) {
        int64_t raw = 0;
        Status s = active[j]->Score(state, pod, *nodes[i], &raw);
        if (!s.IsSuccess()) return WrapError("running Score plugin " + Quoted(active[j]->Name()) + ": ", s);
      }
    }
    return Status::Error("a score plugin's ScoreNodes failed where its Score succeeds on every node");
  }
  // A column that came out as one score (no tainted node, say) normalizes like a uniform one.
  for (size_t j : per_node) {
    if (!active[j]->HasNormalizeScore() || n == 0) continue;
    const int64_t* raw = &table->raw[j * n];
    if (std::any_of(raw + 1, raw + n, [first = raw[0]](int64_t v) { return v != first; })) continue;
    Uniform& u = uniform[j];
    u.normalized_known = active[j]->UniformNormalizedScore(state, pod, raw[0], &u.normalized);
    if (!u.normalized_known) continue;
    constant_total += u.normalized * table->weights[j];
    if (table->keep_columns) {
      std::fill_n(table->normalized.begin() + static_cast<std::ptrdiff_t>(j * n), n, u.normalized);
    }
  }
  table->totals.assign(n, constant_total);
  // Names are views of the NodeInfos' names; plugins only change scores.
  static thread_local NodeScoreList scores;
  bool any_normalize = false;
  for (size_t j = 0; j < p; ++j) any_normalize |= active[j]->HasNormalizeScore() && !uniform[j].normalized_known;
  if (any_normalize) {
    scores.resize(n);
    for (size_t i = 0; i < n; ++i) scores[i].name = nodes[i]->name();
  }
  int64_t* __restrict totals = table->totals.data();
  auto invalid = [](int64_t v) {
    return static_cast<uint64_t>(v - kMinNodeScore) > static_cast<uint64_t>(kMaxNodeScore - kMinNodeScore);
  };
  for (size_t j = 0; j < p; ++j) {
    ScorePlugin* pl = active[j];
    auto invalid_score = [&](int64_t v) {
      return Status::Error("plugin " + Quoted(pl->Name()) + " returns an invalid score " + std::to_string(v) +
                           ", it should in the range of [0, 100] after normalizing");
    };
    if (uniform[j].normalized_known) {  // already in the totals
      if (invalid(uniform[j].normalized)) return invalid_score(uniform[j].normalized);
      continue;
    }
    const int64_t* raw = &table->raw[j * n];
    const int64_t weight = table->weights[j];
    // One pass: add the weighted value, keep the normalized score when the details need it, and
    // note any score outside [0, 100] (one unsigned compare); the first such score is then
    // looked up for the error.
    int64_t* normalized = table->keep_columns ? &table->normalized[j * n] : nullptr;
    bool out_of_range = false;
    auto accumulate = [&](const auto& score_of) {
      for (size_t i = 0; i < n; ++i) {
        const int64_t v = score_of(i);
        out_of_range |= invalid(v);
        totals[i] += v * weight;
      }
      if (normalized != nullptr) {
        for (size_t i = 0; i < n; ++i) normalized[i] = score_of(i);
      }
      if (out_of_range) {
        for (size_t i = 0; i < n; ++i) {
          if (invalid(score_of(i))) return invalid_score(score_of(i));
        }
      }
      return Status();
    };
    Status s;
    if (pl->HasNormalizeScore()) {
      for (size_t i = 0; i < n; ++i) scores[i].score = raw[i];
      s = pl->NormalizeScore(state, pod, scores);
      if (!s.IsSuccess()) return WrapError("running Normalize on Score plugin " + Quoted(pl->Name()) + ": ", s);
      s = accumulate([&](size_t i) { return scores[i].score; });
    } else {
      s = accumulate([&](size_t i) { return raw[i]; });
    }
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

Status Framework::RunScorePlugins(const CycleState& state, const Pod& pod,
                                  const std::vector<const NodeInfo*>& nodes,
                                  std::vector<NodePluginScores>* out) const {
  ScoreTable table;
  Status s = RunScorePlugins(state, pod, nodes, &table);
  if (!s.IsSuccess()) return s;
  const size_t p = table.plugins.size();
  out->assign(nodes.size(), NodePluginScores{});
  for (size_t i = 0; i < nodes.size(); ++i) {
    NodePluginScores& row = (*out)[i];
    row.name = nodes[i]->name();
    row.total = table.totals[i];
    for (size_t j = 0; j < p; ++j) {
      int64_t v = table.normalized[j * nodes.size() + i];
      row.scores.push_back({std::string(table.plugins[j]), table.raw[j * nodes.size() + i], v, v * table.weights[j]});
    }
  }
  return Status();
}

Status Framework::RunReservePluginsReserve(CycleState& state, const Pod& pod, const std::string& node) const {
  for (ReservePlugin* pl : reserve_) {
    Status s = pl->Reserve(state, pod, node);
    if (!s.IsSuccess()) return WrapError("running Reserve plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
  }
  return Status();
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const Pod& pod, const std::string& node) const {
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
    return WrapError("running Permit plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
  }
  return waits->empty() ? Status() : Status(Code::kWait);
}

Status Framework::RunPreBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const {
  for (PreBindPlugin* pl : pre_bind_) {
    Status s = pl->PreBind(state, pod, node);
    if (s.IsSuccess()) continue;
    if (s.IsRejected()) return s.WithPlugin(pl->Name());
    return WrapError("running PreBind plugin " + Quoted(pl->Name()) + ": ", s).WithPlugin(pl->Name());
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

void Framework::RunPostBindPlugins(CycleState& state, const Pod& pod, const std::string& node) const {
  for (PostBindPlugin* pl : post_bind_) pl->PostBind(state, pod, node);
}

}  // namespace schedcheck::reference
