// The parts of the HTML report that must be readable without JavaScript: the verdict, the counts,
// the two sides and the divergence table, written as plain markup from the report's data
// (report_data.h) into the page's <main>. The script (report.js) draws the same parts again,
// with its enhancements (links to the paths, "show all"), together with the charts, which need it.
// Every string from the input is HTML-escaped, and every non-ASCII character written as a
// character reference (invalid UTF-8 as U+FFFD), so the markup is ASCII whatever the logs hold.
#ifndef SCHEDCHECK_HARNESS_REPORT_STATIC_HTML_H_
#define SCHEDCHECK_HARNESS_REPORT_STATIC_HTML_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace schedcheck::report {

// Divergence rows written as markup; more are counted in a note (the script shows them all).
inline constexpr size_t kStaticDivergenceRows = 1000;

// The <header> and the divergences <section> for `data` (BuildReportData's document).
std::string StaticHtml(const nlohmann::ordered_json& data);

// `text` as HTML text or attribute content: & < > " ' escaped, non-ASCII as &#xNNNN;.
std::string HtmlEscape(std::string_view text);

}  // namespace schedcheck::report

#endif  // SCHEDCHECK_HARNESS_REPORT_STATIC_HTML_H_
