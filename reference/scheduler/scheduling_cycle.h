// The scheduling cycle around SchedulePod (schedule_one.go schedulingCycle, v1.27): PostFilter
// on a fit error, then assume, Reserve and Permit on success. The Scheduler (scheduler.h) runs it
// inside ScheduleOne and follows it with the binding cycle, or alone for a pod a driver hands it
// (Scheduler::SchedulingCycle: check and explain).
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULING_CYCLE_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULING_CYCLE_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/cache/cache.h"
#include "reference/scheduler/schedule_one.h"

namespace schedcheck::reference {

struct CycleOutcome {
  ScheduleResult result;
  // Success (assumed, bind next), Wait (assumed, waiting on Permit), or the failure: a rejection
  // (Unschedulable / UnschedulableAndUnresolvable) or Error.
  Status status;
  // The FailedScheduling message for a failure (upstream's status message).
  std::string message;
  // Plugins that rejected the pod (from the FitError diagnosis; empty for other failures).
  std::set<std::string> unschedulable_plugins;
  NominatingInfo nominating;
  std::vector<PodPtr> victims;
  std::vector<PodPtr> clear_nomination;  // lower-priority pods whose nomination preemption clears
  PodPtr assumed;                        // the pod with spec.nodeName set, when assumed
  std::map<std::string, int64_t> waits;  // Permit plugin -> timeout, when Wait
};

// REQUIRES: `snapshot` was updated from `cache` for this cycle. `after_schedule_pod`, when set,
// runs right after SchedulePod returns, before PostFilter or assume: where replay delivers the
// events that overlap the attempt (as the kube adapters do, after upstream's SchedulePod), so
// that PostFilter and assume see them in the informers and the cache, not in the snapshot.
// `batch` (v1.37 OpportunisticBatching) goes to SchedulePod.
CycleOutcome RunSchedulingCycle(const Framework& fw, PodScheduler& scheduler, Cache& cache,
                                const Snapshot& snapshot, CycleState& state, const PodPtr& pod,
                                const std::function<void()>& after_schedule_pod = nullptr,
                                const BatchRequest* batch = nullptr);

// The pod as bound to `node` (a copy with spec.nodeName set).
PodPtr WithNodeName(const Pod& pod, const std::string& node);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_SCHEDULING_CYCLE_H_
