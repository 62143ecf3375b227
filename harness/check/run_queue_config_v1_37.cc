// queueConfig of `kind: queue` cases at compat "1.37" (docs/FORMATS.md, "Queue cases at compat
// 1.37"): the profile's fixed queueing hints and PreEnqueue plugins, and the {resource, action}
// events of the ops.
#include <set>
#include <utility>

#include "harness/check/run_queue_config.h"
#include "reference/k8s/json_number.h"
#include "reference/queue/scheduling_queue_v1_37.h"

namespace schedcheck::check {
namespace {

using json = nlohmann::json;
using reference::ClusterEvent;
using reference::QueuedPodInfo;

constexpr const char* kProfile = "default-scheduler";

Result<int64_t> Seconds(const json& config, const char* name, int64_t fallback_s) {
  if (!config.contains(name)) return fallback_s * kNanosPerSecond;
  return k8s::CheckedSecondsAsNanos(config[name], 0, kMaxQueueCaseSeconds, name);
}

}  // namespace

Result<ClusterEvent> ParseQueueEventV1_37(const json& v, const std::string& field) {
  if (!v.is_object()) return Error{field + ": expected {resource, action}"};
  for (const auto& [key, value] : v.items()) {
    if (key != "resource" && key != "action") return Error{field + "." + key + ": unknown field"};
  }
  if (!v.contains("resource") || !v["resource"].is_string() ||
      v["resource"].get<std::string>().empty()) {
    return Error{field + ".resource: missing or not a non-empty string"};
  }
  if (!v.contains("action") || !v["action"].is_string()) {
    return Error{field + ".action: missing or not a string"};
  }
  ClusterEvent event{v["resource"].get<std::string>(), 0, ""};
  const std::string action = v["action"].get<std::string>();
  for (size_t start = 0; start <= action.size();) {
    size_t bar = action.find('|', start);
    std::string name = action.substr(start, bar == std::string::npos ? bar : bar - start);
    uint32_t bits = reference::ParseActionNameV1_37(name);
    if (bits == 0) return Error{field + ".action: unknown action \"" + name + "\""};
    event.action |= bits;
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  if (event.resource == reference::resource::kWildCard) {
    if (event.action != reference::action::kAllV1_37) {
      return Error{field + ": the wildcard resource \"*\" goes with action All only"};
    }
    event = reference::event_v1_37::UnschedulableTimeout();
  }
  return event;
}

namespace {

Result<reference::QueueingHintFn> FixedHint(const json& v, const std::string& field) {
  const std::string hint = v.is_string() ? v.get<std::string>() : "";
  if (hint == "Queue") {
    return reference::QueueingHintFn(
        [](const reference::Pod&,
           const reference::EventObjects&) -> Result<reference::QueueingHint> {
          return reference::QueueingHint::kQueue;
        });
  }
  if (hint == "QueueSkip") {
    return reference::QueueingHintFn(
        [](const reference::Pod&,
           const reference::EventObjects&) -> Result<reference::QueueingHint> {
          return reference::QueueingHint::kQueueSkip;
        });
  }
  if (hint == "Error") {
    return reference::QueueingHintFn(
        [](const reference::Pod&,
           const reference::EventObjects&) -> Result<reference::QueueingHint> {
          return Error{"hint error"};
        });
  }
  return Error{field + ": expected Queue, QueueSkip or Error"};
}

// upstream's SchedulingGates.PreEnqueue.
reference::Status SchedulingGatesPreEnqueue(const reference::Pod& pod) {
  if (pod.obj.spec().scheduling_gates_size() == 0) return reference::Status();
  std::string gates = "[";
  for (int i = 0; i < pod.obj.spec().scheduling_gates_size(); ++i) {
    gates += (i ? " " : "") + pod.obj.spec().scheduling_gates(i).name();
  }
  return reference::Status(reference::Code::kUnschedulableAndUnresolvable,
                           "waiting for scheduling gates: " + gates + "]");
}

}  // namespace

Result<QueueCaseConfigV1_37> ParseQueueCaseConfigV1_37(const json& config) {
  QueueCaseConfigV1_37 out;
  if (!config.is_null() && !config.is_object()) return Error{"expected an object"};
  const json cfg = config.is_null() ? json::object() : config;
  static const std::set<std::string> kFields = {"podInitialBackoffSeconds", "podMaxBackoffSeconds",
                                                "podMaxInUnschedulablePodsDurationSeconds",
                                                "queueingHints", "preEnqueue"};
  for (const auto& [key, value] : cfg.items()) {
    if (!kFields.count(key)) return Error{key + ": not a queueConfig field at compat 1.37"};
  }
  auto initial = Seconds(cfg, "podInitialBackoffSeconds", 1);
  auto max = Seconds(cfg, "podMaxBackoffSeconds", 10);
  auto leftover = Seconds(cfg, "podMaxInUnschedulablePodsDurationSeconds", 300);
  for (const auto* r : {&initial, &max, &leftover}) {
    if (!r->ok()) return r->error();
  }
  out.options.initial_backoff_ns = *initial;
  out.options.max_backoff_ns = *max;
  out.options.max_in_unschedulable_ns = *leftover;
  out.setup.less = [](const QueuedPodInfo& a, const QueuedPodInfo& b) {
    // PrioritySort.Less.
    if (a.pod().priority != b.pod().priority) return a.pod().priority > b.pod().priority;
    return a.timestamp_ns < b.timestamp_ns;
  };
  reference::QueueProfile& profile = out.setup.profiles[kProfile];
  out.setup.profile_order.push_back(kProfile);
  const json hints = cfg.value("queueingHints", json::array());
  if (!hints.is_array()) return Error{"queueingHints: expected a list"};
  for (size_t i = 0; i < hints.size(); ++i) {
    const std::string at = "queueingHints[" + std::to_string(i) + "]";
    const json& h = hints[i];
    if (!h.is_object()) return Error{at + ": expected {event, plugin, hint}"};
    for (const auto& [key, value] : h.items()) {
      if (key != "event" && key != "plugin" && key != "hint") {
        return Error{at + "." + key + ": unknown field"};
      }
    }
    auto event = ParseQueueEventV1_37(h.value("event", json()), at + ".event");
    if (!event.ok()) return event.error();
    if (!h.contains("plugin") || !h["plugin"].is_string()) {
      return Error{at + ".plugin: missing or not a string"};
    }
    auto fn = FixedHint(h.value("hint", json()), at + ".hint");
    if (!fn.ok()) return fn.error();
    profile.hints.Add(*event, {h["plugin"].get<std::string>(), *fn});
  }
  const json pre = cfg.value("preEnqueue", json::array());
  if (!pre.is_array()) return Error{"preEnqueue: expected a list"};
  for (const json& name : pre) {
    if (!name.is_string() || name.get<std::string>() != "SchedulingGates") {
      return Error{"preEnqueue: only SchedulingGates is supported"};
    }
    profile.pre_enqueue.push_back({"SchedulingGates", SchedulingGatesPreEnqueue});
  }
  return out;
}

}  // namespace schedcheck::check
