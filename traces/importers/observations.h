// The capture importers' last step over pod records (capture.h): everything kube-scheduler wrote
// becomes an observed decision and never an input (README.md "watch"). Bindings, Scheduled and
// FailedScheduling Events, PodScheduled=False conditions, nominatedNodeName changes and
// preemption's victims become Binding, Attempt, Nomination and Preemption records; a pod update
// that carries only such writes is dropped, another loses them (scheduler_writes.h).
#ifndef SCHEDCHECK_TRACES_IMPORTERS_OBSERVATIONS_H_
#define SCHEDCHECK_TRACES_IMPORTERS_OBSERVATIONS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "reference/base/result.h"
#include "traces/importers/imported.h"
#include "traces/importers/scheduler_writes.h"
#include "traces/trace.pb.h"

namespace schedcheck::trace {

class ObservationResolver {
 public:
  // `strip_bindings`: ImportOptions::strip_bindings. Counts go into `imported`'s labels; records
  // to `emit`, in trace order. REQUIRES: `imported` outlives the resolver.
  ObservationResolver(bool strip_bindings, Imported* imported,
                      std::function<Outcome(Record&&)> emit);

  // Before the first record: one of the capture's scheduler Events, wherever it is in the trace
  // (a pod's updates are read knowing whether Events speak for it). `uid` may be empty.
  void NoteEvent(SchedulerEvent::Reason reason, const std::string& pod, const std::string& uid);
  // The next record in trace order: an API event, or an observation an Event gave (an attempt, a
  // preemption whose preemptor may be named by `preemptor_uid` only, a binding).
  Outcome Next(Record&& record, const std::string& preemptor_uid = "");

 private:
  struct PodState {
    bool assigned = false;  // in the capture
    bool stripped = false;  // bound in the capture, binding stripped
    bool victim = false;    // a preemption victim: its deletion mark is the scheduler's
    k8s::Pod input;         // the object as the trace last delivered it
    SchedulerFields seen;   // the scheduler's fields as last captured
  };
  Outcome Observe(Record&& record, const char* label);
  // The observations in a MODIFIED (or repeated ADDED) of a known pod, then what is left of it.
  Outcome Update(PodState& st, Record&& record);
  bool IsPreempted(const std::string& key, const std::string& uid) const;
  bool HasFailedEvents(const std::string& key) const { return failed_event_pods_.count(key) > 0; }

  bool strip_bindings_;
  Imported* imported_;
  std::function<Outcome(Record&&)> emit_;
  std::set<std::string> failed_event_pods_;
  std::set<std::string> preempted_;  // victims of Preempted Events: "uid:<uid>", else the key
  std::map<std::string, PodState> pods_;
  std::set<std::string> bound_observed_;           // pods with a binding record in this life
  std::map<std::string, std::string> pod_of_uid_;  // for Preempted Events naming a uid
  std::map<std::string, int32_t> attempts_;
};

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_OBSERVATIONS_H_
