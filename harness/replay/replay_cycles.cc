// Replayer: scheduling cycles, the failure handler, preemption's API effects and binding cycles.
#include <algorithm>

#include "harness/replay/replayer_internal.h"
#include "reference/queue/events.h"

namespace schedcheck::replay {
namespace {

std::string WaitTimeoutMessage(int64_t wait_ns, const std::string& plugin) {
  // Go's time.Duration String() for whole seconds ("15m0s", "10s") is enough for Permit timeouts.
  int64_t s = wait_ns / kNanosPerSecond;
  std::string d = s >= 60 ? std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s"
                          : std::to_string(s) + "s";
  return "rejected due to timeout after waiting " + d + " at plugin " + plugin;
}

// The pod as the API server holds it after a status patch of nominatedNodeName.
reference::PodPtr WithNomination(const reference::Pod& pod, const std::string& node) {
  auto copy = std::make_shared<reference::Pod>(pod);
  copy->obj.mutable_status()->set_nominated_node_name(node);
  const std::string& rv = pod.obj.metadata().resource_version();
  copy->obj.mutable_metadata()->set_resource_version(rv + "+nominated");
  return copy;
}

}  // namespace

bool Replayer::StartCycle(const std::function<void()>& after_schedule_pod) {
  while (true) {
    std::optional<reference::QueuedPodInfo> info = QueuePop();
    if (!info) return false;
    const reference::PodPtr& pod = info->info->pod;
    Profile* profile = ProfileFor(*pod);
    // Dropped without an attempt: no profile, terminating, or a stale copy of an assumed pod.
    if (profile == nullptr || pod->terminating() || cache_.IsAssumedPod(pod->uid())) {
      QueueDone(*pod);
      continue;
    }
    cache_.UpdateSnapshot(&snapshot_);
    auto flight = std::make_unique<InFlight>();
    flight->info = *info;
    flight->profile = profile;
    flight->state = std::make_unique<reference::CycleState>();
    std::optional<reference::BatchRequest> batch;
    if (profile->batch) {
      batch = reference::BatchRequest{profile->batch.get(), info->signature,
                                      queue37_->SchedulingCycle(), clock_.NowNs()};
    }
    flight->outcome = reference::RunSchedulingCycle(*profile->framework, *scheduler_, cache_,
                                                    snapshot_, *flight->state, pod,
                                                    after_schedule_pod, batch ? &*batch : nullptr);
    flight->finish_ns = clock_.NowNs() + options_.cycle_latency_ns;
    in_flight_ = std::move(flight);
    return true;
  }
}

void Replayer::RecordAttempt(const reference::QueuedPodInfo& info,
                             const reference::CycleOutcome& outcome) {
  if (!options_.log_attempts) return;
  trace::Record r;
  r.set_time_ns(clock_.NowNs());
  trace::Attempt* a = r.mutable_attempt();
  a->set_pod(info.info->pod->key);
  a->set_attempt(info.attempts);
  if (outcome.status.IsSuccess() || outcome.status.IsWait()) {
    a->set_result(trace::SCHEDULED);
    a->set_node(outcome.result.node);
    a->mutable_ties()->Reserve(static_cast<int>(outcome.result.ties.size()));
    for (const std::string& n : outcome.result.ties) a->add_ties(n);
  } else {
    a->set_result(outcome.status.code() == reference::Code::kError ? trace::ERROR
                                                                   : trace::UNSCHEDULABLE);
    for (const std::string& p : outcome.unschedulable_plugins) a->add_unschedulable_plugins(p);
    a->set_message(outcome.message);
  }
  if (outcome.nominating.mode == reference::NominatingInfo::Mode::kOverride) {
    a->set_nominated_node(outcome.nominating.nominated_node_name);
  }
  std::vector<std::string> victims;
  for (const reference::PodPtr& v : outcome.victims) victims.push_back(v->key);
  std::sort(victims.begin(), victims.end());
  for (const std::string& v : victims) a->add_victims(v);
  log_.Add(std::move(r));
}

void Replayer::FinishCycle() {
  std::unique_ptr<InFlight> flight = std::move(in_flight_);
  const reference::CycleOutcome& outcome = flight->outcome;
  RecordAttempt(flight->info, outcome);
  const reference::PodPtr& pod = flight->info.info->pod;
  if (outcome.status.IsSuccess() || outcome.status.IsWait()) {
    nominator().DeleteNominatedPodIfExists(*pod);  // assumed: no longer nominated anywhere
    Binding b;
    b.key = pod->key;
    b.assumed = outcome.assumed;
    b.node = outcome.result.node;
    b.state = std::shared_ptr<reference::CycleState>(std::move(flight->state));
    b.profile = flight->profile;
    b.info = flight->info;
    b.complete_ns = clock_.NowNs() + options_.bind_latency_ns;
    if (outcome.status.IsWait()) {
      // Nothing in the reference allows a waiting pod, so the earliest timeout rejects it.
      auto first =
          std::min_element(outcome.waits.begin(), outcome.waits.end(),
                           [](const auto& x, const auto& y) { return x.second < y.second; });
      b.waiting_plugin = first->first;
      b.wait_ns = first->second;
      b.complete_ns = std::max(b.complete_ns, clock_.NowNs() + b.wait_ns);
    }
    // With NominatedNodeNameForExpectation off, v1.37 runs no PreBindPreFlight (so no PreBind
    // plugin is skipped) and writes no nomination before Permit and PreBind.
    if (v1_37() && reference::GateEnabled(options_.feature_gates,
                                          reference::kNominatedNodeNameForExpectation)) {
      b.pre_flight = flight->profile->framework->RunPreBindPreFlights(*b.state, *b.assumed, b.node);
      b.nominated_for_expectation = !b.pre_flight.IsRejected() &&
                                    b.pre_flight.code() != reference::Code::kError &&
                                    (b.pre_flight.IsSuccess() || outcome.status.IsWait());
    }
    bindings_.push_back(std::move(b));
    return;
  }
  // The victims' deletions reach the informer after the failure handler has requeued the
  // preemptor (upstream deletes through the API; the watch events arrive asynchronously).
  HandleFailure(flight->info, outcome);
  ApplyPreemption(*pod, outcome);
}

void Replayer::ApplyPreemption(const reference::Pod& preemptor,
                               const reference::CycleOutcome& outcome) {
  auto delete_victims = [&] {
    for (const reference::PodPtr& victim : outcome.victims) {
      auto it = api_pods_.find(victim->key);
      if (it != api_pods_.end()) (void)OnPod(trace::DELETED, it->second);
    }
  };
  auto clear_nominations = [&] {
    for (const reference::PodPtr& p : outcome.clear_nomination) {
      auto it = api_pods_.find(p->key);
      if (it == api_pods_.end() || it->second->obj.status().nominated_node_name().empty()) continue;
      reference::PodPtr old = it->second;
      it->second = WithNomination(*old, "");
      UpdatePendingPod(old, it->second);
    }
  };
  if (v1_37() &&
      reference::GateEnabled(options_.feature_gates, reference::kSchedulerAsyncPreemption)) {
    // The asynchronous preemption runs to its end right after the failure handling (replay
    // conventions), so the preemptor is no longer held back when its API writes arrive: first
    // the lower-priority nominations it clears, then the deletions.
    async_preemptions_.erase(preemptor.uid());
    clear_nominations();
    delete_victims();
    return;
  }
  delete_victims();
  clear_nominations();
}

void Replayer::HandleFailure(const reference::QueuedPodInfo& failed,
                             const reference::CycleOutcome& outcome) {
  const std::string& key = failed.info->pod->key;
  auto it = api_pods_.find(key);
  if (it == api_pods_.end() || !it->second->node_name().empty()) {
    QueueDone(*failed.info->pod);  // deleted or bound meanwhile: not requeued
    return;
  }
  if (v1_37() && it->second->uid() != failed.info->pod->uid()) {
    QueueDone(*failed.info->pod);  // v1.37: recreated meanwhile, neither requeued nor patched
    return;
  }
  reference::QueuedPodInfo info = failed;
  info.info = reference::MakePodInfo(it->second);
  info.unschedulable_plugins = outcome.unschedulable_plugins;
  info.pending_plugins.clear();
  if (v1_37()) {
    (void)queue37_->AddUnschedulableIfNotPresent(info, queue37_->SchedulingCycle());
  } else {
    (void)queue_->AddUnschedulableIfNotPresent(info, queue_->SchedulingCycle());
  }
  std::optional<reference::NominatingInfo> nominating;
  if (outcome.nominating.mode == reference::NominatingInfo::Mode::kOverride)
    nominating = outcome.nominating;
  nominator().AddNominatedPod(info.info, nominating);
  // The status patch of nominatedNodeName, seen back as an update of the pending pod.
  if (nominating &&
      nominating->nominated_node_name != it->second->obj.status().nominated_node_name()) {
    reference::PodPtr old = it->second;
    it->second = WithNomination(*old, nominating->nominated_node_name);
    UpdatePendingPod(old, it->second);
  }
}

void Replayer::CompleteBinding(Binding b) {
  const reference::Framework& fw = *b.profile->framework;
  reference::Status status;
  if (b.in_pre_bind) {
    // Resumed at PreBind's next look: what came before it was checked when the cycle started.
  } else if (b.pre_flight.code() == reference::Code::kError || b.pre_flight.IsRejected()) {
    status = b.pre_flight;  // the binding cycle ends before WaitOnPermit
  } else if (!b.waiting_plugin.empty()) {
    status = reference::Status(reference::Code::kUnschedulable,
                               WaitTimeoutMessage(b.wait_ns, b.waiting_plugin))
                 .WithPlugin(b.waiting_plugin);
  }
  auto api = api_pods_.find(b.key);
  if (!b.in_pre_bind && status.IsSuccess() &&
      (api == api_pods_.end() || !api->second->node_name().empty())) {
    status = reference::Status::Error("pods \"" + b.key + "\" not found");  // deleted while binding
  }
  if (status.IsSuccess()) status = fw.RunPreBindPlugins(*b.state, *b.assumed, b.node);
  if (status.IsWait()) {
    WaitInPreBind(std::move(b));
    return;
  }
  api = api_pods_.find(b.key);  // PreBind's writes may have moved pods
  if (status.IsSuccess() && (api == api_pods_.end() || !api->second->node_name().empty())) {
    status = reference::Status::Error("pods \"" + b.key + "\" not found");  // deleted while binding
  }
  if (status.IsSuccess()) status = fw.RunBindPlugins(*b.state, *b.assumed, b.node);
  if (status.IsSuccess()) {
    (void)cache_.FinishBinding(*b.assumed);
    log_.AddBinding(clock_.NowNs(), b.key, b.node);
    ++pods_bound_;
    QueueDone(*b.assumed);
    // Keeps the API's previous object alive while OnPod replaces it.
    [[maybe_unused]] reference::PodPtr old = api->second;
    auto bound = std::make_shared<reference::Pod>(*b.assumed);
    bound->obj.mutable_status()->clear_nominated_node_name();
    (void)OnPod(trace::MODIFIED, bound);
    fw.RunPostBindPlugins(*b.state, *b.assumed, b.node);
    return;
  }
  // handleBindingCycleError: Unreserve, Forget, then a move request for the freed resources.
  fw.RunReservePluginsUnreserve(*b.state, *b.assumed, b.node);
  bool forgot = cache_.ForgetPod(*b.assumed).ok();
  reference::CycleOutcome failure;
  failure.status = status;
  failure.message = status.Message();
  failure.nominating = {reference::NominatingInfo::Mode::kOverride, ""};
  // A rejection (a Permit timeout) names its plugin, as the FitError upstream builds for it.
  if (status.IsRejected() && !status.plugin().empty()) {
    failure.unschedulable_plugins.insert(status.plugin());
  }
  // The failure handler reports the failed binding cycle as an attempt of its own.
  RecordAttempt(b.info, failure);
  auto move_all = [&](std::function<bool(const reference::Pod&)> pre_check) {
    if (v1_37()) {
      reference::EventObjects objects;
      objects.old_pod = b.assumed;
      MoveAllV1_37(reference::event_v1_37::AssignedPodDelete(), objects, pre_check);
    } else {
      MoveAll(*reference::PredefinedClusterEvent("AssignedPodDelete"), pre_check);
    }
  };
  if (forgot && !status.IsRejected()) move_all(nullptr);
  // The failure handler clears a nominatedNodeName the informer's pod carries; that patch is
  // written after the binding cycle's own, so it is the one that stays.
  auto pending = api_pods_.find(b.key);
  const bool handler_clears =
      pending != api_pods_.end() && !pending->second->obj.status().nominated_node_name().empty();
  HandleFailure(b.info, failure);
  if (forgot && status.IsRejected()) {
    // Deferred until after the requeue and excluding the pod itself.
    const std::string uid = b.assumed->uid();
    move_all([uid](const reference::Pod& p) { return p.uid() != uid; });
  }
  // A PreBind that failed after a successful volume write leaves it pending: it reaches the
  // informers, with the controllers' answers, once the binding cycle is over (as in the adapters).
  if (volume_api_ != nullptr && volume_api_->HasPendingWrites()) volume_api_->Settle();
  if (b.nominated_for_expectation && !handler_clears) ApplyExpectationNomination(b);
}

void Replayer::WaitInPreBind(Binding b) {
  const bool first_look = !b.in_pre_bind;
  b.in_pre_bind = true;
  b.complete_ns = clock_.NowNs() + reference::kPreBindPollIntervalNs;
  // A binding cycle that starts waiting lets go: its writes so far reach the informers now, as
  // the adapters deliver a cycle's writes when it returns. At v1.37 that is the nominatedNodeName
  // written before PreBind (the pod is assumed: the queue ignores the update).
  if (first_look && b.nominated_for_expectation) {
    ApplyExpectationNomination(b);
    b.nominated_for_expectation = false;
  }
  bindings_.push_back(std::move(b));
}

void Replayer::ApplyExpectationNomination(const Binding& b) {
  // The patch was written before PreBind; the failure handler read the pod without it (and, the
  // pod having no nomination, wrote none). The informer now delivers it to a pod that is pending
  // again (a pod deleted or recreated meanwhile is not patched).
  auto it = api_pods_.find(b.key);
  if (it == api_pods_.end() || it->second->uid() != b.assumed->uid() ||
      !it->second->node_name().empty() ||
      it->second->obj.status().nominated_node_name() == b.node) {
    return;
  }
  reference::PodPtr old = it->second;
  it->second = WithNomination(*old, b.node);
  UpdatePendingPod(old, it->second);
}

}  // namespace schedcheck::replay
