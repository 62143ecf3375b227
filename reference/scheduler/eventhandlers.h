// The informer event handlers' free parts (eventhandlers.go): the watch event kinds, which node
// change moves pods (nodeSchedulingPropertiesChange of v1.27) and preCheckForNode. The handlers
// themselves are Scheduler members (scheduler.h; eventhandlers.cc, eventhandlers_v1_37.cc,
// eventhandlers_storage.cc; docs/SEMANTICS.md#informer-event-handlers-and-precheckfornode).
#ifndef SCHEDCHECK_REFERENCE_SCHEDULER_EVENTHANDLERS_H_
#define SCHEDCHECK_REFERENCE_SCHEDULER_EVENTHANDLERS_H_

#include <optional>

#include "reference/base/features.h"
#include "reference/framework/events.h"
#include "reference/framework/node_info.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// What an informer delivers: an add, an update or a delete of one object.
enum class WatchEvent { kAdded, kModified, kDeleted };

// Which of a node's scheduling properties changed (v1.27 nodeSchedulingPropertiesChange): the
// first applicable of unschedulable → false, allocatable, labels, taints, conditions; null when
// none (no move request).
std::optional<ClusterEvent> NodeUpdateEvent(const k8s::Node& old_node, const k8s::Node& new_node);

// preCheckForNode (v1.27): before a node add/update moves unschedulable pods, only pods that
// could plausibly fit that node are considered. AdmissionCheck (resources with nothing ignored,
// nodeSelector + required node affinity, spec.nodeName, host ports), then no untolerated
// NoSchedule taint (NoExecute is not checked). Resources fit as NodeResourcesFit does under
// `features`.
bool PreCheckForNode(const Pod& pod, const NodeInfo& node, const Features& features);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_SCHEDULER_EVENTHANDLERS_H_
