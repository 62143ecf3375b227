#include "harness/replay/decision_log.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "reference/k8s/k8s_json.h"
#include "traces/atomic_file.h"
#include "traces/trace_writer.h"

namespace schedcheck::replay {
namespace {

using nlohmann::ordered_json;

const char* ResultName(trace::AttemptResult r) {
  switch (r) {
    case trace::SCHEDULED:
      return "Scheduled";
    case trace::UNSCHEDULABLE:
      return "Unschedulable";
    case trace::ERROR:
      return "Error";
    default:
      return "Unknown";
  }
}

// The JSON number written verbatim (nlohmann would print doubles with rounding noise).
std::string LineWithTime(int64_t t_ns, ordered_json rest) {
  std::string body = rest.dump();
  return "{\"t\":" + FormatSeconds(t_ns) + (body.size() > 2 ? "," + body.substr(1) : "}");
}

}  // namespace

std::string FormatSeconds(int64_t t_ns) {
  bool negative = t_ns < 0;
  uint64_t abs = negative ? static_cast<uint64_t>(-t_ns) : static_cast<uint64_t>(t_ns);
  std::string out = (negative ? "-" : "") + std::to_string(abs / 1000000000);
  uint64_t frac = abs % 1000000000;
  if (frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

void DecisionLog::AddQueue(int64_t t_ns, const std::string& pod, std::string_view from,
                           std::string_view to, std::string_view cause) {
  trace::Record r;
  r.set_time_ns(t_ns);
  auto* q = r.mutable_queue();
  q->set_pod(pod);
  q->set_from(std::string(from));
  q->set_to(std::string(to));
  q->set_cause(std::string(cause));
  Add(std::move(r));
}

void DecisionLog::AddBinding(int64_t t_ns, const std::string& pod, const std::string& node) {
  trace::Record r;
  r.set_time_ns(t_ns);
  r.mutable_binding()->set_pod(pod);
  r.mutable_binding()->set_node(node);
  Add(std::move(r));
}

std::string DecisionJsonLine(const trace::Record& record) {
  ordered_json j;
  if (record.has_attempt()) {
    const trace::Attempt& a = record.attempt();
    j["type"] = "attempt";
    j["pod"] = a.pod();
    j["attempt"] = a.attempt();
    j["result"] = ResultName(a.result());
    if (a.result() == trace::SCHEDULED) {
      j["node"] = a.node();
      j["ties"] = std::vector<std::string>(a.ties().begin(), a.ties().end());
    } else {
      j["unschedulablePlugins"] = std::vector<std::string>(a.unschedulable_plugins().begin(),
                                                           a.unschedulable_plugins().end());
      j["message"] = a.message();
    }
    if (!a.nominated_node().empty()) j["nominatedNode"] = a.nominated_node();
    if (a.victims_size() > 0)
      j["victims"] = std::vector<std::string>(a.victims().begin(), a.victims().end());
    if (a.observed()) j["observed"] = true;
  } else if (record.has_queue()) {
    j["type"] = "queue";
    j["pod"] = record.queue().pod();
    j["from"] = record.queue().from();
    j["to"] = record.queue().to();
    j["cause"] = record.queue().cause();
  } else if (record.has_binding()) {
    j["type"] = "bind";
    j["pod"] = record.binding().pod();
    j["node"] = record.binding().node();
    if (record.binding().observed()) j["observed"] = true;
  } else {
    j["type"] = "api";
  }
  return LineWithTime(record.time_ns(), j);
}

Result<trace::Record> ParseDecisionJsonLine(const std::string& line, const std::string& where) {
  if (size_t at = k8s::JsonTooDeepAt(line); at != std::string_view::npos)
    return k8s::JsonTooDeep(where, at);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{where + ": byte " + std::to_string(e.byte) + ": JSON: " + e.what()};
  } catch (const nlohmann::json::exception& e) {  // out_of_range: a number beyond double (1e999)
    return Error{where + ": JSON: " + e.what()};
  }
  auto field = [&](const char* name) -> std::string { return where + ": field " + name; };
  if (!j.is_object()) return Error{where + ": expected an object"};
  if (!j.contains("t") || !j["t"].is_number())
    return Error{field("t") + ": expected seconds as a number"};
  if (!j.contains("type") || !j["type"].is_string()) return Error{field("type") + ": missing"};
  auto str = [&](const char* name) {
    return j.contains(name) && j[name].is_string() ? j[name].get<std::string>() : "";
  };
  auto list = [&](const char* name) {
    std::vector<std::string> out;
    if (j.contains(name) && j[name].is_array()) {
      for (const auto& s : j[name]) out.push_back(s.is_string() ? s.get<std::string>() : s.dump());
    }
    return out;
  };
  trace::Record r;
  // Parse t from its text to keep nanosecond precision.
  double seconds = j["t"].get<double>();
  // int64 nanoseconds hold about 292 years; a replay spans at most 100 (kMaxTraceSpanNs), and
  // converting anything beyond (1e300, inf) to an integer is undefined.
  if (!(std::fabs(seconds) <= 1e10)) {
    return Error{field("t") + ": " + j["t"].dump() + " seconds is out of range (at most 1e10)"};
  }
  r.set_time_ns(static_cast<int64_t>(seconds * 1e9 + (seconds >= 0 ? 0.5 : -0.5)));
  std::string type = j["type"];
  if (type ==
      "incomplete") {  // the last line of a log whose scheduler process failed (PROTOCOL.md)
    return Error{where + ": the decision log is incomplete (" + str("reason") +
                 "): the run did not finish, so its decisions are not compared"};
  }
  if (str("pod").empty()) return Error{field("pod") + ": missing"};
  if (type == "attempt") {
    auto* a = r.mutable_attempt();
    a->set_pod(str("pod"));
    if (!j.contains("attempt") || !j["attempt"].is_number_integer())
      return Error{field("attempt") + ": expected an integer"};
    a->set_attempt(j["attempt"].get<int32_t>());
    std::string result = str("result");
    if (result == "Scheduled") {
      a->set_result(trace::SCHEDULED);
    } else if (result == "Unschedulable") {
      a->set_result(trace::UNSCHEDULABLE);
    } else if (result == "Error") {
      a->set_result(trace::ERROR);
    } else {
      return Error{field("result") + ": want Scheduled, Unschedulable or Error, got \"" + result +
                   "\""};
    }
    a->set_node(str("node"));
    for (const auto& s : list("ties")) a->add_ties(s);
    for (const auto& s : list("unschedulablePlugins")) a->add_unschedulable_plugins(s);
    a->set_message(str("message"));
    a->set_nominated_node(str("nominatedNode"));
    for (const auto& s : list("victims")) a->add_victims(s);
    a->set_observed(j.value("observed", false));
  } else if (type == "queue") {
    auto* q = r.mutable_queue();
    q->set_pod(str("pod"));
    q->set_from(str("from"));
    q->set_to(str("to"));
    q->set_cause(str("cause"));
  } else if (type == "bind") {
    r.mutable_binding()->set_pod(str("pod"));
    r.mutable_binding()->set_node(str("node"));
    r.mutable_binding()->set_observed(j.value("observed", false));
  } else {
    return Error{field("type") + ": want attempt, queue or bind, got \"" + type + "\""};
  }
  return r;
}

std::string DecisionLog::ToJsonLines() const {
  std::string out;
  for (const trace::Record& r : records_) {
    if (r.has_api()) continue;
    out += DecisionJsonLine(r);
    out += '\n';
  }
  return out;
}

Outcome DecisionLog::WriteJsonLines(const std::string& path) const {
  return trace::WriteFileAtomically(path, ToJsonLines());
}

Outcome DecisionLog::WriteTrace(const std::string& path, const trace::Header& header) const {
  auto writer = trace::TraceWriter::Open(path, header);
  if (!writer.ok()) return writer.error();
  for (const trace::Record& r : records_) {
    if (Outcome ok = (*writer)->Append(r); !ok) return ok;
  }
  return (*writer)->Finish();
}

}  // namespace schedcheck::replay
