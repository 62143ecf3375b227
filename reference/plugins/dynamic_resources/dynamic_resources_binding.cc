// DynamicResources after Filter: PostFilter's deallocation, Reserve / Unreserve (in-flight
// allocations) and PreBind's claim writes (dynamicresources.go PostFilter,
// deallocateOrDeletePodClaims, Reserve, Unreserve, PreBind, bindClaim).
#include <string>

#include "reference/plugins/dynamic_resources/dynamic_resources.h"
#include "reference/plugins/dynamic_resources/pod_claims.h"

namespace schedcheck::reference {

Status DynamicResources::PostFilter(CycleState& state, const Pod& pod,
                                    [[maybe_unused]] const NodeToStatus& statuses,
                                    [[maybe_unused]] PostFilterResult* result) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->claims.empty()) return Status(Code::kUnschedulable);
  // Upstream walks the unavailable claims in Go map order (random by design); the kube adapter
  // and the reference take them in the pod's claim order.
  for (size_t index : s->unavailable_claims) {
    const k8s::ResourceClaim& claim = s->claims[index];
    const auto& reserved = claim.status().reserved_for();
    if (!reserved.empty() && !(reserved.size() == 1 && reserved[0].uid() == pod.uid())) continue;
    k8s::ResourceClaim deallocated = claim;
    deallocated.mutable_status()->clear_reserved_for();
    deallocated.mutable_status()->clear_allocation();
    deallocated.mutable_status()->clear_devices();
    if (handle_.dra_api == nullptr) return Status::Error("no API server for ResourceClaims");
    auto written = handle_.dra_api->UpdateResourceClaimStatus(deallocated);
    if (!written.ok()) return Status::Error(written.message());
    return Status(Code::kUnschedulable, "deallocation of ResourceClaim completed");
  }
  return Status(Code::kUnschedulable);
}

Status DynamicResources::Reserve(CycleState& state, [[maybe_unused]] const Pod& pod,
                                 const std::string& node) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->claims.empty() || s->allocator == nullptr) return Status();
  size_t to_allocate = 0;
  for (const k8s::ResourceClaim& claim : s->claims) {
    if (!claim.status().has_allocation()) ++to_allocate;
  }
  auto allocations = s->node_allocations.find(node);
  if (allocations == s->node_allocations.end() || allocations->second.empty()) {
    return Status::Error("claim allocation not found for node");
  }
  if (allocations->second.size() != to_allocate) {
    return Status::Error("internal error, have " + std::to_string(allocations->second.size()) +
                         " allocations, " + std::to_string(to_allocate) +
                         " claims to allocate, want " + std::to_string(to_allocate) + " claims");
  }
  size_t next = 0;
  for (size_t i = 0; i < s->claims.size(); ++i) {
    if (s->claims[i].status().has_allocation()) continue;
    const k8s::AllocationResult& allocation = allocations->second[next++];
    s->info[i].allocation = allocation;
    // SignalClaimPendingAllocation: its devices count as allocated for every other pod now.
    k8s::ResourceClaim pending = s->claims[i];
    *pending.mutable_status()->mutable_allocation() = allocation;
    in_flight_[ClaimUid(pending)] = std::move(pending);
  }
  return Status();
}

void DynamicResources::Unreserve(CycleState& state, const Pod& pod,
                                 [[maybe_unused]] const std::string& node) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr || s->claims.empty()) return;
  for (const k8s::ResourceClaim& claim : s->claims) {
    in_flight_.erase(ClaimUid(claim));  // MaybeRemoveClaimPendingAllocation
    if (!claim.status().has_allocation() || !IsReservedForPod(pod, claim)) continue;
    // The strategic-merge patch removing the pod's reservation, against the stored claim.
    const k8s::ResourceClaim* stored =
        ClusterObjects::Find(handle_.objects->resource_claims,
                             claim.metadata().namespace_() + "/" + claim.metadata().name());
    if (stored == nullptr || handle_.dra_api == nullptr) continue;  // upstream logs the error
    k8s::ResourceClaim patched = *stored;
    auto* reserved = patched.mutable_status()->mutable_reserved_for();
    for (int i = reserved->size() - 1; i >= 0; --i) {
      if ((*reserved)[i].uid() == pod.uid()) reserved->DeleteSubrange(i, 1);
    }
    (void)handle_.dra_api->UpdateResourceClaimStatus(patched);
  }
}

Status DynamicResources::PreBindPreFlight(CycleState& state, [[maybe_unused]] const Pod& pod,
                                          [[maybe_unused]] const std::string& node) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->claims.empty()) return Status(Code::kSkip);
  return Status();
}

Status DynamicResources::PreBind(CycleState& state, const Pod& pod,
                                 [[maybe_unused]] const std::string& node) {
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  for (size_t i = 0; i < s->claims.size(); ++i) {
    if (IsReservedForPod(pod, s->claims[i])) continue;
    // bindClaim: against the API server's claim.
    const k8s::ResourceClaim& ours = s->claims[i];
    const std::string ref = ClaimRef(ours);
    const k8s::ResourceClaim* stored = ClusterObjects::Find(handle_.objects->resource_claims, ref);
    if (stored == nullptr || handle_.dra_api == nullptr) {
      return Status::Error("add reservation to claim " + ref +
                           ": resourceclaims.resource.k8s.io \"" + ours.metadata().name() +
                           "\" not found");
    }
    k8s::ResourceClaim claim = *stored;
    if (!claim.metadata().deletion_timestamp().empty()) {
      return Status::Error("claim " + ref + " got deleted in the meantime");
    }
    const auto& allocation = s->info[i].allocation;
    if (allocation.has_value()) {
      if (claim.status().has_allocation()) {
        return Status::Error("claim " + ref + " got allocated elsewhere in the meantime");
      }
      *claim.mutable_status()->mutable_allocation() = *allocation;
    }
    k8s::ResourceClaimConsumerReference* binding = claim.mutable_status()->add_reserved_for();
    binding->set_resource("pods");
    binding->set_name(pod.obj.metadata().name());
    binding->set_uid(pod.uid());
    if (!claim.status().has_allocation()) {
      return Status::Error("claim " + ref + " got deallocated elsewhere in the meantime");
    }
    auto written = handle_.dra_api->UpdateResourceClaimStatus(claim);
    if (!written.ok()) {
      return Status::Error((allocation.has_value() ? "add allocation and reservation to claim "
                                                   : "add reservation to claim ") +
                           ref + ": " + written.message());
    }
    s->claims[i] = std::move(*written);
    if (allocation.has_value()) in_flight_.erase(ClaimUid(s->claims[i]));
  }
  return Status();
}

}  // namespace schedcheck::reference
