#include "harness/report/html_report.h"

#include "harness/report/report_assets.h"
#include "harness/report/static_html.h"

namespace schedcheck::report {

std::string ScriptSafeJson(const nlohmann::ordered_json& value) {
  // ensure_ascii escapes every non-ASCII character, U+2028/U+2029 included; the replace handler
  // turns invalid UTF-8 into U+FFFD instead of throwing.
  const std::string text =
      value.dump(-1, ' ', /*ensure_ascii=*/true, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    // These characters can only occur inside JSON strings, where \u escapes mean the same.
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Result<std::string> RenderHtmlReport(const ReportInput& input) {
  const nlohmann::ordered_json json = BuildReportData(input);
  const std::string data = ScriptSafeJson(json);
  std::string html;
  html.reserve(data.size() + sizeof(kReportCss) + sizeof(kReportJs) + 1024);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be loaded: inline style and script only, images only as data: URLs.
  html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<meta name=\"generator\" content=\"schedcheck report\">\n";
  html += "<title>schedcheck report</title>\n<style>\n";
  html += kReportCss;
  html += "</style>\n</head>\n<body data-rendered=\"pending\">\n";
  // The verdict, counts and divergences as markup (static_html.h); the script draws them again
  // in place with the charts.
  html += "<main id=\"app\">\n";
  html += StaticHtml(json);
  html +=
      "<noscript><p class=\"note\">The timeline, the queue charts, the divergent pods' paths and "
      "the explanation are drawn by the page's embedded script: enable JavaScript to see "
      "them.</p></noscript>\n";
  html += "</main>\n<script type=\"application/json\" id=\"report-data\">";
  html += data;
  html += "</script>\n<script>\n";
  html += kReportJs;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace schedcheck::report
