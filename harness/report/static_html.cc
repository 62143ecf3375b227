#include "harness/report/static_html.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace schedcheck::report {
namespace {

using Json = nlohmann::ordered_json;

// The code point of the UTF-8 sequence at text[*i], advancing *i; U+FFFD for an invalid one
// (one byte consumed).
uint32_t NextCodePoint(std::string_view text, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(*i);
  int length = b0 >= 0xf0 && b0 <= 0xf4 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc2 && b0 < 0xe0 ? 2 : 0;
  if (length == 0 || *i + length > text.size()) {
    ++*i;
    return 0xfffd;
  }
  uint32_t cp = b0 & (0x7f >> length);
  for (int k = 1; k < length; ++k) {
    const unsigned char b = byte(*i + k);
    if ((b & 0xc0) != 0x80) {
      ++*i;
      return 0xfffd;
    }
    cp = (cp << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  const uint32_t min = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
  if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
    ++*i;
    return 0xfffd;
  }
  *i += length;
  return cp;
}

std::string Text(const Json& value) {
  return HtmlEscape(value.is_string() ? value.get<std::string>() : value.dump());
}

// The script's seconds(): rounded to the millisecond, "12.5 s".
std::string Seconds(const Json& t) {
  const double ms = std::round(t.get<double>() * 1000);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", ms / 1000);
  std::string s = buf;
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s + " s";
}

std::string Header(const Json& data) {
  const Json& v = data["verdict"];
  const int64_t hard = v["hard"], requeue = v["requeue"], soft = v["soft"];
  const bool fails = v["fails"];
  const std::string verdict = fails                       ? "diverges"
                              : hard + requeue + soft > 0 ? "equivalent (soft allowed)"
                                                          : "equivalent";
  std::string h = "<header>\n<h1>schedcheck report</h1>\n";
  h += "<p class=\"title\">" + Text(data["title"]) + "</p>\n";
  h += "<p><span class=\"verdict " + std::string(fails ? "fails" : "passes") +
       "\" id=\"verdict\">" + verdict + "</span> " + Text(v["podsCompared"]) + " pods compared; " +
       std::to_string(hard) + " hard, " + std::to_string(requeue) + " requeue, " +
       std::to_string(soft) + " soft divergence(s)" +
       (v["allowSoft"].get<bool>() ? " (soft allowed)" : "") + "</p>\n";
  h += "<p class=\"sides\"><span class=\"side-label\">reference: </span>" +
       Text(data["reference"]) + "<br><span class=\"side-label\">candidate: </span>" +
       Text(data["candidate"]) + "</p>\n";
  if (!data["notCompared"].empty()) {
    std::string list;
    for (const Json& item : data["notCompared"]) list += (list.empty() ? "" : "; ") + Text(item);
    h += "<p class=\"note\" id=\"not-compared\">Not compared (the capture does not carry it): " +
         list + "</p>\n";
  }
  return h + "</header>\n";
}

std::string Divergences(const Json& data) {
  const Json& all = data["divergences"];
  std::string s = "<section id=\"divergences\">\n<h2>Divergences</h2>\n";
  if (all.empty()) {
    return s + "<p class=\"intro\">None: the candidate decided as the reference did.</p>\n" +
           "</section>\n";
  }
  s += "<table class=\"divergence-table\">\n<thead><tr>";
  for (const char* h :
       {"t", "class", "pod", "attempt", "what", "reference", "candidate", "plugins"})
    s += std::string("<th>") + h + "</th>";
  s += "</tr></thead>\n<tbody>\n";
  size_t rows = 0;
  for (const Json& d : all) {
    if (rows++ == kStaticDivergenceRows) break;
    const std::string cls = Text(d["class"]);
    std::string plugins;
    for (const Json& p : d["plugins"]) plugins += (plugins.empty() ? "" : ", ") + Text(p);
    const int64_t attempt = d["attempt"];
    s += "<tr class=\"divergence " + cls + "\"><td class=\"num\">" + Seconds(d["t"]) +
         "</td><td><span class=\"badge " + cls + "\">" + cls + "</span></td><td class=\"pod\">" +
         Text(d["pod"]) + "</td><td class=\"num\">" +
         (attempt > 0 ? std::to_string(attempt) : "&#x2013;") + "</td><td>" + Text(d["what"]) +
         "</td><td>" + Text(d["reference"]) + "</td><td>" + Text(d["candidate"]) + "</td><td>" +
         plugins + "</td></tr>\n";
  }
  s += "</tbody>\n</table>\n";
  if (all.size() > kStaticDivergenceRows) {
    s += "<p class=\"note\">" + std::to_string(all.size() - kStaticDivergenceRows) +
         " more (the script lists them all)</p>\n";
  }
  const int64_t omitted = data["divergencesOmitted"];
  if (omitted > 0) {
    s += "<p class=\"note\">" + std::to_string(omitted) +
         " more not in this report (neither here nor in the timeline)</p>\n";
  }
  return s + "</section>\n";
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "&#x%X;", NextCodePoint(text, &i));
      out += buf;
      continue;
    }
    ++i;
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string StaticHtml(const nlohmann::ordered_json& data) {
  return Header(data) + Divergences(data);
}

}  // namespace schedcheck::report
