#include "harness/diff/report.h"

#include <set>

#include "harness/replay/decision_log.h"

namespace schedcheck::diff {
namespace {

constexpr DivergenceClass kClasses[] = {DivergenceClass::kHard, DivergenceClass::kRequeue,
                                        DivergenceClass::kSoft};

size_t PodsAffected(const DiffResult& r, DivergenceClass c) {
  std::set<std::string> pods;
  for (const Divergence& d : r.divergences) {
    if (d.cls == c) pods.insert(d.pod);
  }
  return pods.size();
}

const Divergence* FirstFailing(const NamedDiff& d, const ReportOptions& o) {
  for (const Divergence& x : d.result.divergences) {
    if (x.cls != DivergenceClass::kSoft || !o.allow_soft) return &x;
  }
  return nullptr;
}

std::string MdCell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// The score comparison's lines (empty when nothing was compared): a summary, then each drift.
std::string ScoreLines(const NamedDiff& d, const ReportOptions& o) {
  const ScoreDriftResult& s = d.scores;
  if (s.attempts_compared == 0 && s.drifts.empty()) return "";
  std::string out = "score drift: " + std::to_string(s.drifts.size()) + " pods (" +
                    std::to_string(s.attempts_compared) + " scheduled attempts compared" +
                    (s.drifts.empty()      ? ""
                     : o.score_drift_fails ? "; fails: --scores=fail"
                                           : "; reported only: --scores=report") +
                    ")\n";
  size_t listed = 0;
  for (const ScoreDrift& x : s.drifts) {
    if (listed++ == o.max_listed) {
      out += "  ... " + std::to_string(s.drifts.size() - o.max_listed) + " more (see --json)\n";
      break;
    }
    out += "  " + DescribeDrift(x, o.sides.a, o.sides.b) + "\n";
  }
  return out;
}

bool DriftFails(const NamedDiff& d, const ReportOptions& o) {
  return o.score_drift_fails && !d.scores.drifts.empty();
}

}  // namespace

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
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
      default:
        // Control characters other than tab and newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string ScoreDriftText(const NamedDiff& d, const ReportOptions& o) { return ScoreLines(d, o); }

bool Failed(const NamedDiff& d, const ReportOptions& o) {
  return !d.error.empty() || d.result.Fails(o.allow_soft) || DriftFails(d, o);
}

std::string TextReport(const NamedDiff& d, const ReportOptions& o) {
  if (!d.error.empty()) return d.name + ": ERROR " + d.error + "\n";
  std::string out;
  const DiffResult& r = d.result;
  std::string not_compared;
  for (const std::string& what : r.not_compared) not_compared += "  not compared: " + what + "\n";
  if (r.divergences.empty()) {
    out += d.name + ": equivalent (" + std::to_string(r.pods_compared) + " pods compared)\n" +
           not_compared + ScoreLines(d, o);
    if (DriftFails(d, o)) out += "DIVERGENT (score drift)\n";
    return out;
  }
  out += "first divergence: " + Describe(r.divergences.front(), o.sides) + "\n";
  if (!d.explanation.empty()) out += d.explanation;
  out += "\nclass     divergences  pods\n";
  for (DivergenceClass c : kClasses) {
    std::string name(ClassName(c));
    name.resize(10, ' ');
    std::string count = std::to_string(r.Count(c));
    count.resize(13, ' ');
    out += name + count + std::to_string(PodsAffected(r, c)) + "\n";
  }
  out += "(" + std::to_string(r.pods_compared) + " pods compared)\n" + not_compared;
  size_t listed = 0;
  for (const Divergence& x : r.divergences) {
    if (listed++ == o.max_listed) {
      out +=
          "  ... " + std::to_string(r.divergences.size() - o.max_listed) + " more (see --json)\n";
      break;
    }
    out += "  " + Describe(x, o.sides) + "\n";
  }
  out += ScoreLines(d, o);
  out += Failed(d, o) ? "DIVERGENT\n"
                      : "EQUIVALENT (soft divergences only, allowed by --allow-soft)\n";
  return out;
}

nlohmann::ordered_json JsonReport(const std::vector<NamedDiff>& diffs, const ReportOptions& o) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const NamedDiff& d : diffs) {
    nlohmann::ordered_json j;
    j["name"] = d.name;
    j["failed"] = Failed(d, o);
    if (!d.error.empty()) j["error"] = d.error;
    j["podsCompared"] = d.result.pods_compared;
    if (!d.result.not_compared.empty()) j["notCompared"] = d.result.not_compared;
    for (DivergenceClass c : kClasses) {
      j["counts"][std::string(ClassName(c))] = {{"divergences", d.result.Count(c)},
                                                {"pods", PodsAffected(d.result, c)}};
    }
    j["divergences"] = nlohmann::ordered_json::array();
    for (const Divergence& x : d.result.divergences) {
      nlohmann::ordered_json e;
      e["class"] = std::string(ClassName(x.cls));
      e["pod"] = x.pod;
      e["t"] = nlohmann::ordered_json::parse(replay::FormatSeconds(x.t_ns));
      e["attempt"] = x.attempt;
      e["what"] = x.what;
      e["reference"] = x.reference;
      e["candidate"] = x.candidate;
      e["plugins"] = x.plugins;
      j["divergences"].push_back(e);
    }
    if (!d.explanation.empty()) j["explanation"] = d.explanation;
    if (d.scores.attempts_compared > 0 || !d.scores.drifts.empty()) {
      nlohmann::ordered_json sj;
      sj["attemptsCompared"] = d.scores.attempts_compared;
      sj["fails"] = o.score_drift_fails;
      sj["drifts"] = nlohmann::ordered_json::array();
      for (const ScoreDrift& x : d.scores.drifts) {
        nlohmann::ordered_json e;
        e["pod"] = x.pod;
        e["t"] = nlohmann::ordered_json::parse(replay::FormatSeconds(x.t_ns));
        e["attempt"] = x.attempt;
        e["what"] = x.what;
        if (!x.node.empty()) {
          e["node"] = x.node;
          e["referenceTotal"] = x.reference_total;
          e["candidateTotal"] = x.candidate_total;
        }
        e["plugins"] = x.plugins;
        e["reference"] = x.reference;
        e["candidate"] = x.candidate;
        sj["drifts"].push_back(e);
      }
      j["scoreDrift"] = sj;
    }
    out.push_back(j);
  }
  return out;
}

