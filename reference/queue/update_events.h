// How kube-scheduler v1.37 classifies an informer update into cluster events
// (pkg/scheduler/framework/events.go at v1.37.2, default feature gates): which plugins' queueing
// hints an update reaches. v1.27 classifies node updates in the scheduler's event
// handlers (reference/scheduler/eventhandlers.h) and has no pod update events.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_UPDATE_EVENTS_H_
#define SCHEDCHECK_REFERENCE_QUEUE_UPDATE_EVENTS_H_

#include <vector>

#include "reference/api/pod_requests.h"
#include "reference/base/result.h"
#include "reference/framework/events.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// NodeSchedulingPropertiesChange: one Node event per kind of change, in upstream's order:
// spec.unschedulable turned false (UpdateNodeTaint), allocatable (compared as quantities),
// labels, taints, condition statuses by type, annotations, declared features. Empty when none of
// these changed. spec.podPreemptionPolicy (UpdateNodePreemptionPolicy) is not in the schema.
std::vector<ClusterEvent> NodeSchedulingPropertiesChange(const k8s::Node& new_node,
                                                         const k8s::Node& old_node);

// PodSchedulingPropertiesChange: on AssignedPod when the new pod is bound, else on TargetPod
// for the rejected pod itself (`is_target_pod`), else on UnscheduledPod; one event per kind of
// change in upstream's order (labels, requests scaled down, scaled up, every scheduling gate
// removed, tolerations added, status.resourceClaimStatuses or extendedResourceClaimStatus
// changed), or a single Update when none applies. Requests are
// resource.PodRequests with status resources (in-place resize), compared entry by entry; a
// quantity that does not parse is an error. Pod-level status resources count unless
// InPlacePodLevelResourcesVerticalScaling is off in `gates`.
Result<std::vector<ClusterEvent>> PodSchedulingPropertiesChange(const k8s::Pod& new_pod,
                                                                const k8s::Pod& old_pod,
                                                                bool is_target_pod,
                                                                const PodResourceGates& gates = {});

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_UPDATE_EVENTS_H_
