// preCheckForNode (v1.27 eventhandlers.go,
// docs/SEMANTICS.md#informer-event-handlers-and-precheckfornode): before a node add/update moves
// unschedulable pods, only pods that could plausibly fit that node are considered.
#ifndef SCHEDCHECK_REFERENCE_QUEUE_PRE_CHECK_H_
#define SCHEDCHECK_REFERENCE_QUEUE_PRE_CHECK_H_

#include "reference/framework/node_info.h"

namespace schedcheck::reference {

// AdmissionCheck (resources with nothing ignored, nodeSelector + required node affinity,
// spec.nodeName, host ports), then no untolerated NoSchedule taint (NoExecute is not checked).
bool PreCheckForNode(const Pod& pod, const NodeInfo& node);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_QUEUE_PRE_CHECK_H_
