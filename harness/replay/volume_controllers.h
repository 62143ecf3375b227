// The replay's volume controllers (docs/FORMATS.md, "Volume controllers"): what kube-controller-
// manager's PV controller and an external CSI provisioner write in answer to VolumeBinding's
// PreBind writes. Deterministic and immediate; the kube adapters carry the same rules in Go
// (harness/kube/shared/adapterkit/volume_controllers.go), so both builds see the same API events.
#ifndef SCHEDCHECK_HARNESS_REPLAY_VOLUME_CONTROLLERS_H_
#define SCHEDCHECK_HARNESS_REPLAY_VOLUME_CONTROLLERS_H_

#include <vector>

#include "reference/api/selectors.h"
#include "reference/framework/handle.h"
#include "traces/trace.pb.h"

namespace schedcheck::replay {

// The events that answer one write (a PersistentVolume's claimRef, or a claim's selected-node
// annotation), read against `objects` after the write was delivered. `node_labels`: the labels
// of the claim's selected node (null when the node is unknown). Objects carry no resourceVersion:
// the API server stamps them on delivery.
//   - A PV naming a claim that exists, has the claimRef's UID (when set) and is unbound or bound
//     to it: the PV's status.phase Bound (MODIFIED), then the claim bound to it (MODIFIED:
//     spec.volumeName, annotations bind-completed and, when it was unbound, bound-by-controller;
//     status Bound with the PV's access modes and capacity).
//   - A claim with a selected node, no volume yet, a class whose provisioner is not
//     kubernetes.io/no-provisioner, and no PV named pvc-<claim UID> yet: that PV (ADDED, phase
//     Bound; provisioned-by annotation; the claim's request, access modes and volume mode; the
//     class's reclaim policy, Delete by default; a CSI source of the provisioner; node affinity
//     from the topology keys the node's CSINode lists for that driver, each In the node's label
//     value), then the claim bound to it as above.
//   - Anything else: nothing.
std::vector<trace::ApiEvent> VolumeControllerReactions(const trace::ApiEvent& write,
                                                       const reference::ClusterObjects& objects,
                                                       const reference::Labels* node_labels);

}  // namespace schedcheck::replay

#endif  // SCHEDCHECK_HARNESS_REPLAY_VOLUME_CONTROLLERS_H_
