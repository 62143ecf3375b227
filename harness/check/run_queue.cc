// `kind: queue` cases: a SchedulingQueue built from queueConfig and the case's profile, driven by
// the ops list (docs/FORMATS.md#conformance-case-files), expectations checked as the ops run.
#include "harness/check/run_queue.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "harness/check/cluster.h"
#include "harness/check/run_queue_config.h"
#include "reference/k8s/k8s_json.h"
#include "reference/queue/events.h"
#include "reference/queue/pre_check.h"
#include "reference/queue/scheduling_queue.h"

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

  // "" when every op ran and every expectation held; else "ops[i] (op): what differed".
  std::string Run(const json& ops) {
    for (size_t i = 0; i < ops.size(); ++i) {
      const json& op = ops[i];
      std::string name = op.value("op", "");
      Result<std::string> r = RunOp(name, op);
      std::string prefix = "ops[" + std::to_string(i) + "] (" + name + "): ";
      if (!r.ok()) return prefix + r.message();
      if (!r->empty()) return prefix + *r;
    }
    return "";
  }

 private:
  Result<std::string> RunOp(const std::string& name, const json& op);
  Result<std::string> Pop(const json& op);
  Result<std::string> Event(const json& op);
  Result<std::string> ExpectQueues(const json& op);
  Result<std::string> ExpectBackoff(const json& op);

  int64_t TimestampFor(const json& op) const {
    double offset = op.value("queueTimestampOffsetSeconds", 0.0);
    return clock_.NowNs() + static_cast<int64_t>(std::llround(offset * 1e9));
  }

  // A pod given inline (recorded as its latest version) or as "ns/name" (a pod seen before).
  Result<PodPtr> PodArg(const json& op, const char* field) {
    if (!op.contains(field)) return Error{std::string("missing field ") + field};
    const json& v = op[field];
    if (v.is_string()) {
      auto it = pods_.find(v.get<std::string>());
      if (it == pods_.end())
        return Error{std::string(field) + ": unknown pod " + v.get<std::string>()};
      return it->second;
    }
    auto obj = k8s::PodFromJson(v, field);
    if (!obj.ok()) return obj.error();
    auto pod = reference::BuildPod(*obj);
    if (!pod.ok()) return Error{std::string(field) + ": " + pod.message()};
    pods_[(*pod)->key] = *pod;
    return *pod;
  }

  std::set<std::string> PluginsArg(const json& op) const {
    std::set<std::string> out;
    if (op.contains("plugins")) {
      for (const auto& p : op["plugins"]) out.insert(p.get<std::string>());
    }
    return out;
  }

  const Case& c_;
  Cluster& cluster_;
  VirtualClock clock_;
  reference::ClusterObjects objects_;
  std::unique_ptr<SchedulingQueue> queue_;
  std::map<std::string, PodPtr> pods_;                         // latest object per key
  std::map<std::string, reference::QueuedPodInfo> in_flight_;  // popped, not yet requeued
};

Result<std::string> QueueCaseRunner::RunOp(const std::string& name, const json& op) {
  if (name == "add") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_->Add(*pod, TimestampFor(op));
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
    auto it = in_flight_.find((*pod)->key);
    if (it == in_flight_.end()) return Error{"pod " + (*pod)->key + " is not in flight"};
    reference::QueuedPodInfo info = std::move(it->second);
    in_flight_.erase(it);
    info.unschedulable_plugins = PluginsArg(op);
    // "Already present" is upstream's quirk for an updated in-flight pod: the copy is dropped.
    (void)queue_->AddUnschedulableIfNotPresent(std::move(info), queue_->SchedulingCycle());
  } else if (name == "addUnschedulable") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_->PlaceInUnschedulable(*pod, PluginsArg(op), TimestampFor(op));
  } else if (name == "addBackoff") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_->PlaceInBackoff(*pod, TimestampFor(op));
  } else if (name == "event") {
    return Event(op);
  } else if (name == "activate") {
    std::vector<PodPtr> pods;
    for (const auto& p : op.value("pods", json::array())) {
      auto pod = PodArg(json{{"pod", p}}, "pod");
      if (!pod.ok()) return pod.error();
      pods.push_back(*pod);
    }
    queue_->Activate(pods);
  } else if (name == "advanceClock") {
    clock_.AdvanceNs(static_cast<int64_t>(std::llround(op.value("seconds", 0.0) * 1e9)));
  } else if (name == "flushBackoff") {
    queue_->FlushBackoffQCompleted();
  } else if (name == "flushUnschedulableLeftover") {
    queue_->FlushUnschedulablePodsLeftover();
  } else if (name == "expectQueues") {
    return ExpectQueues(op);
  } else if (name == "expectActiveQ") {
    std::vector<std::string> want = op.value("ordered", std::vector<std::string>{});
    std::vector<std::string> got = queue_->ActiveQKeys();
    if (want != got) return "activeQ: expected " + Join(want) + ", got " + Join(got);
  } else if (name == "expectBackoff") {
    return ExpectBackoff(op);
  } else if (name == "expectBackoffDuration") {
    int64_t got = reference::CalculateBackoffDuration(
        op.at("initialBackoffNanoseconds").get<int64_t>(),
        op.at("maxBackoffNanoseconds").get<int64_t>(), op.at("attempts").get<int>());
    int64_t want = op.at("wantNanoseconds").get<int64_t>();
    if (got != want)
      return "backoff duration: expected " + std::to_string(want) + "ns, got " +
             std::to_string(got) + "ns";
  } else {
    return Error{"unknown op \"" + name + "\""};
  }
  return std::string();
}

