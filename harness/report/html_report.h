// The HTML report of a diff, for divergences too many to read as text: one self-contained, offline
// HTML file showing the divergence timeline of both sides, each divergent pod's path through the
// queue side by side, queue sizes over time and, when an explanation is given, the first divergent
// attempt's per-node filter statuses and per-plugin scores of both sides.
//
// The page is the data (report_data.h, embedded as JSON) plus a small hand-written script that
// draws it with SVG; the verdict, counts and divergence table are also written as markup
// (static_html.h), so they show without JavaScript (the script draws them again in their place).
// A Content-Security-Policy forbids loading anything, so it works offline and
// an injected tag could not fetch anything either. Untrusted strings (pod names, messages) reach
// the page only as escaped JSON and then as text nodes. Same input, same bytes. Writing the file
// is the caller's (atomically). Used by `schedcheck report`.
#ifndef SCHEDCHECK_HARNESS_REPORT_HTML_REPORT_H_
#define SCHEDCHECK_HARNESS_REPORT_HTML_REPORT_H_

#include <string>
#include <string_view>

#include "harness/report/report_data.h"
#include "reference/base/result.h"

namespace schedcheck::report {

Result<std::string> RenderHtmlReport(const ReportInput& input);

// JSON text that is safe inside an HTML <script> element: '<', '>', '&', U+2028 and U+2029 are
// written as \u escapes (so no "</script>" or "<!--" can appear), every other non-ASCII character
// too, and invalid UTF-8 is replaced by U+FFFD.
std::string ScriptSafeJson(const nlohmann::ordered_json& value);

}  // namespace schedcheck::report

#endif  // SCHEDCHECK_HARNESS_REPORT_HTML_REPORT_H_
