// Reports of one or more diffs (one per trace for the gate): the terminal text (the first
// divergence explained, then a summary table), JSON, JUnit XML and Markdown. Pure functions of
// their input; writing files is the caller's (atomically).
#ifndef SCHEDCHECK_HARNESS_DIFF_REPORT_H_
#define SCHEDCHECK_HARNESS_DIFF_REPORT_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/diff/diff.h"
#include "harness/diff/score_drift.h"

namespace schedcheck::diff {

struct NamedDiff {
  std::string name;  // the trace or "A vs B"
  DiffResult result;
  std::string explanation;  // of the first divergence; may be empty
  std::string error;        // set when this comparison could not run (counts as a failure)
  // `--scores` other than off: the score comparison (score_drift.h). Shown when some attempt was
  // compared or some drift found; nothing otherwise, so reports without scores are unchanged.
  ScoreDriftResult scores;
};

struct ReportOptions {
  bool allow_soft = false;  // soft divergences (moved placements) do not fail
  size_t max_listed = 50;   // divergences listed per diff in text and Markdown
  SideNames sides;          // how divergences name A and B ("baseline" when a baseline ran A)
  bool score_drift_fails = false;  // `--scores=fail` (or auto between builds of one level)
};

bool Failed(const NamedDiff& d, const ReportOptions& o);
// The score comparison's text lines (a summary, then each drift; "" when nothing was compared),
// as TextReport shows them.
std::string ScoreDriftText(const NamedDiff& d, const ReportOptions& o);
std::string TextReport(const NamedDiff& d, const ReportOptions& o);
nlohmann::ordered_json JsonReport(const std::vector<NamedDiff>& diffs, const ReportOptions& o);
// Text for an XML attribute or element: &, <, > and " escaped; control characters XML 1.0 does not
// allow (all below 0x20 but tab and newline) written as '?'. JUnitReport's, and the campaign's.
std::string XmlEscape(const std::string& s);
// One <testcase> per diff, failing on any divergence (soft ones not when allow_soft).
std::string JUnitReport(const std::vector<NamedDiff>& diffs, const std::string& suite,
                        const ReportOptions& o);
std::string MarkdownReport(const std::vector<NamedDiff>& diffs, const std::string& title,
                           const ReportOptions& o);

}  // namespace schedcheck::diff

#endif  // SCHEDCHECK_HARNESS_DIFF_REPORT_H_