Result<std::string> QueueCaseRunner::Pop(const json& op) {
  std::optional<reference::QueuedPodInfo> info = queue_->Pop();
  std::string got = info ? info->pod().key : "null";
  if (info) in_flight_[info->pod().key] = *info;
  if (op.contains("expect")) {
    std::string want = op["expect"].is_null() ? "null" : op["expect"].get<std::string>();
    if (want != got) return "popped " + got + ", expected " + want;
  }
  if (op.contains("expectNot")) {
    json nots = op["expectNot"].is_array() ? op["expectNot"] : json::array({op["expectNot"]});
    for (const auto& n : nots) {
      if (n.get<std::string>() == got) return "popped " + got + ", which must not be popped";
    }
  }
  if (op.contains("expectAttempts")) {
    int want = op["expectAttempts"].get<int>();
    int have = info ? info->attempts : 0;
    if (want != have)
      return "attempts of " + got + ": expected " + std::to_string(want) + ", got " +
             std::to_string(have);
  }
  return std::string();
}

Result<std::string> QueueCaseRunner::Event(const json& op) {
  std::string label = op.value("event", "");
  ClusterEvent event = ResolveEvent(label);
  if (label == "AssignedPodAdd" || label == "AssignedPodUpdate") {
    if (op.contains("pod")) {
      auto pod = PodArg(op, "pod");
      if (!pod.ok()) return pod.error();
      if (label == "AssignedPodAdd") queue_->AssignedPodAdded(**pod);
      if (label == "AssignedPodUpdate") queue_->AssignedPodUpdated(**pod);
      return std::string();
    }
  }
  if (reference::IsNodeEventLabel(label) && op.contains("node")) {
    auto node_info = NodeInfoArg(c_, cluster_, op["node"]);
    if (!node_info.ok()) return node_info.error();
    std::shared_ptr<reference::NodeInfo> ni = *node_info;
    queue_->MoveAllToActiveOrBackoffQueue(
        event, [ni](const reference::Pod& pod) { return reference::PreCheckForNode(pod, *ni); });
    return std::string();
  }
  queue_->MoveAllToActiveOrBackoffQueue(event, nullptr);
  return std::string();
}

Result<std::string> QueueCaseRunner::ExpectQueues(const json& op) {
  std::vector<std::string> diffs;
  auto check = [&](const char* field, std::vector<std::string> got) {
    if (!op.contains(field)) return;
    std::vector<std::string> want = op[field].get<std::vector<std::string>>();
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got)
      diffs.push_back(std::string(field) + ": expected " + Join(want) + ", got " + Join(got));
  };
  check("activeQ", queue_->ActiveQKeys());
  check("backoffQ", queue_->BackoffQKeys());
  check("unschedulable", queue_->UnschedulableKeys());
  std::string out;
  for (const std::string& d : diffs) out += (out.empty() ? "" : "; ") + d;
  return out;
}

Result<std::string> QueueCaseRunner::ExpectBackoff(const json& op) {
  std::string key = op.at("pod").get<std::string>();
  if (op.contains("inBackoffQ")) {
    bool want = op["inBackoffQ"].get<bool>();
    if (want != queue_->InBackoffQ(key)) {
      return key + (want ? " is not in backoffQ" : " is in backoffQ") + ", expected the opposite";
    }
  }
  if (op.contains("backoffSeconds")) {
    const reference::QueuedPodInfo* info = queue_->Find(key);
    if (info == nullptr) return key + " is not queued, cannot check its backoff";
    int64_t want = static_cast<int64_t>(std::llround(op["backoffSeconds"].get<double>() * 1e9));
    int64_t got = queue_->BackoffExpiryNs(*info) - clock_.NowNs();
    if (want != got) {
      return "backoff of " + key + ": expected expiry in " + std::to_string(want) + "ns, got " +
             std::to_string(got) + "ns";
    }
  }
  return std::string();
}

}  // namespace

CaseResult RunQueueCase(const Case& c, reference::Engine engine) {
  auto config = ParseQueueCaseConfig(c.queue_config);
  if (!config.ok()) return {Verdict::kFail, "queueConfig: " + config.message()};
  if (!c.expect.is_object() || !c.expect.contains("ops") || !c.expect["ops"].is_array()) {
    return {Verdict::kFail, "expect.ops: missing or not a list"};
  }
  ClusterInput input{c.nodes,        c.pods,         c.namespaces,
                     c.pdbs,         c.services,     c.replication_controllers,
                     c.replica_sets, c.stateful_sets};
  auto cluster =
      Cluster::Build(input, CaseProfile(c), c.compat.empty() ? "1.27" : c.compat, engine);
  if (!cluster.ok()) return {Verdict::kFail, cluster.message()};
  auto defaults = RegistrationsWithoutEnqueueExtensions(config->plugins_without_enqueue_extensions,
                                                        (*cluster)->framework().handle(), engine);
  if (!defaults.ok()) return {Verdict::kFail, "queueConfig: " + defaults.message()};
  for (auto& reg : *defaults) config->fake_plugin_events.push_back(std::move(reg));
  QueueCaseRunner runner(c, **cluster, *config);
  try {
    std::string diff = runner.Run(c.expect["ops"]);
    if (!diff.empty()) return {Verdict::kFail, diff};
  } catch (const json::exception& e) {
    return {Verdict::kFail, std::string("malformed op: ") + e.what()};
  }
  return {Verdict::kPass, ""};
}

}  // namespace schedcheck::check
