// Traces of pod groups for GenericWorkload (scheduling.k8s.io/v1beta1 PodGroups with a gang
// policy and pods naming them in spec.schedulingGroup): gangs whose minCount is below, at or
// above the pods present, gangs that fit only together, members arriving late, members deleted
// while held or while their gang's cycle is in flight (so that the others wait at Permit until
// GangScheduling's timeout), minCount lowered by a PodGroup update, competing gangs, and
// high-priority gangs that must preempt lower-priority pods. Used by the kube differential test
// (//properties:kube_differential_1_37_test) with `GenericWorkload=true` on both sides.
#ifndef SCHEDCHECK_HARNESS_GENERATORS_GANG_GENERATORS_H_
#define SCHEDCHECK_HARNESS_GENERATORS_GANG_GENERATORS_H_

#include <vector>

#include "rapidcheck.h"
#include "traces/trace.pb.h"

namespace schedcheck::generators {

// 1–3 nodes of 2 or 4 cpus and up to 3 lone filler pods at t = 0, then 1–3 gangs of 1–5 pods of
// 1 or 2 cpus arriving over the first seconds, with the changes above at whole seconds. Times
// never decrease; the last event is before t = 20 s, so a Permit timeout (300 s) falls within the
// default horizon.
rc::Gen<std::vector<trace::Record>> GangTraceGen();

}  // namespace schedcheck::generators

#endif  // SCHEDCHECK_HARNESS_GENERATORS_GANG_GENERATORS_H_
