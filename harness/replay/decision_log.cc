#include "harness/replay/decision_log.h"

#include <limits>

#include <nlohmann/json.hpp>

#include "harness/replay/scores_json.h"
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
      if (a.scores_size() > 0) j["scores"] = ScoresJson(a);
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
  } else if (record.has_nomination()) {
    j["type"] = "nominate";
    j["pod"] = record.nomination().pod();
    j["node"] = record.nomination().node();
    if (record.nomination().observed()) j["observed"] = true;
  } else if (record.has_preemption()) {
    j["type"] = "preempt";
    j["pod"] = record.preemption().victim();
    j["preemptor"] = record.preemption().preemptor();
    j["node"] = record.preemption().node();
    if (record.preemption().observed()) j["observed"] = true;
  } else {
    j["type"] = "api";
  }
  return LineWithTime(record.time_ns(), j);
}

namespace {

// The JSON text of `j[name]`, or "nothing" when the line has no such field (for messages).
std::string Got(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) return "nothing";
  return j[name].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool IsQueueState(const std::string& s) {
  for (const char* state : {"none", "active", "backoff", "unschedulable", "inflight", "gone"}) {
    if (s == state) return true;
  }
  return false;
}

}  // namespace

// Accepts exactly what DecisionJsonLine (and an external scheduler's log, harness/protocol) can
// write: t >= 0, a pod key, attempt >= 1, a node for Scheduled and bind, the queue states of
// docs/FORMATS.md, strings and lists of strings where the format has them. Optional fields may be
// absent; unknown fields are ignored (a later version may add some, as it added "incomplete").
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
  if (!j.is_object()) return Error{where + ": expected an object"};
  auto bad = [&](const char* name, const std::string& want) {
    return Error{where + ": field " + name + ": expected " + want + ", got " + Got(j, name)};
  };
  if (!j.contains("t") || !j["t"].is_number())
    return bad("t", "seconds since the trace start (a number >= 0)");
  if (!j.contains("type") || !j["type"].is_string()) return bad("type", "a string");
  // Parse t from its text to keep nanosecond precision.
  double seconds = j["t"].get<double>();
  if (!(seconds >= 0)) return bad("t", "seconds since the trace start (a number >= 0)");
  // int64 nanoseconds hold about 292 years; a replay spans at most 100 (kMaxTraceSpanNs), and
  // converting anything beyond (1e300, inf) to an integer is undefined.
  if (!(seconds <= 1e10)) {
    return Error{where + ": field t: " + Got(j, "t") + " seconds is out of range (at most 1e10)"};
  }
  trace::Record r;
  r.set_time_ns(static_cast<int64_t>(seconds * 1e9 + 0.5));
  std::string type = j["type"];
  auto str = [&](const char* name) {
    return j.contains(name) && j[name].is_string() ? j[name].get<std::string>() : "";
  };
  if (type ==
      "incomplete") {  // the last line of a log whose scheduler process failed (PROTOCOL.md)
    return Error{where + ": the decision log is incomplete (" + str("reason") +
                 "): the run did not finish, so its decisions are not compared"};
  }
  if (type != "attempt" && type != "queue" && type != "bind" && type != "nominate" &&
      type != "preempt") {
    return Error{where + ": field type: want attempt, queue, bind, nominate or preempt, got \"" +
                 type + "\""};
  }
  if (str("pod").empty()) return bad("pod", "a non-empty string (namespace/name)");
  // Optional fields, when present, have the writer's types.
  for (const char* name : {"node", "message", "nominatedNode", "preemptor"}) {
    if (j.contains(name) && !j[name].is_string()) return bad(name, "a string");
  }
  for (const char* name : {"ties", "unschedulablePlugins", "victims"}) {
    if (!j.contains(name)) continue;
    bool strings = j[name].is_array();
    for (const auto& s : j[name]) strings = strings && s.is_string();
    if (!strings) return bad(name, "a list of strings");
  }
  if (j.contains("observed") && !j["observed"].is_boolean())
    return bad("observed", "true or false");
  auto list = [&](const char* name) {
    return j.contains(name) ? j[name].get<std::vector<std::string>>() : std::vector<std::string>{};
  };
  if (type == "attempt") {
    auto* a = r.mutable_attempt();
    a->set_pod(str("pod"));
    // Counted from 1 for a pod's first pop (int32 in trace.proto).
    // (nlohmann reads every integer >= 0 as unsigned, and every negative one as signed.)
    if (!j.contains("attempt") || !j["attempt"].is_number_unsigned() ||
        j["attempt"].get<uint64_t>() < 1) {
      return bad("attempt", "an integer >= 1");
    }
    constexpr int32_t kMaxAttempt = std::numeric_limits<int32_t>::max();
    if (j["attempt"].get<uint64_t>() > static_cast<uint64_t>(kMaxAttempt))
      return bad("attempt", "an integer >= 1 and at most " + std::to_string(kMaxAttempt));
    a->set_attempt(j["attempt"].get<int32_t>());
    std::string result = str("result");
    if (result == "Scheduled") {
      a->set_result(trace::SCHEDULED);
      if (str("node").empty())
        return bad("node", "a non-empty string (a Scheduled attempt names its node)");
    } else if (result == "Unschedulable") {
      a->set_result(trace::UNSCHEDULABLE);
    } else if (result == "Error") {
      a->set_result(trace::ERROR);
    } else {
      return Error{where + ": field result: want Scheduled, Unschedulable or Error, got " +
                   Got(j, "result")};
    }
    a->set_node(str("node"));
    for (const auto& s : list("ties")) a->add_ties(s);
    for (const auto& s : list("unschedulablePlugins")) a->add_unschedulable_plugins(s);
    a->set_message(str("message"));
    a->set_nominated_node(str("nominatedNode"));
    for (const auto& s : list("victims")) a->add_victims(s);
    a->set_observed(j.value("observed", false));
    if (j.contains("scores")) {
      if (Outcome ok = ParseScoresJson(j["scores"], where, a); !ok) return ok.error();
    }
  } else if (type == "queue") {
    for (const char* name : {"from", "to"}) {
      if (!IsQueueState(str(name)))
        return bad(name, "one of none, active, backoff, unschedulable, inflight, gone");
    }
    if (str("cause").empty()) return bad("cause", "a non-empty string");
    auto* q = r.mutable_queue();
    q->set_pod(str("pod"));
    q->set_from(str("from"));
    q->set_to(str("to"));
    q->set_cause(str("cause"));
  } else if (type == "nominate") {  // observed in a capture; node "" = cleared
    r.mutable_nomination()->set_pod(str("pod"));
    r.mutable_nomination()->set_node(str("node"));
    r.mutable_nomination()->set_observed(j.value("observed", false));
  } else if (type == "preempt") {  // observed in a capture: "pod" is the victim
    r.mutable_preemption()->set_victim(str("pod"));
    r.mutable_preemption()->set_preemptor(str("preemptor"));
    r.mutable_preemption()->set_node(str("node"));
    r.mutable_preemption()->set_observed(j.value("observed", false));
  } else {
    if (str("node").empty()) return bad("node", "a non-empty string");
    r.mutable_binding()->set_pod(str("pod"));
    r.mutable_binding()->set_node(str("node"));
    r.mutable_binding()->set_observed(j.value("observed", false));
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