std::string JUnitReport(const std::vector<NamedDiff>& diffs, const std::string& suite,
                        const ReportOptions& o) {
  size_t failures = 0;
  for (const NamedDiff& d : diffs) failures += Failed(d, o) ? 1 : 0;
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"" +
      XmlEscape(suite) + "\" tests=\"" + std::to_string(diffs.size()) + "\" failures=\"" +
      std::to_string(failures) + "\">\n";
  for (const NamedDiff& d : diffs) {
    out += "    <testcase classname=\"" + XmlEscape(suite) + "\" name=\"" + XmlEscape(d.name) +
           "\">\n";
    if (Failed(d, o)) {
      const Divergence* first = FirstFailing(d, o);
      std::string message = first ? Describe(*first, o.sides)
                            : DriftFails(d, o)
                                ? DescribeDrift(d.scores.drifts.front(), o.sides.a, o.sides.b)
                                : d.error;
      out += "      <failure message=\"" + XmlEscape(message) + "\">" +
             XmlEscape(TextReport(d, o)) + "</failure>\n";
    } else if (!d.result.divergences.empty() || !d.scores.drifts.empty()) {
      out += "      <system-out>" + XmlEscape(TextReport(d, o)) + "</system-out>\n";
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

std::string MarkdownReport(const std::vector<NamedDiff>& diffs, const std::string& title,
                           const ReportOptions& o) {
  std::string out = "# " + title +
                    "\n\n| trace | result | hard | requeue | soft | first divergence "
                    "|\n|---|---|---|---|---|---|\n";
  size_t failures = 0;
  for (const NamedDiff& d : diffs) {
    const bool failed = Failed(d, o);
    failures += failed ? 1 : 0;
    std::string first =
        !d.error.empty()                ? d.error
        : !d.result.divergences.empty() ? Describe(d.result.divergences.front(), o.sides)
        : !d.scores.drifts.empty() ? DescribeDrift(d.scores.drifts.front(), o.sides.a, o.sides.b)
                                   : "";
    out += "| " + MdCell(d.name) + " | " + (failed ? "**FAIL**" : "pass") + " | " +
           std::to_string(d.result.Count(DivergenceClass::kHard)) + " | " +
           std::to_string(d.result.Count(DivergenceClass::kRequeue)) + " | " +
           std::to_string(d.result.Count(DivergenceClass::kSoft)) + " | " + MdCell(first) + " |\n";
  }
  out += "\n" + std::to_string(diffs.size() - failures) + " of " + std::to_string(diffs.size()) +
         " passed";
  out +=
      o.allow_soft ? " (soft divergences allowed: --allow-soft)\n" : " (soft divergences fail)\n";
  for (const NamedDiff& d : diffs) {
    if (d.result.divergences.empty() && d.scores.drifts.empty()) continue;
    out += "\n## " + d.name + "\n\n```\n" + TextReport(d, o) + "```\n";
  }
  return out;
}

}  // namespace schedcheck::diff
