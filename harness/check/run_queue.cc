// `kind: queue` cases: a SchedulingQueue built from queueConfig and the case's profile, driven by
// the ops list (docs/FORMATS.md#conformance-case-files), expectations checked as the ops run.
#include "harness/check/run_queue.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "harness/check/cluster.h"
#include "harness/check/queue_op_fields.h"
#include "harness/check/run_queue_config.h"
#include "reference/k8s/json_number.h"
#include "reference/k8s/k8s_json.h"
#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue.h"
#include "reference/runtime/queue_setup.h"
#include "reference/scheduler/eventhandlers.h"

namespace schedcheck::check {
namespace {

using json = nlohmann::json;
using reference::ClusterEvent;
using reference::PodPtr;
using reference::SchedulingQueue;
using Verdict = CaseResult::Verdict;

std::string Join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out + "]";
}

class QueueCaseRunner {
 public:
  QueueCaseRunner(const Case& c, Cluster& cluster, const QueueCaseConfig& config)
      : c_(c), cluster_(cluster) {
    std::vector<const reference::Framework*> profiles = {&cluster.framework()};
    reference::ClusterEventMap events = reference::EventMapFromFrameworks(profiles);
    for (auto& reg : config.fake_plugin_events) events.push_back(reg);
    for (const k8s::Namespace& ns : c.namespaces) objects_.namespaces[ns.metadata().name()] = ns;
    queue_ = std::make_unique<SchedulingQueue>(config.options, clock_,
                                               reference::HooksFromFrameworks(profiles),
                                               std::move(events), &objects_);
  }

  // "" when every op ran and every expectation held; else "ops[i] (op): what differed". An error
  // is a malformed op (bad input), naming the op index and field.
  Result<std::string> Run(const json& ops) {
    return RunQueueOps(
        ops, [this](const std::string& name, const OpFields& op) { return RunOp(name, op); });
  }

 private:
  Result<std::string> RunOp(const std::string& name, const OpFields& op);
  Result<std::string> Pop(const OpFields& op);
  Result<std::string> Event(const OpFields& op);
  Result<std::string> ExpectQueues(const OpFields& op);
  Result<std::string> ExpectBackoff(const OpFields& op);
  Result<std::string> ExpectBackoffDuration(const OpFields& op);
  Result<std::string> AdvanceClock(const OpFields& op);

  // Now plus queueTimestampOffsetSeconds: within ±2 kMaxQueueCaseSeconds, as the clock is bounded.
  Result<int64_t> TimestampFor(const OpFields& op) const {
    auto offset = op.SecondsNs("queueTimestampOffsetSeconds", /*allow_negative=*/true, 0);
    if (!offset.ok()) return offset.error();
    return clock_.NowNs() + *offset;
  }

  // A pod given inline (recorded as its latest version) or as "ns/name" (a pod seen before).
  Result<PodPtr> PodArg(const json& v, const std::string& field) {
    if (v.is_string()) {
      auto it = pods_.find(v.get<std::string>());
      if (it == pods_.end()) return Error{field + ": unknown pod " + v.get<std::string>()};
      return it->second;
    }
    auto obj = k8s::PodFromJson(v, field);
    if (!obj.ok()) return obj.error();
    auto pod = reference::BuildPod(*obj);
    if (!pod.ok()) return Error{field + ": " + pod.message()};
    pods_[(*pod)->key] = *pod;
    return *pod;
  }
  Result<PodPtr> PodArg(const OpFields& op, const char* name) {
    if (!op.Has(name)) return Error{op.Field(name) + ": missing"};
    return PodArg(op[name], op.Field(name));
  }

  Result<std::set<std::string>> PluginsArg(const OpFields& op) const {
    auto names = op.Strings("plugins");
    if (!names.ok()) return names.error();
    return std::set<std::string>(names->begin(), names->end());
  }

