// fitsRequest as of v1.37 (noderesources/fit.go at the tag). Two changes from v1.27 matter for
// placement: a resource the pod requests 0 of is never compared (v1.28), so a node already over
// its allocatable still takes a pod that asks nothing of that resource; and an insufficient
// resource whose request alone exceeds the allocatable is unresolvable, which keeps preemption
// from considering that node. Deferred-resize accounting (adjustDeltasToAccomodateCacheDiscrepancy)
// only applies with the alpha InPlacePodVerticalScalingSchedulerPreemption gate, off by default.
#include "reference/base/go_int.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference::v1_37 {

std::vector<InsufficientResource> FitsRequest(
    const Resource& pod_request, const NodeInfo& node_info,
    const std::set<std::string, std::less<>>& ignored_extended_resources,
    const std::set<std::string, std::less<>>& ignored_resource_groups) {
  std::vector<InsufficientResource> insufficient_resources;
  const Resource& allocatable = node_info.allocatable();
  const Resource& requested = node_info.requested();
  const int64_t pods = static_cast<int64_t>(node_info.pods().size());
  if (pods + 1 > allocatable.allowed_pod_number) {
    insufficient_resources.push_back(
        {std::string(kResourcePods), "Too many pods", 1, pods, allocatable.allowed_pod_number});
  }
  if (pod_request.milli_cpu == 0 && pod_request.memory == 0 && pod_request.ephemeral_storage == 0 &&
      pod_request.scalar.empty()) {
    return insufficient_resources;
  }
  if (pod_request.milli_cpu > 0 &&
      pod_request.milli_cpu > GoSub(allocatable.milli_cpu, requested.milli_cpu)) {
    insufficient_resources.push_back(
        {std::string(kResourceCpu), "Insufficient cpu", pod_request.milli_cpu, requested.milli_cpu,
         allocatable.milli_cpu, pod_request.milli_cpu > allocatable.milli_cpu});
  }
  if (pod_request.memory > 0 && pod_request.memory > GoSub(allocatable.memory, requested.memory)) {
    insufficient_resources.push_back({std::string(kResourceMemory), "Insufficient memory",
                                      pod_request.memory, requested.memory, allocatable.memory,
                                      pod_request.memory > allocatable.memory});
  }
  if (pod_request.ephemeral_storage > 0 &&
      pod_request.ephemeral_storage >
          GoSub(allocatable.ephemeral_storage, requested.ephemeral_storage)) {
    insufficient_resources.push_back(
        {std::string(kResourceEphemeralStorage), "Insufficient ephemeral-storage",
         pod_request.ephemeral_storage, requested.ephemeral_storage, allocatable.ephemeral_storage,
         pod_request.ephemeral_storage > allocatable.ephemeral_storage});
  }
  // Upstream walks a Go map here (random order); we walk names in sorted order. No DeviceClass
  // is modelled, so no extended resource is delegated to DRA (shouldDelegateResourceToDRA).
  for (const auto& [r_name, r_quant] : pod_request.scalar) {
    if (r_quant == 0) continue;
    if (IsExtendedResourceName(r_name)) {
      const std::string_view name = r_name;
      const std::string_view r_name_prefix = name.substr(0, name.find('/'));
      if (ignored_extended_resources.count(name) > 0 ||
          ignored_resource_groups.count(r_name_prefix) > 0)
        continue;
    }
    const int64_t node_allocatable = allocatable.Scalar(r_name);
    if (r_quant > GoSub(node_allocatable, requested.Scalar(r_name))) {
      insufficient_resources.push_back({r_name.str(), "Insufficient " + r_name.str(), r_quant,
                                        requested.Scalar(r_name), node_allocatable,
                                        r_quant > node_allocatable});
    }
  }
  return insufficient_resources;
}

}  // namespace schedcheck::reference::v1_37
