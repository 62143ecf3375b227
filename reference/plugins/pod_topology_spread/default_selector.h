// The selector PodTopologySpread gives its default constraints (v1.27
// plugins/helper/spread.go DefaultSelector): the labels required by every Service in the pod's
// namespace whose selector matches the pod, plus the selector of the pod's controlling
// ReplicationController, ReplicaSet or StatefulSet. Internal to the plugin folder.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_DEFAULT_SELECTOR_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_DEFAULT_SELECTOR_H_

#include "reference/api/objects.h"
#include "reference/framework/handle.h"
#include "reference/plugins/pod_topology_spread/common.h"

namespace schedcheck::reference::pod_topology_spread {

// The rule, step by step as upstream:
//  1. Services of the pod's namespace with a non-empty selector that matches the pod's labels
//     contribute their selector maps, merged into one label set (a later Service's value wins on
//     a shared key; Services are taken in name order, where upstream takes its lister's order —
//     two matching Services cannot disagree on a key, so the order only matters in theory).
//  2. The pod's controller (the first ownerReference with controller: true), looked up by name
//     in the pod's namespace:
//       v1 ReplicationController: its selector map merged into the label set (its value wins);
//       apps/v1 ReplicaSet or StatefulSet: its labelSelector's requirements ANDed to the set's
//       (a nil or malformed labelSelector adds nothing);
//     any other owner, or one not found, adds nothing.
// The result is never "nothing"; it is Empty() when no requirement was collected, and then the
// caller applies no default constraint. Every requirement is an AND term (matchExpressions), so
// a key named with two values by two sources keeps both, as upstream's selector does.
SpreadSelector DefaultSelector(const Pod& pod, const ClusterObjects& objects);

}  // namespace schedcheck::reference::pod_topology_spread

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_POD_TOPOLOGY_SPREAD_DEFAULT_SELECTOR_H_
