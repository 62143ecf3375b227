#include "harness/report/report_data.h"

#include <algorithm>
#include <map>
#include <set>

namespace schedcheck::report {
namespace {

using Json = nlohmann::ordered_json;

double Seconds(int64_t t_ns) { return static_cast<double>(t_ns) / 1e9; }

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

const char* ResultCode(trace::AttemptResult r) {
  switch (r) {
    case trace::SCHEDULED:
      return "S";
    case trace::UNSCHEDULABLE:
      return "U";
    default:
      return "E";
  }
}

// One step of a pod's path through the queue, as a line of the side-by-side table.
Json Step(const trace::Record& r) {
  Json step = {{"t", Seconds(r.time_ns())}};
  if (r.has_queue()) {
    const trace::QueueTransition& q = r.queue();
    step["kind"] = "queue";
    step["text"] = q.from() + " \u2192 " + q.to() + " (" + q.cause() + ")";
  } else if (r.has_attempt()) {
    const trace::Attempt& a = r.attempt();
    std::string text = "attempt " + std::to_string(a.attempt()) + ": ";
    if (a.result() == trace::SCHEDULED) {
      text += "scheduled on " + a.node() + " (ties " + Join(a.ties(), ",") + ")";
    } else {
      text += std::string(a.result() == trace::UNSCHEDULABLE ? "unschedulable" : "error") + " [" +
              Join(a.unschedulable_plugins(), ",") + "]: " + a.message();
    }
    if (!a.nominated_node().empty()) text += "; nominated " + a.nominated_node();
    if (a.victims_size() > 0) text += "; victims " + Join(a.victims(), ",");
    step["kind"] = "attempt";
    step["result"] = ResultCode(a.result());
    step["text"] = text;
  } else {
    step["kind"] = "bind";
    step["text"] = "bound to " + r.binding().node();
  }
  return step;
}

// The pod a decision record concerns; empty for any other record.
std::string PodOf(const trace::Record& r) {
  if (r.has_queue()) return r.queue().pod();
  if (r.has_attempt()) return r.attempt().pod();
  if (r.has_binding()) return r.binding().pod();
  return "";
}

// Attempt marks of one side; pods are indices into `pods` (shared by both sides).
Json Timeline(const std::vector<trace::Record>& log, size_t max, std::vector<std::string>* pods,
              std::map<std::string, size_t>* pod_index, size_t* omitted) {
  Json marks = Json::array();
  *omitted = 0;
  for (const trace::Record& r : log) {
    if (!r.has_attempt()) continue;
    if (marks.size() == max) {
      ++*omitted;
      continue;
    }
    auto [it, added] = pod_index->emplace(r.attempt().pod(), pods->size());
    if (added) pods->push_back(r.attempt().pod());
    marks.push_back(
        Json::array({Seconds(r.time_ns()), it->second, ResultCode(r.attempt().result())}));
  }
  return marks;
}

Json QueueSeries(const std::vector<trace::Record>& log, size_t buckets) {
  Json series = Json::array();
  for (const QueuePoint& p : QueueSizes(log, buckets)) {
    series.push_back(Json::array({p.t, p.active, p.backoff, p.unschedulable}));
  }
  return series;
}

// diff::ExplainAt's text: a header line, then per side an unindented title line followed by its
// indented lines (a trailing note is one more section). Split so the page shows sides side by side.
Json Explanation(const std::string& text) {
  if (text.empty()) return nullptr;
  Json sections = Json::array();
  std::string header;
  size_t start = 0;
  bool first = true;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    const bool title = line[0] != ' ';
    if (first && title && line.rfind("the cluster at", 0) == 0) {
      header = line;
    } else if (title || sections.empty()) {
      sections.push_back({{"title", line}, {"lines", Json::array()}});
    } else {
      sections.back()["lines"].push_back(line);
    }
    first = false;
  }
  return {{"header", header}, {"sections", sections}};
}

}  // namespace

std::vector<QueuePoint> QueueSizes(const std::vector<trace::Record>& decisions, size_t buckets) {
  std::vector<QueuePoint> points;
  QueuePoint now;
  auto count = [&](const std::string& state, int delta) {
    if (state == "active") now.active += delta;
    if (state == "backoff") now.backoff += delta;
    if (state == "unschedulable") now.unschedulable += delta;
  };
  for (const trace::Record& r : decisions) {
    if (!r.has_queue()) continue;
    count(r.queue().from(), -1);
    count(r.queue().to(), +1);
    now.t = Seconds(r.time_ns());
    if (!points.empty() && points.back().t == now.t) {
      points.back() = now;  // the sizes after the instant's last transition
    } else {
      points.push_back(now);
    }
  }
  if (buckets == 0 || points.size() <= buckets) return points;
  const double t0 = points.front().t, span = points.back().t - t0;
  std::vector<QueuePoint> reduced;
  for (const QueuePoint& p : points) {
    const size_t b = std::min(
        buckets - 1, static_cast<size_t>((p.t - t0) / span * static_cast<double>(buckets)));
    const double bucket_t = t0 + span * static_cast<double>(b) / static_cast<double>(buckets);
    if (reduced.empty() || reduced.back().t != bucket_t) {
      reduced.push_back({bucket_t, p.active, p.backoff, p.unschedulable});
      continue;
    }
    QueuePoint& m = reduced.back();
    m.active = std::max(m.active, p.active);
    m.backoff = std::max(m.backoff, p.backoff);
    m.unschedulable = std::max(m.unschedulable, p.unschedulable);
  }
  return reduced;
}

