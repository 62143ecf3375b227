// DynamicResources' Score and NormalizeScore (dynamicresources.go Score, computeScore): a node
// scores by the subrequests of prioritized lists the allocation on it chose, earlier alternatives
// higher.
#include <set>
#include <string>

#include "reference/dra/prioritized.h"
#include "reference/plugins/dynamic_resources/dynamic_resources.h"
#include "reference/plugins/helper/normalize_score.h"

namespace schedcheck::reference {

Result<int64_t> PrioritizedListScore(const std::vector<k8s::ResourceClaim>& claims,
                                     const std::vector<k8s::AllocationResult>& allocations) {
  int64_t score = 0;
  size_t unallocated_index = 0;
  for (const k8s::ResourceClaim& claim : claims) {
    // An allocated claim (shared with a pod scheduled before) counts with its allocation; the
    // others take Filter's allocations in order.
    const k8s::AllocationResult* allocation = nullptr;
    if (claim.status().has_allocation()) {
      allocation = &claim.status().allocation();
    } else {
      if (unallocated_index >= allocations.size()) {
        return Error{"number of allocations " + std::to_string(allocations.size()) +
                     " is smaller than number of claims needing allocation"};
      }
      allocation = &allocations[unallocated_index++];
    }
    std::set<std::string> allocated_sub_requests;
    for (const k8s::DeviceRequestAllocationResult& result : allocation->devices().results()) {
      if (dra::IsSubRequestRef(result.request())) allocated_sub_requests.insert(result.request());
    }
    for (const k8s::DeviceRequest& request : claim.spec().devices().requests()) {
      if (request.has_exactly()) continue;
      for (int i = 0; i < request.first_available_size(); ++i) {
        const std::string ref =
            dra::SubRequestRef(request.name(), request.first_available(i).name());
        if (allocated_sub_requests.count(ref) > 0) {
          score += dra::kFirstAvailableDeviceRequestMaxSize - i;
        }
      }
    }
  }
  return score;
}

Status DynamicResources::Score(const CycleState& state, [[maybe_unused]] const Pod& pod,
                               const NodeInfo& node_info, int64_t* score) {
  *score = 0;
  auto* s = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (s == nullptr) return Status::Error("not found");
  if (s->claims.empty()) return Status();
  auto allocations = s->node_allocations.find(node_info.node()->obj.metadata().name());
  if (allocations == s->node_allocations.end()) return Status();
  Result<int64_t> computed = PrioritizedListScore(s->claims, allocations->second);
  if (!computed.ok()) return Status::Error(computed.message());
  *score = *computed;
  return Status();
}

Status DynamicResources::NormalizeScore([[maybe_unused]] const CycleState& state,
                                        [[maybe_unused]] const Pod& pod, NodeScoreList& scores) {
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

}  // namespace schedcheck::reference
