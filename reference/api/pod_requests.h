// A pod's resource requests as newer kube-schedulers compute them: component-helpers
// resource.PodRequests at v1.37 (sidecar containers, pod-level resources, in-place resize status)
// and the scheduler's PodInfo.CalculateResource built on it. The v1.27 rule (max of the
// containers' sum and each init container, plus overhead) stays in objects.cc's BuildPod.
#ifndef SCHEDCHECK_REFERENCE_API_POD_REQUESTS_H_
#define SCHEDCHECK_REFERENCE_API_POD_REQUESTS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "reference/api/resource.h"
#include "reference/base/feature_gates.h"
#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

// v1.ResourceList in the units the scheduler reads: cpu in millicores, everything else in
// rounded-up whole units. A name present with 0 differs from an absent one, as in Go.
using ResourceList = std::map<std::string, int64_t, std::less<>>;

// list[name] as Go reads a map: 0 when absent.
int64_t ValueOf(const ResourceList& list, std::string_view name);

// resource.PodResourcesOptions, the fields the scheduler sets.
struct PodResourcesOptions {
  // Count max(spec, allocated, actuated) per container (InPlacePodVerticalScaling, GA).
  bool use_status_resources = false;
  // Pod-level status resources too (InPlacePodLevelResourcesVerticalScaling, beta in 1.36).
  bool in_place_pod_level_resources_vertical_scaling_enabled = false;
  // Added to a container for each of these resources it does not request.
  ResourceList non_missing_container_requests;
  bool skip_pod_level_resources = false;
};

// resource.PodRequests: containers (sidecars added to the sum and to later init containers),
// init containers as a maximum, pod-level requests replacing cpu / memory / hugepages, then the
// overhead. Quantities that do not parse, or are negative, are errors naming the field.
Result<ResourceList> PodRequests(const k8s::Pod& pod, const PodResourcesOptions& opts);

// resource.IsPodLevelRequestsSet: spec.resources.requests names cpu, memory or hugepages-*.
bool IsPodLevelRequestsSet(const k8s::Pod& pod);
// resource.IsPodResizeInfeasible: the PodResizePending condition says Infeasible.
bool IsPodResizeInfeasible(const k8s::Pod& pod);

// framework.Resource.SetMaxResource on an empty Resource: cpu, memory, ephemeral-storage and the
// scalar resources of `list` (zero entries kept); other names (e.g. "pods") dropped.
Resource ResourceFromList(const ResourceList& list);

// The v1.37.2 feature gates (both beta, on by default) that change how the scheduler counts a
// pod's requests: off, PodLevelResources ignores spec.resources (PodInfo, NodeResourcesFit's
// PreFilter and its node hint, BalancedAllocation), and InPlacePodLevelResourcesVerticalScaling
// ignores the pod-level status resources (PodInfo, BalancedAllocation, the scale-down and
// scale-up event classification and NodeResourcesFit's scale-down hint).
struct PodResourceGates {
  bool pod_level_resources = true;
  bool in_place_pod_level_resources_vertical_scaling = true;
};
// The two gates' values in a run that sets `gates` (at v1.37).
PodResourceGates PodResourceGatesFrom(const FeatureGates& gates);
// The two gates' values in a run with `features`.
PodResourceGates PodResourceGatesOf(const Features& features);

// PodInfo.CalculateResource at v1.37: the requests a NodeInfo adds for the pod (status-aware)
// and the non-zero cpu / memory it scores with (getNonMissingContainerRequests).
struct PodResource {
  Resource resource;
  int64_t non0_cpu = 0;
  int64_t non0_mem = 0;
};
Result<PodResource> CalculateResource(const k8s::Pod& pod, const PodResourceGates& gates = {});

// The options PodInfo.CalculateResource passes at v1.37 under `gates`.
PodResourcesOptions SchedulerPodResourcesOptions(const PodResourceGates& gates = {});

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_API_POD_REQUESTS_H_
