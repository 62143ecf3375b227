// The Scheduler's ScheduleOne (schedule_one.go) in the steps the driver calls: pop and the
// scheduling cycle (RunSchedulingCycle, scheduling_cycle.h), then its outcome:
// handleSchedulingFailure with preemption's API effects, or a binding cycle to run
// (schedule_one_binding.cc).
#include <algorithm>

#include "reference/scheduler/scheduler.h"

namespace schedcheck::reference {
namespace {

// The pod as the API server holds it after a status patch of nominatedNodeName.
PodPtr WithNomination(const Pod& pod, const std::string& node) {
  auto copy = std::make_shared<Pod>(pod);
  copy->obj.mutable_status()->set_nominated_node_name(node);
  const std::string& rv = pod.obj.metadata().resource_version();
  copy->obj.mutable_metadata()->set_resource_version(rv + "+nominated");
  return copy;
}

}  // namespace

bool Scheduler::StartSchedulingCycle(const std::function<void()>& after_schedule_pod) {
  while (true) {
    std::optional<QueuedPodInfo> info = queue_->Pop();
    if (!info) return false;
    const PodPtr& pod = info->info->pod;
    Profile* profile = ProfileFor(*pod);
    // Dropped without an attempt: no profile, terminating, or a stale copy of an assumed pod.
    if (profile == nullptr || pod->terminating() || cache_.IsAssumedPod(pod->uid())) {
      queue_->Done(*pod);
      continue;
    }
    cache_.UpdateSnapshot(&snapshot_);
    auto flight = std::make_unique<InFlight>();
    flight->info = *info;
    flight->profile = profile;
    flight->state = std::make_unique<CycleState>();
    std::optional<BatchRequest> batch;
    if (profile->batch) {
      batch = BatchRequest{profile->batch.get(), info->signature, queue_->SchedulingCycle(),
                           clock_.NowNs()};
    }
    flight->outcome =
        RunSchedulingCycle(*profile->framework, *options_.pod_scheduler, cache_, snapshot_,
                           *flight->state, pod, after_schedule_pod, batch ? &*batch : nullptr);
    in_flight_ = std::move(flight);
    return true;
  }
}

ScheduleResult Scheduler::SchedulePod(CycleState& state, const Pod& pod) {
  cache_.UpdateSnapshot(&snapshot_);
  return options_.pod_scheduler->SchedulePod(*ProfileFor(pod)->framework, state, pod, snapshot_);
}

CycleOutcome Scheduler::SchedulingCycle(CycleState& state, const PodPtr& pod) {
  cache_.UpdateSnapshot(&snapshot_);
  CycleOutcome outcome = RunSchedulingCycle(*ProfileFor(*pod)->framework, *options_.pod_scheduler,
                                            cache_, snapshot_, state, pod);
  if (outcome.status.IsSuccess() || outcome.status.IsWait()) {
    queue_->nominator().DeleteNominatedPodIfExists(*pod);  // assume's
  }
  return outcome;
}

void Scheduler::ReportAttempt(const QueuedPodInfo& info, const CycleOutcome& outcome) {
  if (listener_.attempt) listener_.attempt(info, outcome);
}

void Scheduler::FinishSchedulingCycle() {
  std::unique_ptr<InFlight> flight = std::move(in_flight_);
  const CycleOutcome& outcome = flight->outcome;
  ReportAttempt(flight->info, outcome);
  const PodPtr& pod = flight->info.info->pod;
  if (outcome.status.IsSuccess() || outcome.status.IsWait()) {
    queue_->nominator().DeleteNominatedPodIfExists(*pod);  // assumed: no longer nominated anywhere
    Binding b;
    b.key = pod->key;
    b.assumed = outcome.assumed;
    b.node = outcome.result.node;
    b.state = std::shared_ptr<CycleState>(std::move(flight->state));
    b.profile = flight->profile;
    b.info = flight->info;
    b.due_ns = clock_.NowNs() + options_.bind_latency_ns;
    b.bind_due_ns = b.due_ns;
    if (outcome.status.IsWait()) {
      // WaitOnPermit: the binding runs when the last plugin allows it, or is rejected when the
      // first pending plugin's timeout fires.
      b.pending_waits = outcome.waits;
      b.wait_start_ns = clock_.NowNs();
      UpdateWait(&b);
    }
    // With NominatedNodeNameForExpectation off, v1.37 runs no PreBindPreFlight (so no PreBind
    // plugin is skipped) and writes no nomination before Permit and PreBind.
    if (features_.nominated_node_name_for_expectation) {
      b.pre_flight = flight->profile->framework->RunPreBindPreFlights(*b.state, *b.assumed, b.node);
      b.nominated_for_expectation = !b.pre_flight.IsRejected() &&
                                    b.pre_flight.code() != Code::kError &&
                                    (b.pre_flight.IsSuccess() || outcome.status.IsWait());
    }
    bindings_.push_back(std::move(b));
    return;
  }
  // The victims' deletions reach the informer after the failure handler has requeued the
  // preemptor (upstream deletes through the API; the watch events arrive asynchronously).
  HandleSchedulingFailure(flight->info, outcome);
  // DynamicResources' claim writes (PostFilter's deallocation, Unreserve's) reach the informer
  // after the failure handling.
  DeliverClaimWrites();
  ApplyPreemption(*pod, outcome);
}

void Scheduler::PatchNomination(const std::string& key, const std::string& node) {
  auto it = pods_.find(key);
  PodPtr old = it->second;
  it->second = WithNomination(*old, node);
  UpdatePodInSchedulingQueue(old, it->second);
}

void Scheduler::ApplyPreemption(const Pod& preemptor, const CycleOutcome& outcome) {
  auto delete_victims = [&] {
    for (const PodPtr& victim : outcome.victims) {
      auto it = pods_.find(victim->key);
      if (it != pods_.end()) OnPod(WatchEvent::kDeleted, it->second);
    }
  };
  auto clear_nominations = [&] {
    for (const PodPtr& p : outcome.clear_nomination) {
      auto it = pods_.find(p->key);
      if (it == pods_.end() || it->second->obj.status().nominated_node_name().empty()) continue;
      PatchNomination(p->key, "");
    }
  };
  if (features_.scheduler_async_preemption) {
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

void Scheduler::HandleSchedulingFailure(const QueuedPodInfo& failed, const CycleOutcome& outcome) {
  const std::string& key = failed.info->pod->key;
  auto it = pods_.find(key);
  if (it == pods_.end() || !it->second->node_name().empty()) {
    queue_->Done(*failed.info->pod);  // deleted or bound meanwhile: not requeued
    return;
  }
  if (features_.failure_handler_skips_recreated_pod &&
      it->second->uid() != failed.info->pod->uid()) {
    queue_->Done(*failed.info->pod);  // recreated meanwhile, neither requeued nor patched
    return;
  }
  QueuedPodInfo info = failed;
  info.info = MakePodInfo(it->second);
  info.unschedulable_plugins = outcome.unschedulable_plugins;
  info.pending_plugins.clear();
  (void)queue_->AddUnschedulableIfNotPresent(info, queue_->SchedulingCycle());
  std::optional<NominatingInfo> nominating;
  if (outcome.nominating.mode == NominatingInfo::Mode::kOverride) nominating = outcome.nominating;
  queue_->nominator().AddNominatedPod(info.info, nominating);
  // The status patch of nominatedNodeName, seen back as an update of the pending pod.
  if (nominating &&
      nominating->nominated_node_name != it->second->obj.status().nominated_node_name()) {
    PatchNomination(key, nominating->nominated_node_name);
  }
}

}  // namespace schedcheck::reference
