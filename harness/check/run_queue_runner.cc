#include "harness/check/run_queue_runner.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "harness/check/run_queue_config.h"
#include "reference/k8s/k8s_json.h"
#include "reference/queue/events.h"
#include "reference/scheduler/eventhandlers.h"

namespace schedcheck::check {
namespace {

using json = nlohmann::json;
using reference::PodPtr;
using reference::QueuedPodInfo;

std::string Join(const std::set<std::string>& v) {
  std::string out = "[";
  for (const std::string& s : v) out += (out.size() > 1 ? ", " : "") + s;
  return out + "]";
}

std::string Join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out + "]";
}

std::set<std::string> ToSet(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

// The backoff formula of the v1.27 queue (calculateBackoffDuration), given its arguments.
Result<std::string> ExpectBackoffDuration(const OpFields& op) {
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
  if (got != *want) {
    return "backoff duration: got " + std::to_string(got) + "ns, want " + std::to_string(*want) +
           "ns";
  }
  return std::string();
}

}  // namespace

QueueCaseRunner::QueueCaseRunner(const Case& c, const Cluster* cluster, QueueRunnerConfig config)
    : c_(c),
      cluster_(cluster),
      level_(config.level),
      features_(reference::FeaturesFor(config.level)) {
  for (const k8s::Namespace& ns : c.namespaces) objects_.namespaces[ns.metadata().name()] = ns;
  config.environment.objects = &objects_;
  queue_ = reference::NewSchedulingQueue(features_, config.options, clock_, std::move(config.setup),
                                         std::move(config.environment));
  v1_27_ = dynamic_cast<reference::SchedulingQueue*>(queue_.get());
}

Result<std::string> QueueCaseRunner::Run(const json& ops) {
  return RunQueueOps(
      ops, [this](const std::string& name, const OpFields& op) { return RunOp(name, op); });
}

Result<int64_t> QueueCaseRunner::TimestampFor(const OpFields& op) const {
  auto offset = op.SecondsNs("queueTimestampOffsetSeconds", /*allow_negative=*/true, 0);
  if (!offset.ok()) return offset.error();
  return clock_.NowNs() + *offset;
}

Result<PodPtr> QueueCaseRunner::PodArg(const json& v, const std::string& field, PodPtr* replaced) {
  if (v.is_string()) {
    auto it = pods_.find(v.get<std::string>());
    if (it == pods_.end()) return Error{field + ": unknown pod " + v.get<std::string>()};
    if (replaced != nullptr) *replaced = it->second;
    return it->second;
  }
  auto obj = k8s::PodFromJson(v, field);
  if (!obj.ok()) return obj.error();
  if (level_ == reference::CompatLevel::kV1_37) {
    // casecheck's pods: a namespace, and a UID ("<namespace>/<name>" when none is given).
    k8s::ObjectMeta* meta = obj->mutable_metadata();
    if (meta->namespace_().empty()) meta->set_namespace_("default");
    if (meta->uid().empty()) meta->set_uid(meta->namespace_() + "/" + meta->name());
  }
  auto pod = reference::BuildPod(*obj, features_);
  if (!pod.ok()) return Error{field + ": " + pod.message()};
  PodPtr& latest = pods_[(*pod)->key];
  if (replaced != nullptr) *replaced = latest;
  latest = *pod;
  return *pod;
}

Result<PodPtr> QueueCaseRunner::PodArg(const OpFields& op, const char* name) {
  if (!op.Has(name)) return Error{op.Field(name) + ": missing"};
  return PodArg(op[name], op.Field(name));
}

Result<std::set<std::string>> QueueCaseRunner::Names(const OpFields& op, const char* name) const {
  auto names = op.Strings(name);
  if (!names.ok()) return names.error();
  return std::set<std::string>(names->begin(), names->end());
}

Result<std::string> QueueCaseRunner::RunOp(const std::string& name, const OpFields& op) {
  if (name == "add") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    if (op.Has("queueTimestampOffsetSeconds")) return RunTestHook(name, op);
    queue_->Add(*pod);
  } else if (name == "update") {
    return Update(op);
  } else if (name == "delete") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    queue_->Delete(**pod);
    in_flight_.erase((*pod)->key);  // the scheduler calls no Done for a deleted pod
  } else if (name == "pop") {
    return Pop(op);
  } else if (name == "failed") {
    return Failed(op);
  } else if (name == "done") {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    auto it = in_flight_.find((*pod)->key);
    PodPtr popped = it == in_flight_.end() ? *pod : it->second.info->pod;
    if (it != in_flight_.end()) in_flight_.erase(it);
    queue_->Done(*popped);
  } else if (name == "event") {
    return Event(op);
  } else if (name == "activate") {
    return Activate(op);
  } else if (name == "advanceClock") {
    return AdvanceClock(op);
  } else if (name == "flushBackoff") {
    queue_->FlushBackoffQCompleted();
  } else if (name == "flushUnschedulableLeftover") {
    queue_->FlushUnschedulablePodsLeftover();
  } else if (name == "expectQueues") {
    return ExpectQueues(op);
  } else if (name == "expectActiveQ") {
    return ExpectActiveQ(op);
  } else if (name == "expectBackoff") {
    return ExpectBackoff(op);
  } else if (name == "expectBackoffDuration") {
    return ExpectBackoffDuration(op);
  } else if (name == "addUnschedulable" || name == "addBackoff") {
    return RunTestHook(name, op);
  } else {
    return Error{"unknown op \"" + name + "\""};
  }
  return std::string();
}

