#include "harness/diff/score_drift.h"

#include <algorithm>
#include <map>
#include <optional>

#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

struct ScoredAttempt {
  int64_t t_ns = 0;
  int64_t index = 0;
  const trace::Attempt* attempt = nullptr;
};

// Every attempt per pod, in log order (observed records of a capture carry no scores: skipped).
std::map<std::string, std::vector<ScoredAttempt>> AttemptsByPod(
    const std::vector<trace::Record>& log, size_t* scored) {
  std::map<std::string, std::vector<ScoredAttempt>> out;
  for (size_t i = 0; i < log.size(); ++i) {
    if (!log[i].has_attempt() || log[i].attempt().observed()) continue;
    const trace::Attempt& a = log[i].attempt();
    if (a.scores_size() > 0) ++*scored;
    out[a.pod()].push_back({log[i].time_ns(), static_cast<int64_t>(i), &a});
  }
  return out;
}

bool SamePlacement(const trace::Attempt& a, const trace::Attempt& b) {
  if (a.result() != trace::SCHEDULED || b.result() != trace::SCHEDULED) return false;
  if (a.ties_size() == 0) return a.node() == b.node();
  return std::find(a.ties().begin(), a.ties().end(), b.node()) != a.ties().end();
}

std::string TopList(const trace::Attempt& a, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out +=
        (out.empty() ? "" : " ") + a.scores(i).node() + "=" + std::to_string(a.scores(i).total());
  }
  return out;
}

const trace::NodeScore* Find(const trace::Attempt& a, int n, const std::string& node) {
  for (int i = 0; i < n; ++i) {
    if (a.scores(i).node() == node) return &a.scores(i);
  }
  return nullptr;
}

std::vector<std::string> PluginDifferences(const trace::NodeScore& x, const trace::NodeScore& y) {
  std::map<std::string, std::pair<std::optional<int64_t>, std::optional<int64_t>>> by_plugin;
  for (const trace::PluginScore& p : x.plugins()) by_plugin[p.plugin()].first = p.score();
  for (const trace::PluginScore& p : y.plugins()) by_plugin[p.plugin()].second = p.score();
  auto text = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "-"; };
  std::vector<std::string> out;
  // A side that recorded no plugins at all says nothing about them.
  if (x.plugins_size() == 0 || y.plugins_size() == 0) return out;
  for (const auto& [plugin, scores] : by_plugin) {
    if (scores.first != scores.second)
      out.push_back(plugin + " " + text(scores.first) + " vs " + text(scores.second));
  }
  return out;
}

// The drift of one attempt pair, if any. Both lists are compared over their common length (K may
// differ between the two runs).
std::optional<ScoreDrift> DriftOf(const ScoredAttempt& x, const ScoredAttempt& y) {
  const trace::Attempt& a = *x.attempt;
  const trace::Attempt& b = *y.attempt;
  const int n = std::min(a.scores_size(), b.scores_size());
  ScoreDrift d;
  d.pod = a.pod();
  d.attempt = a.attempt();
  d.t_ns = x.t_ns;
  d.reference_record = x.index;
  d.candidate_record = y.index;
  d.reference = TopList(a, n);
  d.candidate = TopList(b, n);
  for (int i = 0; i < n; ++i) {
    const trace::NodeScore& s = a.scores(i);
    const trace::NodeScore* t = Find(b, n, s.node());
    if (t == nullptr) continue;
    if (s.total() != t->total() || !PluginDifferences(s, *t).empty()) {
      d.what = "total";
      d.node = s.node();
      d.reference_total = s.total();
      d.candidate_total = t->total();
      d.plugins = PluginDifferences(s, *t);
      return d;
    }
  }
  if (d.reference == d.candidate) return std::nullopt;
  d.what = "order";
  return d;
}

}  // namespace

ScoreDriftResult CompareScores(const std::vector<trace::Record>& reference,
                               const std::vector<trace::Record>& candidate) {
  ScoreDriftResult out;
  auto a = AttemptsByPod(reference, &out.reference_scored);
  auto b = AttemptsByPod(candidate, &out.candidate_scored);
  for (const auto& [pod, xs] : a) {
    auto it = b.find(pod);
    if (it == b.end()) continue;
    const auto& ys = it->second;
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
      const trace::Attempt& x = *xs[i].attempt;
      const trace::Attempt& y = *ys[i].attempt;
      if (x.scores_size() == 0 || y.scores_size() == 0 || !SamePlacement(x, y)) continue;
      ++out.attempts_compared;
      if (auto d = DriftOf(xs[i], ys[i])) {
        out.drifts.push_back(std::move(*d));
        break;  // the pod's earliest drift
      }
    }
  }
  std::stable_sort(out.drifts.begin(), out.drifts.end(),
                   [](const ScoreDrift& x, const ScoreDrift& y) { return x.t_ns < y.t_ns; });
  return out;
}

std::string DescribeDrift(const ScoreDrift& d, std::string_view a, std::string_view b) {
  std::string s = "pod " + d.pod + " at t=" + replay::FormatSeconds(d.t_ns) + " (attempt " +
                  std::to_string(d.attempt) + "): score drift: ";
  if (d.what == "total") {
    s += "node " + d.node + " total " + std::to_string(d.reference_total) + " vs " +
         std::to_string(d.candidate_total);
    if (!d.plugins.empty()) {
      std::string list;
      for (const std::string& p : d.plugins) list += (list.empty() ? "" : ", ") + p;
      s += " (" + list + ")";
    }
  } else {
    s += "top nodes in another order";
  }
  s +=
      "; " + std::string(a) + " top " + d.reference + "; " + std::string(b) + " top " + d.candidate;
  return s;
}

Result<ScoresMode> ParseScoresMode(const std::string& text) {
  if (text == "auto") return ScoresMode::kAuto;
  if (text == "off") return ScoresMode::kOff;
  if (text == "report") return ScoresMode::kReport;
  if (text == "fail") return ScoresMode::kFail;
  return Error{"--scores: want off, report, fail or auto, got \"" + text + "\""};
}

bool MadeByBuild(const trace::Header& header) {
  auto candidate = header.labels().find("candidate");
  if (candidate != header.labels().end() && candidate->second != "reference") return true;
  return header.labels().count("scheduler_cmd") > 0;
}

bool ScoreDriftFails(ScoresMode mode, const trace::Header& a, const trace::Header& b) {
  switch (mode) {
    case ScoresMode::kFail:
      return true;
    case ScoresMode::kAuto:
      return MadeByBuild(a) && MadeByBuild(b) &&
             (a.compat().empty() ? "1.27" : a.compat()) ==
                 (b.compat().empty() ? "1.27" : b.compat());
    default:
      return false;
  }
}

}  // namespace schedcheck::diff
