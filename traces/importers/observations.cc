#include "traces/importers/observations.h"

#include <utility>

namespace schedcheck::trace {
namespace {

std::string PodKey(const k8s::Pod& pod) {
  const std::string& ns = pod.metadata().namespace_();
  return (ns.empty() ? "default" : ns) + "/" + pod.metadata().name();
}

Record At(int64_t time_ns) {
  Record r;
  r.set_time_ns(time_ns);
  return r;
}

}  // namespace

ObservationResolver::ObservationResolver(bool strip_bindings, Imported* imported,
                                         std::function<Outcome(Record&&)> emit)
    : strip_bindings_(strip_bindings), imported_(imported), emit_(std::move(emit)) {}

void ObservationResolver::NoteEvent(SchedulerEvent::Reason reason, const std::string& pod,
                                    const std::string& uid) {
  if (reason == SchedulerEvent::Reason::kFailedScheduling) failed_event_pods_.insert(pod);
  if (reason == SchedulerEvent::Reason::kPreempted)
    preempted_.insert(uid.empty() ? pod : "uid:" + uid);
}

bool ObservationResolver::IsPreempted(const std::string& key, const std::string& uid) const {
  return preempted_.count(key) > 0 || (!uid.empty() && preempted_.count("uid:" + uid) > 0);
}

Outcome ObservationResolver::Observe(Record&& record, const char* label) {
  AddToLabel(imported_, label, 1);
  return emit_(std::move(record));
}

Outcome ObservationResolver::Next(Record&& r, const std::string& preemptor_uid) {
  if (r.has_attempt()) {
    r.mutable_attempt()->set_attempt(++attempts_[r.attempt().pod()]);
    return emit_(std::move(r));
  }
  if (r.has_preemption()) {
    Preemption* p = r.mutable_preemption();
    if (p->preemptor().empty() && !preemptor_uid.empty()) {
      if (auto it = pod_of_uid_.find(preemptor_uid); it != pod_of_uid_.end())
        p->set_preemptor(it->second);
    }
    if (auto it = pods_.find(p->victim()); it != pods_.end()) it->second.victim = true;
    return emit_(std::move(r));
  }
  if (r.has_binding()) {  // a Scheduled Event: the pod's own update may have said it first
    if (!bound_observed_.insert(r.binding().pod()).second) return Outcome::Ok();
    return Observe(std::move(r), "observed.bindings");
  }
  if (!r.api().has_pod()) return emit_(std::move(r));
  k8s::Pod* pod = r.mutable_api()->mutable_pod();
  const std::string key = PodKey(*pod);
  if (!pod->metadata().uid().empty()) pod_of_uid_[pod->metadata().uid()] = key;
  auto it = pods_.find(key);
  if (r.api().type() == DELETED) {
    // The deletion of a pod the replay places itself carries no node of the capture.
    if (it != pods_.end() && it->second.stripped) pod->mutable_spec()->clear_node_name();
    pods_.erase(key);
    bound_observed_.erase(key);
    return emit_(std::move(r));
  }
  if (it == pods_.end()) {  // first sighting: the state before the capture, as it was
    PodState& st = pods_[key];
    st.assigned = !pod->spec().node_name().empty();
    st.victim = IsPreempted(key, pod->metadata().uid());
    st.input = *pod;
    st.seen = SchedulerFieldsOf(*pod);
    return emit_(std::move(r));
  }
  return Update(it->second, std::move(r));
}

Outcome ObservationResolver::Update(PodState& st, Record&& r) {
  k8s::Pod* pod = r.mutable_api()->mutable_pod();
  const std::string key = PodKey(*pod);
  // The scheduler's writes since the last capture of the pod: observed decisions.
  const SchedulerFields now = SchedulerFieldsOf(*pod);
  bool binding_write = false;  // the write is the binding (pods/binding writes nothing else)
  if (!st.assigned && !pod->spec().node_name().empty()) {
    binding_write = true;
    st.assigned = true;
    st.stripped = strip_bindings_;
    if (bound_observed_.insert(key).second) {
      Record binding = At(r.time_ns());
      binding.mutable_binding()->set_pod(key);
      binding.mutable_binding()->set_node(pod->spec().node_name());
      binding.mutable_binding()->set_observed(true);
      if (Outcome ok = Observe(std::move(binding), "observed.bindings"); !ok) return ok;
    }
  }
  if (now.nominated_node != st.seen.nominated_node) {
    Record nomination = At(r.time_ns());
    nomination.mutable_nomination()->set_pod(key);
    nomination.mutable_nomination()->set_node(now.nominated_node);
    nomination.mutable_nomination()->set_observed(true);
    if (Outcome ok = Observe(std::move(nomination), "observed.nominations"); !ok) return ok;
  }
  // PodScheduled=False says what a FailedScheduling Event says: an attempt of its own only when
  // the capture holds no such Events for the pod (they expire after an hour).
  if (now.scheduled_status == "False" && !HasFailedEvents(key) &&
      (st.seen.scheduled_status != "False" || st.seen.scheduled_reason != now.scheduled_reason ||
       st.seen.scheduled_message != now.scheduled_message)) {
    Record attempt = At(r.time_ns());
    Attempt* a = attempt.mutable_attempt();
    a->set_pod(key);
    a->set_attempt(++attempts_[key]);
    a->set_result(UNSCHEDULABLE);
    a->set_message(now.scheduled_message);
    a->set_observed(true);
    if (Outcome ok = Observe(std::move(attempt), "observed.unschedulable_conditions"); !ok)
      return ok;
  }
  st.victim |= now.preemption_target;
  if (st.victim && now.deleting && !st.seen.deleting && !IsPreempted(key, pod->metadata().uid())) {
    Record preemption = At(r.time_ns());
    preemption.mutable_preemption()->set_victim(key);
    preemption.mutable_preemption()->set_node(pod->spec().node_name());
    preemption.mutable_preemption()->set_observed(true);
    if (Outcome ok = Observe(std::move(preemption), "observed.victim_marks"); !ok) return ok;
  }
  st.seen = now;
  // What is left is the input: nothing, or the update without the scheduler's writes.
  KeepInputFields(
      st.input, {.deletion_mark = st.victim, .node_name = st.stripped, .status = st.stripped}, pod);
  if ((binding_write && st.stripped) || SameInput(*pod, st.input)) {
    AddToLabel(imported_, st.stripped ? "stripped.updates" : "dropped.scheduler_writes", 1);
    return Outcome::Ok();
  }
  st.input = *pod;
  return emit_(std::move(r));
}

}  // namespace schedcheck::trace
