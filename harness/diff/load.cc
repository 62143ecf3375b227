#include "harness/diff/load.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/diff/bindings_check.h"
#include "harness/replay/decision_log.h"
#include "reference/k8s/k8s_json.h"
#include "traces/trace_file.h"

namespace schedcheck::diff {
namespace {

bool LooksLikeDecisionLog(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line[line.find_first_not_of(" \t\r")] != '{') return false;
    // Too deep to parse safely: a decision log's reader reports it (ParseDecisionJsonLine).
    if (k8s::JsonTooDeepAt(line) != std::string_view::npos) return true;
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    return j.is_object() && j.contains("t") && j.contains("type");
  }
  return true;  // empty: a log without decisions
}

// ParseDecisionLog, also giving each record's line number when `lines` is not null.
Result<std::vector<trace::Record>> ParseLines(const std::string& text, const std::string& source,
                                              const trace::InputLimits& limits,
                                              std::vector<int64_t>* lines) {
  std::vector<trace::Record> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = source + ":" + std::to_string(n);
    if (static_cast<int64_t>(out.size()) >= limits.records)
      return trace::TooManyRecords(where, limits.records);
    auto r = replay::ParseDecisionJsonLine(line, where);
    if (!r.ok()) return r.error();
    // Every writer appends decisions as they happen (the protocol checks a child's times too).
    if (!out.empty() && r->time_ns() < out.back().time_ns()) {
      return Error{where + ": field t: " + replay::FormatSeconds(r->time_ns()) +
                   " is before the previous line's " + replay::FormatSeconds(out.back().time_ns()) +
                   " (a decision log is in time order)"};
    }
    if (!trace::FitsTrivially(*r, line.size(), limits)) {
      if (Outcome ok = trace::CheckMessageLimits(*r, limits, where); !ok) return ok.error();
    }
    out.push_back(std::move(*r));
    if (lines != nullptr) lines->push_back(n);
  }
  return out;
}

// A binary decision trace of a replay whose scheduler process failed carries the label
// "incomplete" (the JSON Lines log ends with an "incomplete" line instead).
Outcome CheckComplete(const std::string& path, const trace::Header& header) {
  auto it = header.labels().find("incomplete");
  if (it == header.labels().end()) return Outcome::Ok();
  return Error{path + ": the decision log is incomplete (header label incomplete: " + it->second +
               "): the run did not finish, so its decisions are not compared"};
}

}  // namespace

Result<std::vector<trace::Record>> ParseDecisionLog(const std::string& text,
                                                    const std::string& source,
                                                    const trace::InputLimits& limits) {
  return ParseLines(text, source, limits, nullptr);
}

Result<std::vector<trace::Record>> LoadDecisions(const std::string& path,
                                                 const trace::InputLimits& limits,
                                                 std::string* level, trace::Header* header_out) {
  if (level != nullptr) level->clear();
  if (header_out != nullptr) header_out->Clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  if (!trace::IsBinaryTrace(path)) {
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      return Error{path + ": empty: neither a decision log nor a trace (no header, no record)"};
    }
    if (LooksLikeDecisionLog(text)) {
      std::vector<int64_t> lines;
      auto log = ParseLines(text, path, limits, &lines);
      if (!log.ok()) return log;
      Outcome ok =
          CheckBindings(*log, [&](size_t i) { return path + ":" + std::to_string(lines[i]); });
      if (!ok) return ok.error();
      return log;
    }
  }
  // A trace, read record by record: a capture's API events are dropped as they come.
  std::vector<trace::Record> out;
  std::vector<int64_t> positions;  // each kept record's 1-based position among the file's records
  int64_t position = 0;
  trace::Header header;
  Outcome ok = trace::StreamTrace(path, limits, &header, [&](trace::Record&& r) {
    ++position;
    if (!r.has_api()) {
      out.push_back(std::move(r));
      positions.push_back(position);
    }
    return Outcome::Ok();
  });
  if (!ok) return ok.error();
  if (ok = CheckComplete(path, header); !ok) return ok.error();
  ok = CheckBindings(out,
                     [&](size_t i) { return path + ": record " + std::to_string(positions[i]); });
  if (!ok) return ok.error();
  if (level != nullptr) *level = header.compat();
  if (header_out != nullptr) *header_out = header;
  return out;
}

}  // namespace schedcheck::diff