  const Case& c_;
  Cluster& cluster_;
  VirtualClock clock_;
  reference::ClusterObjects objects_;
  std::unique_ptr<SchedulingQueue> queue_;
  std::map<std::string, PodPtr> pods_;                         // latest object per key
  std::map<std::string, reference::QueuedPodInfo> in_flight_;  // popped, not yet requeued
};

Result<std::string> QueueCaseRunner::RunOp(const std::string& name, const OpFields& op) {
  if (name == "add") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto t = TimestampFor(op);
    if (!t.ok()) return t.error();
    queue_->Add(*pod, *t);
  } else if (name == "update") {
    auto old_pod = PodArg(op, "oldPod");
    if (!old_pod.ok()) return old_pod.error();
    auto new_pod = PodArg(op, "newPod");
    if (!new_pod.ok()) return new_pod.error();
    queue_->Update(*old_pod, *new_pod);
  } else if (name == "delete") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_->Delete(**pod);
    in_flight_.erase((*pod)->key);
  } else if (name == "pop") {
    return Pop(op);
  } else if (name == "failed") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto plugins = PluginsArg(op);
    if (!plugins.ok()) return plugins.error();
    auto it = in_flight_.find((*pod)->key);
    if (it == in_flight_.end()) return Error{"pod " + (*pod)->key + " is not in flight"};
    reference::QueuedPodInfo info = std::move(it->second);
    in_flight_.erase(it);
    info.unschedulable_plugins = std::move(*plugins);
    // "Already present" is upstream's quirk for an updated in-flight pod: the copy is dropped.
    (void)queue_->AddUnschedulableIfNotPresent(std::move(info), queue_->SchedulingCycle());
  } else if (name == "addUnschedulable") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto plugins = PluginsArg(op);
    if (!plugins.ok()) return plugins.error();
    auto t = TimestampFor(op);
    if (!t.ok()) return t.error();
    queue_->PlaceInUnschedulable(*pod, *plugins, *t);
  } else if (name == "addBackoff") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto t = TimestampFor(op);
    if (!t.ok()) return t.error();
    queue_->PlaceInBackoff(*pod, *t);
  } else if (name == "event") {
    return Event(op);
  } else if (name == "activate") {
    if (op.Has("pods") && !op["pods"].is_array())
      return Error{op.Field("pods") + ": expected a list of pods"};
    std::vector<PodPtr> pods;
    const json list = op.Has("pods") ? op["pods"] : json::array();
    for (size_t i = 0; i < list.size(); ++i) {
      auto pod = PodArg(list[i], op.Field("pods") + "[" + std::to_string(i) + "]");
      if (!pod.ok()) return pod.error();
      pods.push_back(*pod);
    }
    queue_->Activate(pods);
  } else if (name == "advanceClock") {
    return AdvanceClock(op);
  } else if (name == "flushBackoff") {
    queue_->FlushBackoffQCompleted();
  } else if (name == "flushUnschedulableLeftover") {
    queue_->FlushUnschedulablePodsLeftover();
  } else if (name == "expectQueues") {
    return ExpectQueues(op);
  } else if (name == "expectActiveQ") {
    auto want = op.Strings("ordered");
    if (!want.ok()) return want.error();
    std::vector<std::string> got = queue_->ActiveQKeys();
    if (*want != got) return "activeQ: expected " + Join(*want) + ", got " + Join(got);
  } else if (name == "expectBackoff") {
    return ExpectBackoff(op);
  } else if (name == "expectBackoffDuration") {
    return ExpectBackoffDuration(op);
  } else {
    return Error{"unknown op \"" + name + "\""};
  }
  return std::string();
}

