#include "reference/plugins/dynamic_resources/dynamic_resources.h"

#include <string>
#include <utility>

#include "reference/api/selectors.h"
#include "reference/dra/consumable_capacity.h"
#include "reference/dra/prioritized.h"
#include "reference/plugins/dynamic_resources/pod_claims.h"

namespace schedcheck::reference {

Result<std::unique_ptr<Plugin>> DynamicResources::New(const PluginArgs& args,
                                                      const Handle& handle) {
  if (!handle.features.dynamic_resource_allocation) {
    return Error{"DynamicResources: not modelled at compat 1.27 (its feature gate was off)"};
  }
  if (!args.is_null() && !(args.is_object() && args.empty())) {
    return Error{"DynamicResources: takes no arguments"};
  }
  return std::unique_ptr<Plugin>(std::make_unique<DynamicResources>(handle));
}

Status DynamicResources::PreEnqueue(const Pod& pod) {
  if (handle_.objects == nullptr) return Status();
  Result<std::vector<const k8s::ResourceClaim*>> claims = PodResourceClaims(pod, *handle_.objects);
  if (!claims.ok()) return Status(Code::kUnschedulableAndUnresolvable, claims.message());
  return Status();
}

dra::AllocatedState DynamicResources::GatherAllocatedState() const {
  dra::AllocatedState state;
  auto add = [&state](const k8s::AllocationResult& allocation) {
    for (const k8s::DeviceRequestAllocationResult& result : allocation.devices().results()) {
      dra::AddAllocatedDevice(result, state);
    }
  };
  for (const auto& [key, claim] : handle_.objects->resource_claims) {
    if (claim.status().has_allocation() && in_flight_.count(ClaimUid(claim)) == 0) {
      add(claim.status().allocation());
    }
  }
  for (const auto& [uid, claim] : in_flight_) add(claim.status().allocation());
  return state;
}

// validateDeviceClass: a request without a class is an error, one whose class is missing waits
// for a DeviceClass event.
Status DynamicResources::ValidateDeviceClass(const std::string& class_name,
                                             const std::string& request_name) const {
  if (class_name.empty()) {
    return Status::Error("request " + request_name + ": unsupported request type");
  }
  if (ClusterObjects::Find(handle_.objects->device_classes, class_name) == nullptr) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  "request " + request_name + ": device class " + class_name + " does not exist");
  }
  return Status();
}

Status DynamicResources::PreFilter(CycleState& state, const Pod& pod,
                                   [[maybe_unused]] PreFilterResult* result) {
  auto data = std::make_unique<DynamicResourcesState>();
  DynamicResourcesState* s = data.get();
  state.Write(std::string(kStateKey), std::move(data));
  if (pod.obj.spec().resource_claims_size() == 0) return Status(Code::kSkip);
  Result<std::vector<const k8s::ResourceClaim*>> claims = PodResourceClaims(pod, *handle_.objects);
  if (!claims.ok()) return Status(Code::kUnschedulableAndUnresolvable, claims.message());
  if (claims->empty()) return Status(Code::kSkip);

  int to_allocate = 0;
  for (const k8s::ResourceClaim* claim : *claims) {
    s->claims.push_back(*claim);
    DynamicResourcesState::ClaimInfo& info = s->info.emplace_back();
    if (claim->status().has_allocation()) {
      // CanBeReserved is always true at v1.37.2: a claim in use by others may be shared.
      if (claim->status().allocation().has_node_selector()) {
        info.available_on_nodes = claim->status().allocation().node_selector();
      }
      continue;
    }
    ++to_allocate;
    if (in_flight_.count(ClaimUid(*claim)) > 0) {
      return Status(Code::kUnschedulableAndUnresolvable,
                    "resource claim " + ClaimRef(*claim) + " is in the process of being allocated");
    }
    // Every request's class, or every subrequest's of a prioritized list, must exist.
    for (const k8s::DeviceRequest& request : claim->spec().devices().requests()) {
      if (request.has_exactly()) {
        Status status = ValidateDeviceClass(request.exactly().device_class_name(), request.name());
        if (!status.IsSuccess()) return status;
      } else if (request.first_available_size() > 0) {
        for (const k8s::DeviceSubRequest& sub : request.first_available()) {
          Status status = ValidateDeviceClass(sub.device_class_name(),
                                              dra::SubRequestRef(request.name(), sub.name()));
          if (!status.IsSuccess()) return status;
        }
      } else {
        return Status(Code::kUnschedulableAndUnresolvable, "resource claim " + ClaimRef(*claim) +
                                                               ", request " + request.name() +
                                                               ": unknown request type");
      }
    }
  }
  if (to_allocate > 0) {
    std::vector<const k8s::ResourceSlice*> slices;
    for (const auto& [name, slice] : handle_.objects->resource_slices) slices.push_back(&slice);
    s->allocator = std::make_shared<const dra::Allocator>(
        GatherAllocatedState(), handle_.objects->device_classes, std::move(slices), *cel_);
  }
  return Status();
}

Status DynamicResources::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                const NodeInfo& node_info) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->claims.empty()) return Status();
  const k8s::Node& node = node_info.node()->obj;
  std::vector<size_t> unavailable;
  for (size_t i = 0; i < s->claims.size(); ++i) {
    const auto& nodes = s->info[i].available_on_nodes;
    if (nodes.has_value() && !NodeSelectorMatches(*nodes, node)) unavailable.push_back(i);
  }
  std::vector<k8s::AllocationResult> allocations;
  if (s->allocator != nullptr) {
    std::vector<const k8s::ResourceClaim*> to_allocate;
    for (const k8s::ResourceClaim& claim : s->claims) {
      if (!claim.status().has_allocation()) to_allocate.push_back(&claim);
    }
    auto result = s->allocator->Allocate(node, to_allocate);
    if (!result.ok()) {
      // ErrFailedAllocationOnNode: the node is unschedulable, not the cycle in error.
      if (result.message() == dra::kInvalidPoolsError) {
        return Status(Code::kUnschedulableAndUnresolvable, result.message());
      }
      return Status::Error(result.message());
    }
    if (!result->has_value()) {
      return Status(Code::kUnschedulableAndUnresolvable, "cannot allocate all claims");
    }
    allocations = std::move(**result);
  }
  if (!unavailable.empty()) {
    s->unavailable_claims.insert(unavailable.begin(), unavailable.end());
    return Status(Code::kUnschedulableAndUnresolvable, "resourceclaim not available on the node");
  }
  if (s->allocator != nullptr) s->node_allocations[node.metadata().name()] = std::move(allocations);
  return Status();
}

}  // namespace schedcheck::reference