// The v1.27 queue's test hooks: a pod straight into the pool or backoffQ, or added with a
// timestamp of the case's choosing.
Result<std::string> QueueCaseRunner::RunTestHook(const std::string& name, const OpFields& op) {
  if (v1_27_ == nullptr) {
    return Error{"not an op at compat " + std::string(reference::CompatLevelName(level_)) +
                 " (it writes the v1.27 queue's sub-queues directly)"};
  }
  auto pod = PodArg(op, "pod");
  if (!pod.ok()) return pod.error();
  std::set<std::string> plugins;
  if (name == "addUnschedulable") {
    auto names = Names(op, "plugins");
    if (!names.ok()) return names.error();
    plugins = std::move(*names);
  }
  auto t = TimestampFor(op);
  if (!t.ok()) return t.error();
  if (name == "add") {
    v1_27_->Add(*pod, *t);
  } else if (name == "addUnschedulable") {
    v1_27_->PlaceInUnschedulable(*pod, std::move(plugins), *t);
  } else {
    v1_27_->PlaceInBackoff(*pod, *t);
  }
  return std::string();
}

// `oldPod` and `newPod`, or `pod`: the new object, the old one being the last given for its key.
Result<std::string> QueueCaseRunner::Update(const OpFields& op) {
  PodPtr old_pod;
  if (op.Has("oldPod") || op.Has("newPod")) {
    auto old_arg = PodArg(op, "oldPod");
    if (!old_arg.ok()) return old_arg.error();
    old_pod = *old_arg;
    auto new_pod = PodArg(op, "newPod");
    if (!new_pod.ok()) return new_pod.error();
    queue_->Update(old_pod, *new_pod);
    return std::string();
  }
  if (!op.Has("pod")) return Error{op.Field("pod") + ": missing"};
  auto new_pod = PodArg(op["pod"], op.Field("pod"), &old_pod);
  if (!new_pod.ok()) return new_pod.error();
  if (!op["pod"].is_object()) return Error{op.Field("pod") + ": expected the new object inline"};
  if (old_pod == nullptr) {
    return Error{op.Field("pod") + ": update of a pod never added: " + (*new_pod)->key};
  }
  queue_->Update(old_pod, *new_pod);
  return std::string();
}

// The failure requeue of the pod's attempt; of a pod without one (never popped, or its attempt
// ended), a fresh entry of its latest object, as upstream's tests requeue such pods
// (newQueuedPodInfoForLookup: no attempts, no timestamp). Upstream refusing the requeue (the pod
// is queued already) is only logged by the scheduler: the next ops check the queue as it stands.
Result<std::string> QueueCaseRunner::Failed(const OpFields& op) {
  auto pod = PodArg(op, "pod");
  if (!pod.ok()) return pod.error();
  auto plugins = Names(op, "plugins");
  if (!plugins.ok()) return plugins.error();
  auto pending = Names(op, "pendingPlugins");
  if (!pending.ok()) return pending.error();
  QueuedPodInfo info;
  if (auto it = in_flight_.find((*pod)->key); it != in_flight_.end()) {
    info = std::move(it->second);
    in_flight_.erase(it);
  } else {
    info.info = reference::MakePodInfo(*pod);
  }
  info.unschedulable_plugins = std::move(*plugins);
  info.pending_plugins = std::move(*pending);
  // The cycle the attempt began in: the queue's current one unless given (an attempt that began
  // before later pops, as upstream's tests pass an older SchedulingCycle()).
  int64_t cycle = queue_->SchedulingCycle();
  if (op.Has("podSchedulingCycle")) {
    auto given = op.Integer("podSchedulingCycle", 0, std::numeric_limits<int64_t>::max());
    if (!given.ok()) return given.error();
    cycle = *given;
  }
  (void)queue_->AddUnschedulableIfNotPresent(std::move(info), cycle);
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
  std::optional<QueuedPodInfo> info = queue_->Pop();
  const std::string got = info ? info->pod().key : "null";
  if (info) in_flight_[got] = *info;
  if (op.Has("expect") && want != got) return "got " + got + ", want " + want;
  for (const std::string& n : nots) {
    if (n == got) return "got " + got + ", which must not be popped";
  }
  if (want_attempts) {
    const int64_t have = info ? info->attempts : 0;
    if (*want_attempts != have)
      return "attempts of " + got + ": got " + std::to_string(have) + ", want " +
             std::to_string(*want_attempts);
  }
  return std::string();
}

