#include "harness/diff/load.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

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

}  // namespace

Result<std::vector<trace::Record>> ParseDecisionLog(const std::string& text,
                                                    const std::string& source,
                                                    const trace::InputLimits& limits) {
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
    if (!trace::FitsTrivially(line.size(), limits)) {
      if (Outcome ok = trace::CheckMessageLimits(*r, limits, where); !ok) return ok.error();
    }
    out.push_back(std::move(*r));
  }
  return out;
}

Result<std::vector<trace::Record>> LoadDecisions(const std::string& path,
                                                 const trace::InputLimits& limits,
                                                 std::string* level) {
  if (level != nullptr) level->clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  if (!trace::IsBinaryTrace(path)) {
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      return Error{path + ": empty: neither a decision log nor a trace (no header, no record)"};
    }
    if (LooksLikeDecisionLog(text)) return ParseDecisionLog(text, path, limits);
  }
  // A trace, read record by record: a capture's API events are dropped as they come.
  std::vector<trace::Record> out;
  trace::Header header;
  Outcome ok = trace::StreamTrace(path, limits, &header, [&out](trace::Record&& r) {
    if (!r.has_api()) out.push_back(std::move(r));
    return Outcome::Ok();
  });
  if (!ok) return ok.error();
  if (level != nullptr) *level = header.compat();
  return out;
}

}  // namespace schedcheck::diff
