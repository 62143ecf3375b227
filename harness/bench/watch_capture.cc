#include "harness/bench/watch_capture.h"

#include <cstdio>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "reference/api/rfc3339.h"
#include "reference/k8s/k8s_json.h"

namespace schedcheck::bench {
namespace {

using nlohmann::json;

const char* TypeName(trace::EventType t) {
  switch (t) {
    case trace::ADDED:
      return "ADDED";
    case trace::MODIFIED:
      return "MODIFIED";
    case trace::DELETED:
      return "DELETED";
    default:
      return "MODIFIED";
  }
}

std::string Namespace(const std::string& key) { return key.substr(0, key.find('/')); }
std::string Name(const std::string& key) { return key.substr(key.find('/') + 1); }

class CaptureWriter {
 public:
  CaptureWriter(int64_t epoch_ns, std::ostream& out) : epoch_ns_(epoch_ns), out_(out) {}

  void Api(int64_t t, const trace::ApiEvent& e) {
    json object;
    if (e.has_pod()) {
      object = json::parse(k8s::ToJson(e.pod()));
      object["apiVersion"] = "v1";
      object["kind"] = "Pod";
      const std::string key = Key(object);
      if (e.type() == trace::DELETED) {
        auto bound = node_of_.find(key);
        if (bound != node_of_.end()) object["spec"]["nodeName"] = bound->second;
        object["metadata"]["deletionTimestamp"] = Time(t);
        node_of_.erase(key);
        last_pod_.erase(key);
        failures_.erase(key);
      } else {
        last_pod_[key] = object;
      }
    } else if (e.has_node()) {
      object = json::parse(k8s::ToJson(e.node()));
      object["apiVersion"] = "v1";
      object["kind"] = "Node";
    } else if (e.has_namespace_()) {
      object = json::parse(k8s::ToJson(e.namespace_()));
      object["apiVersion"] = "v1";
      object["kind"] = "Namespace";
    } else {
      return;  // the generated workloads have no other kinds
    }
    Stamp(e.type(), t, "kube-controller-manager", &object);
    Line(TypeName(e.type()), object);
  }

  void Decision(int64_t t, const trace::Record& r) {
    if (r.has_binding()) {
      const std::string& key = r.binding().pod();
      auto it = last_pod_.find(key);
      if (it == last_pod_.end()) return;
      json pod = it->second;
      pod["spec"]["nodeName"] = r.binding().node();
      pod["status"]["conditions"] = json::array(
          {{{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", Time(t)}}});
      Stamp(trace::MODIFIED, t, "kube-scheduler", &pod);
      node_of_[key] = r.binding().node();
      failures_.erase(key);
      ++counts_.bindings;
      Line("MODIFIED", pod);
    } else if (r.has_attempt() && r.attempt().result() == trace::UNSCHEDULABLE) {
      Failure(t, r.attempt());
    }
  }

  CaptureCounts counts() const { return counts_; }

 private:
  struct EventState {
    std::string name, message, first;
    int count = 0;
  };

  static std::string Key(const json& pod) {
    std::string ns = pod["metadata"].value("namespace", "");
    return (ns.empty() ? "default" : ns) + "/" + pod["metadata"].value("name", "");
  }

  std::string Time(int64_t t) const { return reference::FormatRfc3339(epoch_ns_ + t); }

  // The timestamp the importer reads for each kind of event (traces/importers/capture.h rule 2).
  void Stamp(trace::EventType type, int64_t t, const char* manager, json* object) const {
    if (type == trace::ADDED) {
      if (!(*object)["metadata"].contains("creationTimestamp"))
        (*object)["metadata"]["creationTimestamp"] = Time(t);
    } else if (type == trace::MODIFIED) {
      (*object)["metadata"]["managedFields"] =
          json::array({{{"manager", manager}, {"operation", "Update"}, {"time", Time(t)}}});
    } else if (type == trace::DELETED && !(*object)["metadata"].contains("deletionTimestamp")) {
      (*object)["metadata"]["deletionTimestamp"] = Time(t);
    }
  }

  void Failure(int64_t t, const trace::Attempt& a) {
    EventState& s = failures_[a.pod()];
    const bool repeat = s.count > 0 && s.message == a.message();
    if (!repeat) {
      s = {a.pod().substr(a.pod().find('/') + 1) + "." + std::to_string(++events_made_),
           a.message(), Time(t), 0};
    }
    ++s.count;
    json event = {{"apiVersion", "v1"},
                  {"kind", "Event"},
                  {"metadata", {{"name", s.name}, {"namespace", Namespace(a.pod())}}},
                  {"involvedObject",
                   {{"kind", "Pod"}, {"namespace", Namespace(a.pod())}, {"name", Name(a.pod())}}},
                  {"reason", "FailedScheduling"},
                  {"type", "Warning"},
                  {"message", a.message()},
                  {"source", {{"component", "default-scheduler"}}},
                  {"firstTimestamp", s.first},
                  {"lastTimestamp", Time(t)},
                  {"count", s.count}};
    ++counts_.failed_scheduling;
    Line(repeat ? "MODIFIED" : "ADDED", event);
  }

  void Line(const char* type, const json& object) {
    out_ << json{{"type", type}, {"object", object}}.dump() << '\n';
    ++counts_.lines;
  }

  int64_t epoch_ns_;
  std::ostream& out_;
  CaptureCounts counts_;
  std::map<std::string, json> last_pod_;        // pods alive, as last written
  std::map<std::string, std::string> node_of_;  // bound pods
  std::map<std::string, EventState> failures_;  // the pod's current FailedScheduling Event
  int64_t events_made_ = 0;
};

}  // namespace

Result<CaptureCounts> WriteWatchCapture(const trace::Trace& trace,
                                        const std::vector<trace::Record>& decisions,
                                        const std::string& path) {
  auto start = trace.header.labels().find("start_time");
  if (start == trace.header.labels().end()) return Error{"trace header: label start_time: missing"};
  auto epoch = reference::ParseRfc3339(start->second);
  if (!epoch.ok()) return Error{"trace header: label start_time: " + epoch.message()};
  const std::string tmp = path + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) return Error{tmp + ": cannot open for writing"};
  CaptureWriter writer(*epoch, out);
  // API events before the decisions of the same instant: a pod exists before it is bound.
  size_t d = 0;
  for (const trace::Record& r : trace.records) {
    for (; d < decisions.size() && decisions[d].time_ns() < r.time_ns(); ++d) {
      writer.Decision(decisions[d].time_ns(), decisions[d]);
    }
    if (r.has_api()) writer.Api(r.time_ns(), r.api());
  }
  for (; d < decisions.size(); ++d) writer.Decision(decisions[d].time_ns(), decisions[d]);
  out.close();
  if (!out) {
    std::remove(tmp.c_str());
    return Error{tmp + ": write failed"};
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Error{path + ": cannot rename " + tmp + " into place"};
  return writer.counts();
}

}  // namespace schedcheck::bench
