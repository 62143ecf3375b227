// The ResourceClaims of a pod as DynamicResources finds them (upstream's foreachPodResourceClaim
// with resourceclaim.Name and resourceclaim.IsForPod, k8s.io/dynamic-resource-allocation v0.37.2),
// and the claim helpers the plugin shares with its queueing hints.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_POD_CLAIMS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_POD_CLAIMS_H_

#include <string>
#include <vector>

#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/pod_info.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// The pod's claims in spec.resourceClaims order (an entry whose template the controller decided
// needs no claim is skipped). An error is upstream's text: a template's claim not made yet
// (`pod "ns/name": ResourceClaim not created yet`), a claim the lister lacks, one being deleted, a
// template's claim not owned by the pod.
Result<std::vector<const k8s::ResourceClaim*>> PodResourceClaims(const Pod& pod,
                                                                 const ClusterObjects& objects);

// The claim's UID, or the stand-in the kube adapter gives a claim without one
// ("resourceclaim:<namespace>/<name>").
std::string ClaimUid(const k8s::ResourceClaim& claim);

// resourceclaim.IsReservedForPod: some reservedFor entry has the pod's UID.
bool IsReservedForPod(const Pod& pod, const k8s::ResourceClaim& claim);

// klog.KObj: "namespace/name".
std::string ClaimRef(const k8s::ResourceClaim& claim);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_POD_CLAIMS_H_