// The virtual clock only moves forward, and stays within kMaxQueueCaseSeconds.
Result<std::string> QueueCaseRunner::AdvanceClock(const OpFields& op) {
  auto delta = op.SecondsNs("seconds", /*allow_negative=*/false, 0);
  if (!delta.ok()) return delta.error();
  if (*delta > kMaxQueueCaseSeconds * kNanosPerSecond - clock_.NowNs()) {
    return Error{op.Field("seconds") + ": the virtual clock would pass " +
                 std::to_string(kMaxQueueCaseSeconds) + " s"};
  }
  clock_.AdvanceNs(*delta);
  return std::string();
}

Result<std::string> QueueCaseRunner::ExpectBackoffDuration(const OpFields& op) {
  constexpr int64_t kMaxNs = std::numeric_limits<int64_t>::max();
  // initial >= 1 keeps CalculateBackoffDuration's doubling loop short (it saturates within 63).
  auto initial = op.Integer("initialBackoffNanoseconds", 1, kMaxNs);
  if (!initial.ok()) return initial.error();
  auto max = op.Integer("maxBackoffNanoseconds", 0, kMaxNs);
  if (!max.ok()) return max.error();
  auto attempts = op.Integer("attempts", 0, std::numeric_limits<int>::max());
  if (!attempts.ok()) return attempts.error();
  auto want = op.Integer("wantNanoseconds", 0, kMaxNs);
  if (!want.ok()) return want.error();
  int64_t got = reference::CalculateBackoffDuration(*initial, *max, static_cast<int>(*attempts));
  if (got != *want)
    return "backoff duration: expected " + std::to_string(*want) + "ns, got " +
           std::to_string(got) + "ns";
  return std::string();
}

Result<std::string> QueueCaseRunner::Pop(const OpFields& op) {
  std::string want;
  if (op.Has("expect")) {
    if (!op["expect"].is_null() && !op["expect"].is_string())
      return Error{op.Field("expect") + ": expected \"ns/name\" or null"};
    want = op["expect"].is_null() ? "null" : op["expect"].get<std::string>();
  }
  std::vector<std::string> nots;
  if (op.Has("expectNot")) {
    if (op["expectNot"].is_string()) {
      nots.push_back(op["expectNot"].get<std::string>());
    } else {
      auto list = op.Strings("expectNot");
      if (!list.ok()) return list.error();
      nots = std::move(*list);
    }
  }
  std::optional<int64_t> want_attempts;
  if (op.Has("expectAttempts")) {
    auto n = op.Integer("expectAttempts", 0, std::numeric_limits<int>::max());
    if (!n.ok()) return n.error();
    want_attempts = *n;
  }
  std::optional<reference::QueuedPodInfo> info = queue_->Pop();
  std::string got = info ? info->pod().key : "null";
  if (info) in_flight_[info->pod().key] = *info;
  if (op.Has("expect") && want != got) return "popped " + got + ", expected " + want;
  for (const std::string& n : nots) {
    if (n == got) return "popped " + got + ", which must not be popped";
  }
  if (want_attempts) {
    int64_t have = info ? info->attempts : 0;
    if (*want_attempts != have)
      return "attempts of " + got + ": expected " + std::to_string(*want_attempts) + ", got " +
             std::to_string(have);
  }
  return std::string();
}

Result<std::string> QueueCaseRunner::Event(const OpFields& op) {
  std::string label;
  if (op.Has("event")) {
    auto l = op.String("event");
    if (!l.ok()) return l.error();
    label = *l;
  }
  ClusterEvent event = ResolveEvent(label);
  if (label == "AssignedPodAdd" || label == "AssignedPodUpdate") {
    if (op.Has("pod")) {
      auto pod = PodArg(op, "pod");
      if (!pod.ok()) return pod.error();
      if (label == "AssignedPodAdd") queue_->AssignedPodAdded(**pod);
      if (label == "AssignedPodUpdate") queue_->AssignedPodUpdated(**pod);
      return std::string();
    }
  }
  if (reference::IsNodeEventLabel(label) && op.Has("node")) {
    auto node_info = NodeInfoArg(c_, cluster_, op["node"]);
    if (!node_info.ok()) return node_info.error();  // "node: unknown node x", op named by Run
    std::shared_ptr<reference::NodeInfo> ni = *node_info;
    queue_->MoveAllToActiveOrBackoffQueue(
        event, [ni](const reference::Pod& pod) { return reference::PreCheckForNode(pod, *ni); });
    return std::string();
  }
  queue_->MoveAllToActiveOrBackoffQueue(event, nullptr);
  return std::string();
}

