// The fast loops: the code of Framework::RunFilterPlugins and RunScorePlugins rearranged to run
// plugin by plugin over runs of nodes; fast_runner_test and the engine properties hold them equal.
#include "reference/accel/fast_runner.h"

#include <algorithm>
#include <string>
#include <typeinfo>
#include <vector>

#include "reference/plugins/node_volume_limits/node_volume_limits.h"
#include "reference/plugins/volume_zone/volume_zone.h"

namespace schedcheck::reference {
namespace {

// The messages Framework's runner gives (framework_run.cc).
Status WrapError(const std::string& prefix, const Status& s) {
  return Status::Error(prefix + s.Message());
}
std::string Quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

// dynamic_cast<To*>(from), remembered by the object's address and dynamic type, which together
// fix the result (an object of the same type at the same address casts to the same address).
// Each cycle casts every plugin to its batch forms; a cast walks the plugin's many bases
// (__do_dyncast, ~100 ns), a look-up here reads the type and compares a few pointers.
template <typename To, typename From>
To* RememberedCast(From* from) {
  struct Entry {
    From* from;
    const std::type_info* type;
    To* to;
  };
  static thread_local std::vector<Entry> entries;
  const std::type_info* type = &typeid(*from);
  for (const Entry& e : entries) {
    if (e.from == from && e.type == type) return e.to;
  }
  if (entries.size() >= 256) entries.clear();  // plugins of many frameworks (tests): start over
  To* to = dynamic_cast<To*>(from);
  entries.push_back({from, type, to});
  return to;
}

// Whether `pl` is a volume filter whose Filter returns Success at once, on every node, for a pod
// without volumes: the first line of NodeVolumeLimits', the in-tree limits' and VolumeZone's.
// (VolumeRestrictions' Filter also reads its PreFilter state, an error when absent: not here.)
bool PassesEveryNodeWithoutVolumes(FilterPlugin* pl) {
  return RememberedCast<NodeVolumeLimits>(pl) != nullptr ||
         RememberedCast<NonCSILimits>(pl) != nullptr || RememberedCast<VolumeZone>(pl) != nullptr;
}

// The batch form when the plugin has one, the per-node calls otherwise.
void FilterBatch(FilterPlugin* pl, BatchFilterPlugin* batch, const CycleState& state,
                 const Pod& pod, NodeBatch nodes, std::vector<BatchRejection>* rejected) {
  if (batch != nullptr) {
    batch->FilterNodes(state, pod, nodes, rejected);
  } else {
    FilterEachNode(*pl, state, pod, nodes, rejected);
  }
}

Status ScoreBatch(ScorePlugin* pl, BatchScorePlugin* batch, const CycleState& state, const Pod& pod,
                  NodeBatch nodes, int64_t* scores) {
  if (batch != nullptr) return batch->ScoreNodes(state, pod, nodes, scores);
  return ScoreEachNode(*pl, state, pod, nodes, scores);
}

bool UniformRaw(const UniformScorePlugin* uniform, const CycleState& state, const Pod& pod,
                int64_t* score) {
  return uniform != nullptr && uniform->UniformScore(state, pod, score);
}

bool UniformNormalized(const UniformScorePlugin* uniform, const CycleState& state, const Pod& pod,
                       int64_t raw, int64_t* normalized) {
  return uniform != nullptr && uniform->UniformNormalizedScore(state, pod, raw, normalized);
}

// RunScorePlugins of the plain runner, copied into the table: for a profile that lists a score
// plugin twice (v1.27's MultiPoint expansion, see SharedScoreLists), whose listings share one
// list that each normalizes in turn. Such profiles are rare, so they keep the plain rule rather
// than teach the columns below to share.
Status PlainScoresIntoTable(const Framework& fw, const CycleState& state, const Pod& pod,
                            const std::vector<const NodeInfo*>& nodes, ScoreTable* table) {
  std::vector<NodePluginScores> rows;
  if (Status s = fw.RunScorePlugins(state, pod, nodes, &rows); !s.IsSuccess()) return s;
  const size_t n = nodes.size(), p = table->plugins.size();
  table->raw.assign(n * p, 0);
  table->normalized.assign(n * p, 0);
  table->totals.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < p; ++j) {
      table->raw[j * n + i] = rows[i].scores[j].raw;
      table->normalized[j * n + i] = rows[i].scores[j].normalized;
    }
    table->totals[i] = rows[i].total;
  }
  return Status();
}

}  // namespace

void PlanFilters(const Framework& fw, const CycleState& state, const Pod& pod, FilterPlan* plan) {
  plan->plugins = fw.filter_plugins();
  plan->batch_forms.clear();
  plan->skipped.clear();
  const bool without_volumes = pod.obj.spec().volumes().empty();
  for (FilterPlugin* pl : plan->plugins) {
    plan->batch_forms.push_back(RememberedCast<BatchFilterPlugin>(pl));
    plan->skipped.push_back(state.skip_filter_plugins.count(pl->Name()) > 0 ||
                            (without_volumes && PassesEveryNodeWithoutVolumes(pl)));
  }
}

