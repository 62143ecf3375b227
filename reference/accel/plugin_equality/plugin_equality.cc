#include "reference/accel/plugin_equality/plugin_equality.h"

#include <cstdint>

#include "reference/accel/batch_plugin.h"

namespace schedcheck::reference {
namespace {

std::string Differ(const std::string& what, const Status& plain, const Status& fast) {
  if (plain == fast) return "";
  return what + ": plain " + plain.DebugString() + ", fast " + fast.DebugString();
}

// The plain rule must not carry the accelerated forms.
std::string PlainHasBatchForms(Plugin& plain) {
  if (dynamic_cast<BatchFilterPlugin*>(&plain) != nullptr)
    return "the plain plugin is a BatchFilterPlugin";
  if (dynamic_cast<BatchScorePlugin*>(&plain) != nullptr)
    return "the plain plugin is a BatchScorePlugin";
  if (dynamic_cast<UniformScorePlugin*>(&plain) != nullptr)
    return "the plain plugin is a UniformScorePlugin";
  return "";
}

template <typename Interface>
std::string Both(Plugin& plain, Plugin& fast, Interface** p, Interface** f, const char* what) {
  *p = dynamic_cast<Interface*>(&plain);
  *f = dynamic_cast<Interface*>(&fast);
  if ((*p == nullptr) != (*f == nullptr)) return std::string("only one of them is a ") + what;
  return "";
}

std::string ComparePreFilter(PreFilterPlugin& p, PreFilterPlugin& f, CycleState& ps, CycleState& fs,
                             const Pod& pod, bool* go_on) {
  PreFilterResult pr, fr;
  const Status plain = p.PreFilter(ps, pod, &pr);
  if (std::string d = Differ("PreFilter", plain, f.PreFilter(fs, pod, &fr)); !d.empty()) return d;
  if (pr.all_nodes != fr.all_nodes || pr.node_names != fr.node_names)
    return "PreFilter: the node narrowing differs";
  // A rejection or an error ends the cycle; Skip only skips this plugin's Filter, which is still
  // compared (it is what a Filter without PreFilter state gives).
  *go_on = plain.IsSuccess() || plain.IsSkip();
  return "";
}

// Filter node by node, then the batch Filter over the nodes that exist. `feasible` gets the
// existing nodes the plain Filter passes.
std::string CompareFilter(FilterPlugin& p, FilterPlugin& f, Plugin& fast, const CycleState& ps,
                          const CycleState& fs, const Pod& pod,
                          const std::vector<const NodeInfo*>& nodes,
                          std::vector<const NodeInfo*>* feasible) {
  std::vector<const NodeInfo*> existing;
  std::vector<BatchRejection> want;
  for (const NodeInfo* node : nodes) {
    const Status plain = p.Filter(ps, pod, *node);
    if (std::string d =
            Differ("Filter on node \"" + node->name() + "\"", plain, f.Filter(fs, pod, *node));
        !d.empty()) {
      return d;
    }
    if (node->node() == nullptr) continue;
    if (!plain.IsSuccess()) want.push_back({static_cast<uint32_t>(existing.size()), plain});
    if (plain.IsSuccess()) feasible->push_back(node);
    existing.push_back(node);
  }
  auto* batch = dynamic_cast<BatchFilterPlugin*>(&fast);
  if (batch == nullptr) return "";
  std::vector<BatchRejection> got;
  batch->FilterNodes(fs, pod, existing, &got);
  if (got.size() != want.size()) {
    return "FilterNodes rejected " + std::to_string(got.size()) + " nodes, Filter " +
           std::to_string(want.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].index != want[i].index)
      return "FilterNodes rejected another node at rejection " + std::to_string(i);
    const std::string where = "FilterNodes on node \"" + existing[want[i].index]->name() + "\"";
    if (std::string d = Differ(where, want[i].status, got[i].status); !d.empty()) return d;
  }
  return "";
}

// NormalizeScore of the same list by both.
std::string CompareNormalize(ScorePlugin& p, ScorePlugin& f, const CycleState& ps,
                             const CycleState& fs, const Pod& pod, const NodeScoreList& raw) {
  NodeScoreList a = raw, b = raw;
  if (std::string d =
          Differ("NormalizeScore", p.NormalizeScore(ps, pod, a), f.NormalizeScore(fs, pod, b));
      !d.empty()) {
    return d;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].score != b[i].score) {
      return "NormalizeScore of node \"" + std::string(a[i].name) + "\": plain " +
             std::to_string(a[i].score) + ", fast " + std::to_string(b[i].score);
    }
  }
  return "";
}

// The Uniform* answers against the plain per-node scores and the plain NormalizeScore.
std::string CompareUniform(ScorePlugin& p, const UniformScorePlugin& u, const CycleState& ps,
                           const CycleState& fs, const Pod& pod, const NodeScoreList& raw,
                           bool all_scored) {
  int64_t uniform = 0;
  if (u.UniformScore(fs, pod, &uniform)) {
    if (!all_scored) return "UniformScore answered where Score gives an error";
    for (const NodeScore& s : raw) {
      if (s.score != uniform) {
        return "UniformScore " + std::to_string(uniform) + ", Score of node \"" +
               std::string(s.name) + "\" " + std::to_string(s.score);
      }
    }
  }
  std::vector<int64_t> values = {0, 1, 7, 100, 250, uniform};
  for (const NodeScore& s : raw) values.push_back(s.score);
  for (int64_t v : values) {
    int64_t normalized = 0;
    if (!u.UniformNormalizedScore(fs, pod, v, &normalized)) continue;
    NodeScoreList list = {{"a", v}, {"b", v}, {"c", v}};
    if (p.HasNormalizeScore()) {
      if (Status s = p.NormalizeScore(ps, pod, list); !s.IsSuccess()) {
        return "UniformNormalizedScore answered where NormalizeScore gives " + s.DebugString();
      }
    }
    for (const NodeScore& s : list) {
      if (s.score != normalized) {
        return "UniformNormalizedScore(" + std::to_string(v) + ") = " + std::to_string(normalized) +
               ", NormalizeScore gives " + std::to_string(s.score);
      }
    }
  }
  return "";
}

