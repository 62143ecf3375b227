// DynamicResources at v1.37.2
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go), for the subset of Dynamic
// Resource Allocation reference/dra models (its README.md): PreEnqueue (the pod's claims exist),
// PreFilter (the pod's claims, allocated ones' node selectors, the allocator for the others),
// Filter through the structured allocator, PostFilter (deallocates the first unavailable claim
// nobody else uses), Reserve / Unreserve with in-flight allocations (upstream's
// SignalClaimPendingAllocation), PreBind writing the claim's allocation and reservation through
// Handle::dra_api, Score (the subrequests of prioritized lists chosen on the node, normalized) and
// the events upstream registers with its QueueingHints. Not built at v1.27, where DRA's gate was
// off.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/result.h"
#include "reference/dra/allocator.h"
#include "reference/framework/registry.h"

namespace schedcheck::reference {

// What PreFilter found, for Filter, Reserve and PreBind (upstream's stateData).
class DynamicResourcesState final : public StateData {
 public:
  struct ClaimInfo {
    std::optional<k8s::NodeSelector> available_on_nodes;  // an allocated claim's nodes
    std::optional<k8s::AllocationResult> allocation;      // set by Reserve
  };
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<DynamicResourcesState>(*this);
  }

  std::vector<k8s::ResourceClaim> claims;           // the pod's, in spec.resourceClaims order
  std::vector<ClaimInfo> info;                      // beside claims
  std::shared_ptr<const dra::Allocator> allocator;  // null: every claim is allocated
  std::set<size_t> unavailable_claims;  // Filter: allocated claims not usable on some node
  // Filter: the allocations of the claims to allocate (in claim order), by node.
  std::map<std::string, std::vector<k8s::AllocationResult>> node_allocations;
};

// computeScore: for each claim of the pod (an allocated one with its own allocation, the others
// with `allocations`, Filter's for them in order), 8 - i for every subrequest i of a prioritized
// list the allocation chose. An Error when `allocations` is short.
Result<int64_t> PrioritizedListScore(const std::vector<k8s::ResourceClaim>& claims,
                                     const std::vector<k8s::AllocationResult>& allocations);

class DynamicResources final : public PreEnqueuePlugin,
                               public PreFilterPlugin,
                               public FilterPlugin,
                               public PostFilterPlugin,
                               public ScorePlugin,
                               public ReservePlugin,
                               public PreBindPlugin,
                               public EnqueueExtensions,
                               public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "DynamicResources";
  static constexpr std::string_view kStateKey = "DynamicResources";
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit DynamicResources(const Handle& handle) : handle_(handle) {}

  std::string_view Name() const override { return kName; }
  // UnschedulableAndUnresolvable with upstream's text while a claim of the pod is missing.
  Status PreEnqueue(const Pod& pod) override;
  // Skip without claims.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  // Error "not found" when PreFilter never ran; else Unschedulable, after deallocating an
  // unavailable claim ("deallocation of ResourceClaim completed").
  Status PostFilter(CycleState& state, const Pod& pod, const NodeToStatus& statuses,
                    PostFilterResult* result) override;
  // computeScore over the allocations Filter found on the node (dynamic_resources_score.cc).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;
  bool HasNormalizeScore() const override { return true; }
  // DefaultNormalizeScore(100, reverse = false).
  Status NormalizeScore(const CycleState& state, const Pod& pod, NodeScoreList& scores) override;
  Status Reserve(CycleState& state, const Pod& pod, const std::string& node) override;
  void Unreserve(CycleState& state, const Pod& pod, const std::string& node) override;
  // Success: nothing to wait for (binding conditions are not modelled), so upstream's
  // PreBindPreFlight answers Success for a pod with claims and Skip without.
  Status PreBindPreFlight(CycleState& state, const Pod& pod, const std::string& node) override;
  Status PreBind(CycleState& state, const Pod& pod, const std::string& node) override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;
  // The same events without their hints (which informer handlers exist).
  std::vector<ClusterEvent> EventsToRegister() const override;

 private:
  // The devices in use: allocated claims' (admin access excepted) and in-flight allocations'.
  dra::AllocatedState GatherAllocatedState() const;
  Status ValidateDeviceClass(const std::string& class_name, const std::string& request_name) const;

  const Handle& handle_;
  std::shared_ptr<dra::CelCache> cel_ = std::make_shared<dra::CelCache>();
  // Claims allocated in Reserve and not yet written in PreBind (upstream's in-flight allocations
  // of the DRA manager's claim tracker), by claim UID.
  std::map<std::string, k8s::ResourceClaim> in_flight_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_DYNAMIC_RESOURCES_DYNAMIC_RESOURCES_H_
