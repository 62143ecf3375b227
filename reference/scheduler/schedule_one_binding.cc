// The Scheduler's binding cycle (schedule_one.go bindingCycle and handleBindingCycleError):
// WaitOnPermit, PreBind (which may poll), Bind and PostBind, run at the instant the driver
// chooses (NextBindingCycleNs) rather than in a goroutine.
#include <algorithm>

#include "reference/queue/events.h"
#include "reference/queue/scheduling_queue_v1_37.h"
#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

std::string WaitTimeoutMessage(int64_t wait_ns, const std::string& plugin) {
  // Go's time.Duration String() for whole seconds ("15m0s", "10s") is enough for Permit timeouts.
  int64_t s = wait_ns / kNanosPerSecond;
  std::string d = s >= 60 ? std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s"
                          : std::to_string(s) + "s";
  return "rejected due to timeout after waiting " + d + " at plugin " + plugin;
}

}  // namespace

std::optional<int64_t> Scheduler::NextBindingCycleNs() const {
  std::optional<int64_t> next;
  for (const Binding& b : bindings_) {
    if (!next || b.due_ns < *next) next = b.due_ns;
  }
  return next;
}

void Scheduler::RunBindingCyclesDue() {
  const int64_t now = clock_.NowNs();
  std::stable_sort(bindings_.begin(), bindings_.end(),
                   [](const Binding& a, const Binding& b) { return a.due_ns < b.due_ns; });
  while (!bindings_.empty() && bindings_.front().due_ns == now) {
    Binding b = std::move(bindings_.front());
    bindings_.erase(bindings_.begin());
    BindingCycle(std::move(b));
  }
}

void Scheduler::RunNewBindingCyclesDue() {
  // Pods a Permit of this cycle allowed go on first: they were unblocked during the cycle.
  for (size_t i = 0; i < bindings_.size();) {
    if (!bindings_[i].allowed || bindings_[i].due_ns != clock_.NowNs()) {
      ++i;
      continue;
    }
    Binding b = std::move(bindings_[i]);
    bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(i));
    BindingCycle(std::move(b));
  }
  while (!bindings_.empty() && bindings_.back().due_ns == clock_.NowNs()) {
    Binding b = std::move(bindings_.back());
    bindings_.pop_back();
    BindingCycle(std::move(b));
  }
}

void Scheduler::BindingCycle(Binding b) {
  const Framework& fw = *b.profile->framework;
  Status status;
  if (b.in_pre_bind) {
    // Resumed at PreBind's next look: what came before it was checked when the cycle started.
  } else if (b.pre_flight.code() == Code::kError || b.pre_flight.IsRejected()) {
    status = b.pre_flight;  // the binding cycle ends before WaitOnPermit
  } else if (!b.pending_waits.empty()) {
    // WaitOnPermit: the earliest pending Permit timeout has fired.
    status = Status(Code::kUnschedulable, WaitTimeoutMessage(b.wait_ns, b.waiting_plugin))
                 .WithPlugin(b.waiting_plugin);
  }
  auto api = pods_.find(b.key);
  if (!b.in_pre_bind && status.IsSuccess() &&
      (api == pods_.end() || !api->second->node_name().empty())) {
    status = Status::Error("pods \"" + b.key + "\" not found");  // deleted while binding
  }
  if (status.IsSuccess()) status = fw.RunPreBindPlugins(*b.state, *b.assumed, b.node);
  if (status.IsWait()) {
    WaitInPreBind(std::move(b));
    return;
  }
  api = pods_.find(b.key);  // PreBind's writes may have moved pods
  if (status.IsSuccess() && (api == pods_.end() || !api->second->node_name().empty())) {
    status = Status::Error("pods \"" + b.key + "\" not found");  // deleted while binding
  }
  if (status.IsSuccess()) status = fw.RunBindPlugins(*b.state, *b.assumed, b.node);
  if (!status.IsSuccess()) {
    HandleBindingCycleError(b, status);
    return;
  }
  (void)cache_.FinishBinding(*b.assumed);
  if (listener_.bound) listener_.bound(b.key, b.node);
  queue_->Done(*b.assumed);
  // Keeps the informer's previous object alive while OnPod replaces it.
  [[maybe_unused]] PodPtr old = api->second;
  DeliverClaimWrites();  // PreBind's claim writes reach the informer before the binding
  auto bound = std::make_shared<Pod>(*b.assumed);
  bound->obj.mutable_status()->clear_nominated_node_name();
  OnPod(WatchEvent::kModified, bound);
  fw.RunPostBindPlugins(*b.state, *b.assumed, b.node);
}

