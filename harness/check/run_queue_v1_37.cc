// `kind: queue` cases at compat "1.37": a SchedulingQueueV1_37 with the case's hint map, driven
// by the ops list.
#include "harness/check/run_queue_v1_37.h"

#include <map>
#include <memory>
#include <set>
#include <utility>

#include "harness/check/queue_op_fields.h"
#include "harness/check/run_queue_config.h"
#include "reference/k8s/json_number.h"
#include "reference/k8s/k8s_json.h"
#include "reference/queue/scheduling_queue_v1_37.h"

namespace schedcheck::check {
namespace {

using json = nlohmann::json;
using reference::ClusterEvent;
using reference::PodPtr;
using reference::QueuedPodInfo;
using Verdict = CaseResult::Verdict;

// Unix time of the case's virtual t = 0 (a whole second, as casecheck's fake clock).
constexpr int64_t kEpochNs = 1'700'000'000LL * kNanosPerSecond;
constexpr const char* kProfile = "default-scheduler";

std::string Join(const std::set<std::string>& v) {
  std::string out = "[";
  for (const std::string& s : v) out += (out.size() > 1 ? ", " : "") + s;
  return out + "]";
}

Result<int64_t> Seconds(const json& config, const char* name, int64_t fallback_s) {
  if (!config.contains(name)) return fallback_s * kNanosPerSecond;
  return k8s::CheckedSecondsAsNanos(config[name], 0, kMaxQueueCaseSeconds, name);
}

// {resource, action}: any resource name; the action one v1.37 ActionType name or several
// joined by '|'.
Result<ClusterEvent> ParseEvent(const json& v, const std::string& field) {
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

struct ConfigV1_37 {
  reference::QueueOptions options;
  reference::QueueSetupV1_37 setup;
};

Result<ConfigV1_37> ParseConfig(const json& config) {
  ConfigV1_37 out;
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
  reference::QueueProfileV1_37& profile = out.setup.profiles[kProfile];
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
    auto event = ParseEvent(h.value("event", json()), at + ".event");
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

class QueueCaseRunnerV1_37 {
 public:
  explicit QueueCaseRunnerV1_37(ConfigV1_37 config)
      : queue_(config.options, clock_, std::move(config.setup), kEpochNs) {}

  Result<std::string> Run(const json& ops) {
    return RunQueueOps(
        ops, [this](const std::string& name, const OpFields& op) { return RunOp(name, op); });
  }

 private:
  Result<std::string> RunOp(const std::string& name, const OpFields& op);
  Result<std::string> Pop(const OpFields& op);
  Result<std::string> ExpectQueues(const OpFields& op) const;

  // A pod given inline (its latest version from now on; UID "<ns>/<name>" when it has none) or
  // as "ns/name".
  Result<PodPtr> PodArg(const OpFields& op, const char* name) {
    if (!op.Has(name)) return Error{op.Field(name) + ": missing"};
    const json& v = op[name];
    if (v.is_string()) {
      auto it = pods_.find(v.get<std::string>());
      if (it == pods_.end()) return Error{op.Field(name) + ": unknown pod " + v.get<std::string>()};
      return it->second;
    }
    auto obj = k8s::PodFromJson(v, op.Field(name));
    if (!obj.ok()) return obj.error();
    k8s::ObjectMeta* meta = obj->mutable_metadata();
    if (meta->namespace_().empty()) meta->set_namespace_("default");
    if (meta->uid().empty()) meta->set_uid(meta->namespace_() + "/" + meta->name());
    auto pod = reference::BuildPod(*obj, reference::FeaturesFor(reference::CompatLevel::kV1_37));
    if (!pod.ok()) return Error{op.Field(name) + ": " + pod.message()};
    return *pod;
  }
  Result<std::set<std::string>> Names(const OpFields& op, const char* name) const {
    auto names = op.Strings(name);
    if (!names.ok()) return names.error();
    return std::set<std::string>(names->begin(), names->end());
  }

  VirtualClock clock_;
  reference::SchedulingQueueV1_37 queue_;
  std::map<std::string, PodPtr> pods_;           // latest object per key
  std::map<std::string, QueuedPodInfo> popped_;  // in flight, by key
};

Result<std::string> QueueCaseRunnerV1_37::RunOp(const std::string& name, const OpFields& op) {
  if (name == "add" || name == "update") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    if (!op["pod"].is_object()) return Error{op.Field("pod") + ": expected the pod inline"};
    auto old = pods_.find((*pod)->key);
    if (name == "update" && old == pods_.end()) {
      return Error{op.Field("pod") + ": update of a pod never added: " + (*pod)->key};
    }
    PodPtr old_pod = name == "update" ? old->second : nullptr;
    pods_[(*pod)->key] = *pod;
    if (name == "add") {
      queue_.Add(*pod);
    } else {
      queue_.Update(old_pod, *pod);
    }
  } else if (name == "delete") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_.Delete(**pod);
    popped_.erase((*pod)->key);  // the scheduler only calls Done for a deleted pod
  } else if (name == "pop") {
    return Pop(op);
  } else if (name == "failed") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto plugins = Names(op, "plugins");
    if (!plugins.ok()) return plugins.error();
    auto pending = Names(op, "pendingPlugins");
    if (!pending.ok()) return pending.error();
    auto it = popped_.find((*pod)->key);
    if (it == popped_.end()) return Error{"pod " + (*pod)->key + " was not popped"};
    QueuedPodInfo info = std::move(it->second);
    popped_.erase(it);
    info.unschedulable_plugins = *plugins;
    info.pending_plugins = *pending;
    if (Outcome ok = queue_.AddUnschedulableIfNotPresent(info, queue_.SchedulingCycle()); !ok) {
      return "AddUnschedulablePodIfNotPresent failed: " + ok.message();
    }
  } else if (name == "done") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    popped_.erase((*pod)->key);
    queue_.Done((*pod)->uid());
  } else if (name == "event") {
    if (!op.Has("event")) return Error{op.Field("event") + ": missing"};
    auto event = ParseEvent(op["event"], op.Field("event"));
    if (!event.ok()) return event.error();
    reference::PreEnqueueCheck pre_check;
    if (op.Has("priorityAtMost")) {
      auto at_most = op.Integer("priorityAtMost", -2147483648LL, 2147483647LL);
      if (!at_most.ok()) return at_most.error();
      const int64_t limit = *at_most;
      pre_check = [limit](const reference::Pod& p) { return p.priority <= limit; };
    }
    queue_.MoveAllToActiveOrBackoffQueue(*event, {}, pre_check);
  } else if (name == "activate") {
    auto keys = op.Strings("pods");
    if (!keys.ok()) return keys.error();
    std::vector<PodPtr> pods;
    for (const std::string& key : *keys) {
      auto it = pods_.find(key);
      if (it == pods_.end()) return Error{op.Field("pods") + ": unknown pod " + key};
      pods.push_back(it->second);
    }
    queue_.Activate(pods);
  } else if (name == "advanceClock") {
    auto d = op.SecondsNs("seconds", /*allow_negative=*/false, -1);
    if (!d.ok()) return d.error();
    if (*d < 0) return Error{op.Field("seconds") + ": missing"};
    if (clock_.NowNs() + *d > kMaxQueueCaseSeconds * kNanosPerSecond) {
      return Error{op.Field("seconds") + ": the clock would pass " +
                   std::to_string(kMaxQueueCaseSeconds) + " s"};
    }
    clock_.AdvanceNs(*d);
  } else if (name == "flushBackoff") {
    queue_.FlushBackoffQCompleted();
  } else if (name == "flushUnschedulableLeftover") {
    queue_.FlushUnschedulablePodsLeftover();
  } else if (name == "expectQueues") {
    return ExpectQueues(op);
  } else {
    return Error{"unknown op at compat 1.37"};
  }
  return std::string();
}