Json BuildReportData(const ReportInput& in) {
  const diff::DiffResult& d = in.result;
  const size_t hard = d.Count(diff::DivergenceClass::kHard),
               requeue = d.Count(diff::DivergenceClass::kRequeue),
               soft = d.Count(diff::DivergenceClass::kSoft);
  Json data = {
      {"title", in.title}, {"reference", in.reference.name}, {"candidate", in.candidate.name}};
  data["verdict"] = {{"fails", hard + requeue + (in.allow_soft ? 0 : soft) > 0},
                     {"allowSoft", in.allow_soft},
                     {"podsCompared", d.pods_compared},
                     {"hard", hard},
                     {"requeue", requeue},
                     {"soft", soft}};
  data["notCompared"] = d.not_compared;
  double t_max = 0;
  for (const auto* log : {&in.reference.decisions, &in.candidate.decisions}) {
    if (!log->empty()) t_max = std::max(t_max, Seconds(log->back().time_ns()));
  }
  data["span"] = t_max;

  std::vector<std::string> pods;
  std::map<std::string, size_t> pod_index;
  size_t ref_omitted = 0, cand_omitted = 0;
  Json ref_marks =
      Timeline(in.reference.decisions, in.max_timeline_attempts, &pods, &pod_index, &ref_omitted);
  Json cand_marks =
      Timeline(in.candidate.decisions, in.max_timeline_attempts, &pods, &pod_index, &cand_omitted);
  data["pods"] = pods;
  data["timeline"] = {{"reference", ref_marks},
                      {"candidate", cand_marks},
                      {"referenceOmitted", ref_omitted},
                      {"candidateOmitted", cand_omitted}};

  Json divergences = Json::array();
  std::vector<std::string> path_pods;  // divergent pods in the order of their first divergence
  std::set<std::string> seen;
  for (const diff::Divergence& v : d.divergences) {
    if (divergences.size() < in.max_divergences) {
      divergences.push_back({{"class", std::string(diff::ClassName(v.cls))},
                             {"pod", v.pod},
                             {"t", Seconds(v.t_ns)},
                             {"attempt", v.attempt},
                             {"what", v.what},
                             {"reference", v.reference},
                             {"candidate", v.candidate},
                             {"plugins", v.plugins}});
    }
    if (seen.insert(v.pod).second) path_pods.push_back(v.pod);
  }
  data["divergences"] = divergences;
  data["divergencesOmitted"] = d.divergences.size() - divergences.size();

  const size_t shown = std::min(path_pods.size(), in.max_pod_paths);
  std::map<std::string, std::pair<Json, Json>> steps;
  for (size_t i = 0; i < shown; ++i) steps[path_pods[i]] = {Json::array(), Json::array()};
  for (const trace::Record& r : in.reference.decisions) {
    auto it = steps.find(PodOf(r));
    if (it != steps.end() && !it->first.empty()) it->second.first.push_back(Step(r));
  }
  for (const trace::Record& r : in.candidate.decisions) {
    auto it = steps.find(PodOf(r));
    if (it != steps.end() && !it->first.empty()) it->second.second.push_back(Step(r));
  }
  Json paths = Json::array();
  for (size_t i = 0; i < shown; ++i) {
    const auto& [ref, cand] = steps[path_pods[i]];
    paths.push_back({{"pod", path_pods[i]}, {"reference", ref}, {"candidate", cand}});
  }
  data["paths"] = paths;
  data["pathsOmitted"] = path_pods.size() - shown;
  data["queues"] = {{"reference", QueueSeries(in.reference.decisions, in.queue_buckets)},
                    {"candidate", QueueSeries(in.candidate.decisions, in.queue_buckets)}};
  data["explanation"] = Explanation(in.explanation);
  if (!in.score_drift.empty()) {
    Json lines = Json::array();
    size_t start = 0;
    while (start < in.score_drift.size()) {
      size_t end = in.score_drift.find('\n', start);
      if (end == std::string::npos) end = in.score_drift.size();
      lines.push_back(in.score_drift.substr(start, end - start));
      start = end + 1;
    }
    data["scoreDrift"] = lines;
  }
  return data;
}

}  // namespace schedcheck::report