// handleBindingCycleError: Unreserve, Forget, then a move request for the freed resources.
void Scheduler::HandleBindingCycleError(const Binding& b, const Status& status) {
  const Framework& fw = *b.profile->framework;
  fw.RunReservePluginsUnreserve(*b.state, *b.assumed, b.node);
  bool forgot = cache_.ForgetPod(*b.assumed).ok();
  CycleOutcome failure;
  failure.status = status;
  failure.message = status.Message();
  failure.nominating = {NominatingInfo::Mode::kOverride, ""};
  // A rejection (a Permit timeout) names its plugin, as the FitError upstream builds for it.
  if (status.IsRejected() && !status.plugin().empty()) {
    failure.unschedulable_plugins.insert(status.plugin());
  }
  // The failure handler reports the failed binding cycle as an attempt of its own.
  ReportAttempt(b.info, failure);
  auto move_all = [&](std::function<bool(const Pod&)> pre_check) {
    if (queueing_hints()) {
      EventObjects objects;
      objects.old_pod = b.assumed;
      MoveAllV1_37(event_v1_37::AssignedPodDelete(), objects, pre_check);
    } else {
      MoveAll(*PredefinedClusterEvent("AssignedPodDelete"), pre_check);
    }
  };
  if (forgot && !status.IsRejected()) move_all(nullptr);
  // The failure handler clears a nominatedNodeName the informer's pod carries; that patch is
  // written after the binding cycle's own, so it is the one that stays.
  auto pending = pods_.find(b.key);
  const bool handler_clears =
      pending != pods_.end() && !pending->second->obj.status().nominated_node_name().empty();
  HandleSchedulingFailure(b.info, failure);
  if (forgot && status.IsRejected()) {
    // Deferred until after the requeue and excluding the pod itself.
    const std::string uid = b.assumed->uid();
    move_all([uid](const Pod& p) { return p.uid() != uid; });
  }
  // A PreBind that failed after a successful volume write leaves it pending: it reaches the
  // informers, with the controllers' answers, once the binding cycle is over (as in the adapters).
  // (Settle without pending writes does nothing.)
  if (options_.volume_api != nullptr) options_.volume_api->Settle();
  DeliverClaimWrites();  // DynamicResources' PreBind and Unreserve writes, likewise
  if (b.nominated_for_expectation && !handler_clears) ApplyExpectationNomination(b);
}

void Scheduler::WaitInPreBind(Binding b) {
  const bool first_look = !b.in_pre_bind;
  b.in_pre_bind = true;
  b.due_ns = clock_.NowNs() + kPreBindPollIntervalNs;
  // A binding cycle that starts waiting lets go: its writes so far reach the informers now, as
  // the adapters deliver a cycle's writes when it returns. At v1.37 that is the nominatedNodeName
  // written before PreBind (the pod is assumed: the queue ignores the update).
  if (first_look && b.nominated_for_expectation) {
    ApplyExpectationNomination(b);
    b.nominated_for_expectation = false;
  }
  bindings_.push_back(std::move(b));
}

void Scheduler::ApplyExpectationNomination(const Binding& b) {
  // The patch was written before PreBind; the failure handler read the pod without it (and, the
  // pod having no nomination, wrote none). The informer now delivers it to a pod that is pending
  // again (a pod deleted or recreated meanwhile is not patched).
  auto it = pods_.find(b.key);
  if (it == pods_.end() || it->second->uid() != b.assumed->uid() ||
      !it->second->node_name().empty() ||
      it->second->obj.status().nominated_node_name() == b.node) {
    return;
  }
  PatchNomination(b.key, b.node);
}

}  // namespace schedcheck::reference