Result<std::string> QueueCaseRunnerV1_37::Pop(const OpFields& op) {
  if (!op.Has("expect")) return Error{op.Field("expect") + ": missing (null for nothing)"};
  const json& want = op["expect"];
  if (!want.is_null() && !want.is_string()) {
    return Error{op.Field("expect") + ": expected \"ns/name\" or null"};
  }
  std::optional<QueuedPodInfo> got = queue_.Pop();
  const std::string got_key = got ? got->pod().key : "null";
  const std::string want_key = want.is_null() ? "null" : want.get<std::string>();
  if (got_key != want_key) return "got " + got_key + ", want " + want_key;
  if (!got) return std::string();
  if (op.Has("expectAttempts")) {
    auto attempts = op.Integer("expectAttempts", 0, 2147483647);
    if (!attempts.ok()) return attempts.error();
    if (got->attempts != *attempts) {
      return "attempts of " + got_key + ": got " + std::to_string(got->attempts) + ", want " +
             std::to_string(*attempts);
    }
  }
  popped_[got_key] = std::move(*got);
  return std::string();
}

Result<std::string> QueueCaseRunnerV1_37::ExpectQueues(const OpFields& op) const {
  auto to_set = [](const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end());
  };
  const std::pair<const char*, std::set<std::string>> queues[] = {
      {"activeQ", to_set(queue_.ActiveQKeys())},
      {"backoffQ", to_set(queue_.BackoffQKeys())},
      {"unschedulable", to_set(queue_.UnschedulableKeys())},
      {"inFlight", to_set(queue_.InFlightKeys())}};
  for (const auto& [name, got] : queues) {
    if (!op.Has(name)) {
      if (std::string(name) == "inFlight") continue;  // optional
      return Error{op.Field(name) + ": missing"};
    }
    auto want = Names(op, name);
    if (!want.ok()) return want.error();
    if (*want != got) return std::string(name) + ": got " + Join(got) + ", want " + Join(*want);
  }
  return std::string();
}

}  // namespace

CaseResult RunQueueCaseV1_37(const Case& c) {
  auto bad_input = [](std::string detail) -> CaseResult {
    return {Verdict::kBadInput, std::move(detail)};
  };
  auto config = ParseConfig(c.queue_config);
  if (!config.ok()) return bad_input("queueConfig: " + config.message());
  if (!c.expect.is_object() || !c.expect.contains("ops") || !c.expect["ops"].is_array())
    return bad_input("expect.ops: missing or not a list");
  QueueCaseRunnerV1_37 runner(std::move(*config));
  Result<std::string> diff = runner.Run(c.expect["ops"]);
  if (!diff.ok()) return bad_input(diff.message());
  if (!diff->empty()) return {Verdict::kFail, *diff};
  return {Verdict::kPass, ""};
}

}  // namespace schedcheck::check