// Score per node (`nodes` may include NodeInfos without a node), the batch Score over the
// existing ones, NormalizeScore and the Uniform* shortcuts.
std::string CompareScore(ScorePlugin& p, ScorePlugin& f, Plugin& fast, const CycleState& ps,
                         const CycleState& fs, const Pod& pod,
                         const std::vector<const NodeInfo*>& nodes) {
  if (p.HasNormalizeScore() != f.HasNormalizeScore()) return "HasNormalizeScore differs";
  std::vector<const NodeInfo*> existing;
  NodeScoreList raw;
  bool all_scored = true;
  for (const NodeInfo* node : nodes) {
    int64_t a = -1, b = -1;
    const Status plain = p.Score(ps, pod, *node, &a);
    const std::string where = "Score on node \"" + node->name() + "\"";
    if (std::string d = Differ(where, plain, f.Score(fs, pod, *node, &b)); !d.empty()) return d;
    if (plain.IsSuccess() && a != b)
      return where + ": plain " + std::to_string(a) + ", fast " + std::to_string(b);
    if (node->node() == nullptr) continue;
    existing.push_back(node);
    all_scored = all_scored && plain.IsSuccess();
    raw.push_back({node->name(), a});
  }
  if (auto* batch = dynamic_cast<BatchScorePlugin*>(&fast)) {
    std::vector<int64_t> scores(existing.size(), -1);
    const Status s = batch->ScoreNodes(fs, pod, existing, scores.data());
    if (s.IsSuccess() != all_scored)
      return "ScoreNodes: " + s.DebugString() + " where Score gives otherwise";
    for (size_t i = 0; all_scored && i < scores.size(); ++i) {
      if (scores[i] != raw[i].score) {
        return "ScoreNodes on node \"" + existing[i]->name() + "\": " + std::to_string(scores[i]) +
               ", Score " + std::to_string(raw[i].score);
      }
    }
  }
  if (all_scored && p.HasNormalizeScore()) {
    if (std::string d = CompareNormalize(p, f, ps, fs, pod, raw); !d.empty()) return d;
  }
  if (const auto* u = dynamic_cast<const UniformScorePlugin*>(&fast)) {
    return CompareUniform(p, *u, ps, fs, pod, raw, all_scored);
  }
  return "";
}

}  // namespace

std::string FirstDifference(Plugin& plain, Plugin& fast, const Pod& pod,
                            const std::vector<const NodeInfo*>& nodes, CycleOptions options) {
  if (plain.Name() != fast.Name()) return "names differ";
  if (std::string d = PlainHasBatchForms(plain); !d.empty()) return d;
  CycleState ps, fs;
  PreFilterPlugin *pre_p = nullptr, *pre_f = nullptr;
  if (std::string d = Both(plain, fast, &pre_p, &pre_f, "PreFilterPlugin"); !d.empty()) return d;
  if (pre_p != nullptr && options.run_pre_filter) {
    bool go_on = true;
    if (std::string d = ComparePreFilter(*pre_p, *pre_f, ps, fs, pod, &go_on); !d.empty() || !go_on)
      return d;
  }
  FilterPlugin *filter_p = nullptr, *filter_f = nullptr;
  if (std::string d = Both(plain, fast, &filter_p, &filter_f, "FilterPlugin"); !d.empty()) return d;
  // Score sees the nodes Filter passes, and the NodeInfos without a node (Score's error path).
  std::vector<const NodeInfo*> to_score;
  if (filter_p != nullptr) {
    if (std::string d = CompareFilter(*filter_p, *filter_f, fast, ps, fs, pod, nodes, &to_score);
        !d.empty()) {
      return d;
    }
    for (const NodeInfo* node : nodes) {
      if (node->node() == nullptr) to_score.push_back(node);
    }
  } else {
    to_score = nodes;
  }
  PreScorePlugin *prescore_p = nullptr, *prescore_f = nullptr;
  if (std::string d = Both(plain, fast, &prescore_p, &prescore_f, "PreScorePlugin"); !d.empty())
    return d;
  if (prescore_p != nullptr && options.run_pre_score) {
    std::vector<const NodeInfo*> feasible;
    for (const NodeInfo* node : to_score) {
      if (node->node() != nullptr) feasible.push_back(node);
    }
    const Status s = prescore_p->PreScore(ps, pod, feasible);
    if (std::string d = Differ("PreScore", s, prescore_f->PreScore(fs, pod, feasible)); !d.empty())
      return d;
    if (!s.IsSuccess()) return "";
  }
  ScorePlugin *score_p = nullptr, *score_f = nullptr;
  if (std::string d = Both(plain, fast, &score_p, &score_f, "ScorePlugin"); !d.empty()) return d;
  if (score_p == nullptr) return "";
  return CompareScore(*score_p, *score_f, fast, ps, fs, pod, to_score);
}

}  // namespace schedcheck::reference