Result<std::string> QueueCaseRunner::Event(const OpFields& op) {
  reference::PreEnqueueCheck pre_check;
  if (op.Has("priorityAtMost")) {
    auto at_most = op.Integer("priorityAtMost", std::numeric_limits<int32_t>::min(),
                              std::numeric_limits<int32_t>::max());
    if (!at_most.ok()) return at_most.error();
    // getLEPriorityPreCheck, which the scheduler sends with an assigned pod's deletion.
    pre_check = [limit = *at_most](const reference::Pod& p) { return p.priority <= limit; };
  }
  if (level_ == reference::CompatLevel::kV1_37) {
    if (!op.Has("event")) return Error{op.Field("event") + ": missing"};
    auto event = ParseQueueEventV1_37(op["event"], op.Field("event"));
    if (!event.ok()) return event.error();
    queue_->MoveAllToActiveOrBackoffQueue(*event, {}, pre_check);
    return std::string();
  }
  std::string label;
  if (op.Has("event")) {
    auto l = op.String("event");
    if (!l.ok()) return l.error();
    label = *l;
  }
  reference::ClusterEvent event = ResolveEvent(label);
  if ((label == "AssignedPodAdd" || label == "AssignedPodUpdate") && op.Has("pod")) {
    auto pod = PodArg(op, "pod");
    if (!pod.ok()) return pod.error();
    if (label == "AssignedPodAdd") queue_->AssignedPodAdded(*pod);
    if (label == "AssignedPodUpdate") queue_->AssignedPodUpdated(*pod, *pod, event);
    return std::string();
  }
  if (reference::IsNodeEventLabel(label) && op.Has("node") && cluster_ != nullptr) {
    auto node_info = NodeInfoArg(c_, *cluster_, op["node"]);
    if (!node_info.ok()) return node_info.error();  // "node: unknown node x", op named by Run
    std::shared_ptr<reference::NodeInfo> ni = *node_info;
    // preCheckForNode, and the priority check when both are given.
    pre_check = [this, ni, pre_check](const reference::Pod& pod) {
      return reference::PreCheckForNode(pod, *ni, features_) && (!pre_check || pre_check(pod));
    };
  }
  queue_->MoveAllToActiveOrBackoffQueue(event, {}, pre_check);
  return std::string();
}

// Pods inline or as "ns/name", in the listed order; pods the queue does not hold are ignored.
Result<std::string> QueueCaseRunner::Activate(const OpFields& op) {
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

// The sub-queues given, as sets of "ns/name" (the unschedulable pool with its gated pods).
Result<std::string> QueueCaseRunner::ExpectQueues(const OpFields& op) const {
  const std::pair<const char*, std::vector<std::string>> queues[] = {
      {"activeQ", queue_->ActiveQKeys()},
      {"backoffQ", queue_->BackoffQKeys()},
      {"unschedulable", queue_->UnschedulableKeys()},
      {"inFlight", queue_->InFlightKeys()}};
  std::string out;
  for (const auto& [field, keys] : queues) {
    if (!op.Has(field)) continue;
    auto want = Names(op, field);
    if (!want.ok()) return want.error();
    const std::set<std::string> got = ToSet(keys);
    if (*want == got) continue;
    out += (out.empty() ? "" : "; ") + std::string(field) + ": got " + Join(got) + ", want " +
           Join(*want);
  }
  return out;
}

Result<std::string> QueueCaseRunner::ExpectActiveQ(const OpFields& op) const {
  auto want = op.Strings("ordered");
  if (!want.ok()) return want.error();
  std::vector<std::string> got = queue_->ActiveQKeys();
  if (*want != got) return "activeQ: got " + Join(got) + ", want " + Join(*want);
  return std::string();
}

Result<std::string> QueueCaseRunner::ExpectBackoff(const OpFields& op) const {
  auto key = op.String("pod");
  if (!key.ok()) return key.error();
  if (op.Has("inBackoffQ")) {
    auto want = op.Bool("inBackoffQ");
    if (!want.ok()) return want.error();
    std::vector<std::string> backoff = queue_->BackoffQKeys();
    const bool in = std::find(backoff.begin(), backoff.end(), *key) != backoff.end();
    if (*want != in) {
      return *key + (*want ? " is not in backoffQ" : " is in backoffQ") + ", expected the opposite";
    }
  }
  if (op.Has("backoffSeconds")) {
    if (v1_27_ == nullptr) {
      return Error{op.Field("backoffSeconds") + ": not at compat " +
                   std::string(reference::CompatLevelName(level_))};
    }
    auto want = op.SecondsNs("backoffSeconds", /*allow_negative=*/true, 0);
    if (!want.ok()) return want.error();
    const QueuedPodInfo* info = queue_->Find(*key);
    if (info == nullptr) return *key + " is not queued, cannot check its backoff";
    int64_t got = v1_27_->BackoffExpiryNs(*info) - clock_.NowNs();
    if (*want != got) {
      return "backoff of " + *key + ": got expiry in " + std::to_string(got) + "ns, want " +
             std::to_string(*want) + "ns";
    }
  }
  return std::string();
}

}  // namespace schedcheck::check
