#include "reference/plugins/node_resources_fit/resource_allocation.h"

#include <algorithm>
#include <utility>

#include "reference/api/resource.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace {

Result<int64_t> IntField(const nlohmann::json& v, const std::string& field) {
  if (!v.is_number_integer()) return Error{field + ": expected an integer, got " + v.dump()};
  return v.get<int64_t>();
}

// Whether `resources` lists the scalar `name` (`_, exists := ScalarResources[name]`).
bool HasScalar(const Resource& resources, std::string_view name) {
  return std::any_of(resources.scalar.begin(), resources.scalar.end(),
                     [&](const auto& entry) { return std::string_view(entry.first) == name; });
}

}  // namespace

std::vector<ResourceSpec> DefaultResourceSpecs() {
  return {{std::string(kResourceCpu), 1}, {std::string(kResourceMemory), 1}};
}

Result<std::vector<ResourceSpec>> ParseResourceSpecs(const nlohmann::json& value,
                                                     const std::string& field) {
  std::vector<ResourceSpec> specs;
  if (!value.is_null() && !value.is_array()) return Error{field + ": expected a list"};
  for (size_t i = 0; value.is_array() && i < value.size(); ++i) {
    const nlohmann::json& item = value[i];
    std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!item.is_object()) return Error{item_field + ": expected an object"};
    ResourceSpec spec;
    for (const auto& [key, v] : item.items()) {
      if (key == "name") {
        if (!v.is_string()) return Error{item_field + ".name: expected a string"};
        spec.name = v.get<std::string>();
      } else if (key == "weight") {
        Result<int64_t> w = IntField(v, item_field + ".weight");
        if (!w.ok()) return w.error();
        spec.weight = *w;
      } else {
        return Error{item_field + "." + key + ": unknown field"};
      }
    }
    // v1 defaulting: an unset (or explicit 0) weight means 1.
    if (spec.weight == 0) spec.weight = 1;
    specs.push_back(std::move(spec));
  }
  if (specs.empty()) specs = DefaultResourceSpecs();
  return specs;
}

// `pod` is only logged upstream.
Status ResourceAllocationScorer::Score([[maybe_unused]] const Pod& pod, const NodeInfo& node_info,
                                       const std::vector<int64_t>& pod_requests,
                                       int64_t* score) const {
  *score = 0;
  if (node_info.node() == nullptr) return Status::Error("node not found");
  // resources not set, nothing scheduled
  if (resources.empty()) return Status::Error("resources not found");
  std::vector<int64_t> requested(resources.size());
  std::vector<int64_t> allocated(resources.size());
  std::vector<int64_t> allocatable(resources.size());
  for (size_t i = 0; i < resources.size(); ++i) {
    AllocatableRequest ar =
        CalculateResourceAllocatableRequest(node_info, resources[i].name, pod_requests[i]);
    // Only fill the extended resource entry when it's non-zero.
    if (ar.allocatable == 0) continue;
    allocatable[i] = ar.allocatable;
    requested[i] = ar.requested;
    allocated[i] = ar.allocated;
  }
  *score = scorer_with_allocated ? scorer_with_allocated(requested, allocated, allocatable)
                                 : scorer(requested, allocatable);
  return Status();
}

AllocatableRequest ResourceAllocationScorer::CalculateResourceAllocatableRequest(
    const NodeInfo& node_info, std::string_view resource, int64_t pod_request) const {
  const Resource& requested =
      use_requested ? node_info.requested() : node_info.non_zero_requested();
  const Resource& allocatable = node_info.allocatable();
  // An extended resource the pod does not request is left out of scoring.
  if (pod_request == 0 && IsScalarResourceName(resource)) return {0, 0, 0};
  auto with_pod = [&](int64_t node_allocatable, int64_t node_requested) {
    return AllocatableRequest{node_allocatable, GoAdd(node_requested, pod_request), node_requested};
  };
  if (resource == kResourceCpu) return with_pod(allocatable.milli_cpu, requested.milli_cpu);
  if (resource == kResourceMemory) return with_pod(allocatable.memory, requested.memory);
  if (resource == kResourceEphemeralStorage) {
    return with_pod(allocatable.ephemeral_storage, node_info.requested().ephemeral_storage);
  }
  if (HasScalar(allocatable, resource)) {
    return with_pod(allocatable.Scalar(resource), node_info.requested().Scalar(resource));
  }
  return {0, 0, 0};  // e.g. "pods": never a scalar resource
}

int64_t ResourceAllocationScorer::CalculatePodResourceRequest(const Pod& pod,
                                                              std::string_view resource) const {
  // Pod::requests is resource.PodRequests; non_zero_* is the same with NonMissingContainerRequests
  // (DefaultMilliCPURequest, DefaultMemoryRequest) for cpu and memory.
  if (resource == kResourceCpu)
    return use_requested ? pod.requests.milli_cpu : pod.score_non_zero_milli_cpu;
  if (resource == kResourceMemory)
    return use_requested ? pod.requests.memory : pod.score_non_zero_memory;
  return pod.requests.Get(resource);
}

std::vector<int64_t> ResourceAllocationScorer::CalculatePodResourceRequestList(
    const Pod& pod, const std::vector<ResourceSpec>& resources) const {
  std::vector<int64_t> pod_requests(resources.size());
  for (size_t i = 0; i < resources.size(); ++i) {
    pod_requests[i] = CalculatePodResourceRequest(pod, resources[i].name);
  }
  return pod_requests;
}

}  // namespace schedcheck::reference
