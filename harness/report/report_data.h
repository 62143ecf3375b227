// The data model of the HTML report (html_report.h): everything the page draws, as one JSON
// document built from the two decision logs, their diff and the explanation of the first
// divergence. Pure: same input, same JSON (no clock, no unordered iteration). Kept apart from
// the HTML so that tests can check the numbers without a browser.
#ifndef SCHEDCHECK_HARNESS_REPORT_REPORT_DATA_H_
#define SCHEDCHECK_HARNESS_REPORT_REPORT_DATA_H_

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/diff/diff.h"
#include "traces/trace.pb.h"

namespace schedcheck::report {

struct ReportSide {
  std::string name;                      // shown in the page: the file or build it came from
  std::vector<trace::Record> decisions;  // attempt, queue and binding records in log order
};

struct ReportInput {
  std::string title;  // "a.jsonl vs b.jsonl"
  ReportSide reference;
  ReportSide candidate;
  diff::DiffResult result;  // diff::Diff(reference.decisions, candidate.decisions)
  bool allow_soft = false;  // soft divergences do not fail (only changes the verdict line)
  // diff::ExplainAt's text for the first divergence (per-node filter statuses and per-plugin
  // scores of each side), possibly followed by a note; empty when there is none.
  std::string explanation;
  // `report --scores`: diff::ScoreDriftText of the two logs' recorded scores; empty when none
  // were compared (the page then has no score-drift section).
  std::string score_drift;
  // Bounds on the page's size for long logs; what is left out is counted in the page.
  size_t max_divergences = 5000;         // timeline markers and rows of the divergence table
  size_t max_pod_paths = 50;             // divergent pods whose queue paths are shown side by side
  size_t max_timeline_attempts = 20000;  // attempt marks per side
  size_t queue_buckets = 600;  // points per queue-size series (the maximum per time bucket)
};

// The JSON document the page's script renders (field names are the script's contract).
nlohmann::ordered_json BuildReportData(const ReportInput& input);

// Queue sizes of one log over time: for each point, the time and the number of pods in activeQ,
// backoffQ and the unschedulable pool after every transition at that instant. With more distinct
// instants than `buckets`, time is cut into `buckets` equal spans and each keeps its maxima.
struct QueuePoint {
  double t = 0;  // seconds since the trace start
  int active = 0, backoff = 0, unschedulable = 0;
};
std::vector<QueuePoint> QueueSizes(const std::vector<trace::Record>& decisions, size_t buckets);

}  // namespace schedcheck::report

#endif  // SCHEDCHECK_HARNESS_REPORT_REPORT_DATA_H_