Result<std::string> QueueCaseRunner::ExpectQueues(const OpFields& op) {
  std::vector<std::string> diffs;
  for (const auto& [field, keys] :
       {std::pair<const char*, std::vector<std::string>>{"activeQ", queue_->ActiveQKeys()},
        {"backoffQ", queue_->BackoffQKeys()},
        {"unschedulable", queue_->UnschedulableKeys()}}) {
    if (!op.Has(field)) continue;
    auto want = op.Strings(field);
    if (!want.ok()) return want.error();
    std::vector<std::string> got = keys;
    std::sort(want->begin(), want->end());
    std::sort(got.begin(), got.end());
    if (*want != got)
      diffs.push_back(std::string(field) + ": expected " + Join(*want) + ", got " + Join(got));
  }
  std::string out;
  for (const std::string& d : diffs) out += (out.empty() ? "" : "; ") + d;
  return out;
}

Result<std::string> QueueCaseRunner::ExpectBackoff(const OpFields& op) {
  auto key = op.String("pod");
  if (!key.ok()) return key.error();
  if (op.Has("inBackoffQ")) {
    auto want = op.Bool("inBackoffQ");
    if (!want.ok()) return want.error();
    if (*want != queue_->InBackoffQ(*key)) {
      return *key + (*want ? " is not in backoffQ" : " is in backoffQ") + ", expected the opposite";
    }
  }
  if (op.Has("backoffSeconds")) {
    auto want = op.SecondsNs("backoffSeconds", /*allow_negative=*/true, 0);
    if (!want.ok()) return want.error();
    const reference::QueuedPodInfo* info = queue_->Find(*key);
    if (info == nullptr) return *key + " is not queued, cannot check its backoff";
    int64_t got = queue_->BackoffExpiryNs(*info) - clock_.NowNs();
    if (*want != got) {
      return "backoff of " + *key + ": expected expiry in " + std::to_string(*want) + "ns, got " +
             std::to_string(got) + "ns";
    }
  }
  return std::string();
}

}  // namespace

CaseResult RunQueueCase(const Case& c, reference::Engine engine) {
  auto bad_input = [](std::string detail) -> CaseResult {
    return {Verdict::kBadInput, std::move(detail)};
  };
  auto config = ParseQueueCaseConfig(c.queue_config);
  if (!config.ok()) return bad_input("queueConfig: " + config.message());
  if (!c.expect.is_object() || !c.expect.contains("ops") || !c.expect["ops"].is_array())
    return bad_input("expect.ops: missing or not a list");
  ClusterInput input = ClusterInputOf(c);
  auto cluster =
      Cluster::Build(input, CaseProfile(c), c.compat.empty() ? "1.27" : c.compat, engine);
  if (!cluster.ok()) return bad_input("setup: " + cluster.message());
  auto defaults = RegistrationsWithoutEnqueueExtensions(config->plugins_without_enqueue_extensions,
                                                        (*cluster)->framework().handle(), engine);
  if (!defaults.ok()) return bad_input("queueConfig: " + defaults.message());
  for (auto& reg : *defaults) config->fake_plugin_events.push_back(std::move(reg));
  QueueCaseRunner runner(c, **cluster, *config);
  Result<std::string> diff = runner.Run(c.expect["ops"]);
  if (!diff.ok()) return bad_input(diff.message());
  if (!diff->empty()) return {Verdict::kFail, *diff};
  return {Verdict::kPass, ""};
}

}  // namespace schedcheck::check