bool RunFilterPluginsOnNodes(const Framework& fw, const CycleState& state, const Pod& pod,
                             NodeBatch nodes, std::vector<BatchRejection>* rejected) {
  FilterPlan plan;
  PlanFilters(fw, state, pod, &plan);
  return RunFilterPluginsOnNodes(plan, state, pod, nodes, rejected);
}

bool RunFilterPluginsOnNodes(const FilterPlan& plan, const CycleState& state, const Pod& pod,
                             NodeBatch nodes, std::vector<BatchRejection>* rejected) {
  const std::vector<FilterPlugin*>& filters = plan.plugins;
  rejected->clear();
  // The nodes still passing, and their positions in `nodes`; reused across calls.
  static thread_local std::vector<const NodeInfo*> passing;
  static thread_local std::vector<uint32_t> positions;
  static thread_local std::vector<BatchRejection> by_plugin;
  passing.assign(nodes.begin(), nodes.end());
  positions.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) positions[i] = static_cast<uint32_t>(i);
  size_t plugins_rejecting = 0;
  for (size_t i = 0; i < filters.size() && !passing.empty(); ++i) {
    FilterPlugin* pl = filters[i];
    if (plan.skipped[i] != 0) continue;
    by_plugin.clear();
    FilterBatch(pl, plan.batch_forms[i], state, pod, NodeBatch(passing), &by_plugin);
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

Status RunScorePluginsIntoTable(const Framework& fw, const CycleState& state, const Pod& pod,
                                const std::vector<const NodeInfo*>& nodes, ScoreTable* table) {
  const size_t n = nodes.size();
  table->plugins.clear();
  table->weights.clear();
  // Reused across cycles: the plugins that score this pod, in order.
  // Their batch and uniform forms (null: none), found once per cycle.
  static thread_local std::vector<ScorePlugin*> active;
  static thread_local std::vector<BatchScorePlugin*> batch_forms;
  static thread_local std::vector<const UniformScorePlugin*> uniform_forms;
  active.clear();
  batch_forms.clear();
  uniform_forms.clear();
  for (ScorePlugin* pl : fw.score_plugins()) {
    if (state.skip_score_plugins.count(pl->Name())) continue;
    active.push_back(pl);
    batch_forms.push_back(RememberedCast<BatchScorePlugin>(pl));
    uniform_forms.push_back(RememberedCast<const UniformScorePlugin>(pl));
    table->plugins.push_back(pl->Name());
    table->weights.push_back(fw.ScoreWeight(std::string(pl->Name())));
  }
  const size_t p = active.size();
  if (fw.RepeatsAScorePlugin()) return PlainScoresIntoTable(fw, state, pod, nodes, table);
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
    u.raw_known = UniformRaw(uniform_forms[j], state, pod, &u.raw);
    if (!u.raw_known) {
      per_node.push_back(j);
      continue;
    }
    u.normalized = u.raw;
    u.normalized_known = !active[j]->HasNormalizeScore() ||
                         UniformNormalized(uniform_forms[j], state, pod, u.raw, &u.normalized);
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
      if (!ScoreBatch(active[j], batch_forms[j], state, pod, batch, &table->raw[j * n + begin])
               .IsSuccess()) {
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
        if (!s.IsSuccess())
          return WrapError("running Score plugin " + Quoted(active[j]->Name()) + ": ", s);
      }
    }
    return Status::Error(
        "a score plugin's ScoreNodes failed where its Score succeeds on every node");
  }
  // A column that came out as one score (no tainted node, say) normalizes like a uniform one.
  for (size_t j : per_node) {
    if (!active[j]->HasNormalizeScore() || n == 0) continue;
    const int64_t* raw = &table->raw[j * n];
    if (std::any_of(raw + 1, raw + n, [first = raw[0]](int64_t v) { return v != first; })) continue;
    Uniform& u = uniform[j];
    u.normalized_known = UniformNormalized(uniform_forms[j], state, pod, raw[0], &u.normalized);
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
  for (size_t j = 0; j < p; ++j)
    any_normalize |= active[j]->HasNormalizeScore() && !uniform[j].normalized_known;
  if (any_normalize) {
    scores.resize(n);
    for (size_t i = 0; i < n; ++i) scores[i].name = nodes[i]->name();
  }
  int64_t* __restrict totals = table->totals.data();
  auto invalid = [](int64_t v) {
    return static_cast<uint64_t>(v - kMinNodeScore) >
           static_cast<uint64_t>(kMaxNodeScore - kMinNodeScore);
  };
  for (size_t j = 0; j < p; ++j) {
    ScorePlugin* pl = active[j];
    auto invalid_score = [&](int64_t v) {
      return Status::Error("plugin " + Quoted(pl->Name()) + " returns an invalid score " +
                           std::to_string(v) +
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
      if (!s.IsSuccess())
        return WrapError("running Normalize on Score plugin " + Quoted(pl->Name()) + ": ", s);
      s = accumulate([&](size_t i) { return scores[i].score; });
    } else {
      s = accumulate([&](size_t i) { return raw[i]; });
    }
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

}  // namespace schedcheck::reference
