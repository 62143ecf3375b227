// What kube-scheduler itself writes to a pod, for the capture importers (capture.h): those writes
// are the scheduler's decisions, observed, and never inputs of a replay (README.md "watch"). The
// scheduler writes spec.nodeName (the binding), status.nominatedNodeName, the PodScheduled
// condition, and on preemption victims the DisruptionTarget condition (reason
// PreemptionByScheduler) and the deletion mark.
#ifndef SCHEDCHECK_TRACES_IMPORTERS_SCHEDULER_WRITES_H_
#define SCHEDCHECK_TRACES_IMPORTERS_SCHEDULER_WRITES_H_

#include <string>

#include <nlohmann/json.hpp>

#include "traces/trace.pb.h"

namespace schedcheck::trace {

// The scheduler-written fields of one captured pod object.
struct SchedulerFields {
  std::string nominated_node;
  // The PodScheduled condition ("" when absent).
  std::string scheduled_status, scheduled_reason, scheduled_message;
  bool preemption_target = false;  // DisruptionTarget condition with reason PreemptionByScheduler
  bool deleting = false;           // metadata.deletionTimestamp set
};
SchedulerFields SchedulerFieldsOf(const k8s::Pod& pod);

// What to take from the previous input object instead of the captured one.
struct KeepFromInput {
  bool deletion_mark = false;  // a preemption victim's deletionTimestamp
  bool node_name = false;      // the binding (stripped bindings)
  bool status = false;         // the whole status (a pod bound in the capture): the kubelet's
                               // writes about the capture's node; a terminal phase stays
};
// Replaces in `pod` what the scheduler wrote by `input`'s values: status.nominatedNodeName, the
// PodScheduled and preemption's DisruptionTarget conditions, and what `keep` names.
void KeepInputFields(const k8s::Pod& input, const KeepFromInput& keep, k8s::Pod* pod);

// True when the two objects differ in nothing but resourceVersion and condition order.
bool SameInput(const k8s::Pod& a, const k8s::Pod& b);

// core/v1 or events.k8s.io/v1 Events kube-scheduler records about its decisions.
struct SchedulerEvent {
  enum class Reason { kNone, kFailedScheduling, kPreempted, kScheduled };
  Reason reason = Reason::kNone;
  std::string pod;      // "namespace/name" of involvedObject / regarding
  std::string pod_uid;  // its uid, when the reference has one
  std::string related;  // "namespace/name" of related (the preemptor of a Preempted Event)
  std::string message;  // message (core/v1) or note (events.k8s.io/v1)
  // Preempted: the node and the preemptor's uid from the message ("Preempted by a pod on node
  // n1" (v1.27), "Preempted by pod <uid> on node n1" (v1.37)); Scheduled: the node from
  // "Successfully assigned ns/name to n1".
  std::string node, related_uid;
};
// The Event's reason and what it names; Reason::kNone for other Events.
SchedulerEvent ParseSchedulerEvent(const nlohmann::json& event);

}  // namespace schedcheck::trace

#endif  // SCHEDCHECK_TRACES_IMPORTERS_SCHEDULER_WRITES_H_
