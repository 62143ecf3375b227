// NodeResourcesFit (noderesources/fit.go, v1.27 and v1.37): PreFilter computes the pod's request
// vector, Filter rejects nodes without room for it (fitsRequest), Score ranks nodes with the
// configured scoring strategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio). Also
// exports Fits(), which the v1.27 scheduling queue's preCheckForNode uses.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/api/objects.h"
#include "reference/base/features.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_resources_fit/resource_allocation.h"

namespace schedcheck::reference {

// kubescheduler.config.k8s.io/v1 NodeResourcesFitArgs after defaulting and validation.
struct NodeResourcesFitArgs {
  std::set<std::string, std::less<>> ignored_resources;
  std::set<std::string, std::less<>> ignored_resource_groups;
  std::string scoring_type = "LeastAllocated";
  std::vector<ResourceSpec> resources = DefaultResourceSpecs();
  std::vector<UtilizationShapePoint> shape;  // RequestedToCapacityRatio only
};

// Decodes (JSON null = defaults), defaults and validates as SetDefaults_NodeResourcesFitArgs and
// ValidateNodeResourcesFitArgs do. Errors name the field.
Result<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const PluginArgs& args,
                                                       const Features& features);

// nodeResourceStrategyTypeMap: the resourceAllocationScorer of the configured strategy.
ResourceAllocationScorer NodeResourceStrategyScorer(const NodeResourcesFitArgs& args);

// One resource the node lacks (InsufficientResource upstream).
struct InsufficientResource {
  std::string resource_name;
  std::string reason;  // "Too many pods", "Insufficient cpu", "Insufficient example.com/gpu"
  int64_t requested = 0;
  int64_t used = 0;
  int64_t capacity = 0;
  // v1.37: the request exceeds the node's allocatable, so freeing the node cannot help
  // (the Filter status becomes UnschedulableAndUnresolvable).
  bool unresolvable = false;
};

// computePodResourceRequest: the request vector PreFilter stores
// (docs/SEMANTICS.md#resource-accounting).
Resource ComputePodResourceRequest(const Pod& pod);

// fitsRequest: every resource `pod_request` does not fit on `node_info`, in upstream's order
// (pods, cpu, memory, ephemeral-storage, then scalar resources, here by name). Extended
// resources named in `ignored_extended_resources` or whose prefix before "/" is in
// `ignored_resource_groups` are not checked. Two changes after v1.27 matter for placement, and
// fit_compares_requested_resources_only (v1.37) switches both on: a cpu, memory or
// ephemeral-storage request of 0 is not compared (v1.28), so a node already over its allocatable
// still takes a pod asking nothing of it; and each insufficient resource says whether its request
// alone exceeds the allocatable (`unresolvable`). Deferred-resize accounting
// (adjustDeltasToAccomodateCacheDiscrepancy) needs the alpha
// InPlacePodVerticalScalingSchedulerPreemption gate, off by default, and no DeviceClass is
// modelled, so no extended resource is delegated to DRA.
std::vector<InsufficientResource> FitsRequest(
    const Resource& pod_request, const NodeInfo& node_info,
    const std::set<std::string, std::less<>>& ignored_extended_resources,
    const std::set<std::string, std::less<>>& ignored_resource_groups, const Features& features);

// Fits: FitsRequest with the pod's request and nothing ignored (the v1.27 queue's preCheck).
std::vector<InsufficientResource> Fits(const Pod& pod, const NodeInfo& node_info,
                                       const Features& features);

class NodeResourcesFit final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions,
                               public QueueingHintExtensions {
 public:
  static constexpr std::string_view kName = "NodeResourcesFit";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodeResourcesFit";

  // preFilterState: what PreFilter leaves for Filter.
  class PreFilterState final : public StateData {
   public:
    explicit PreFilterState(Resource request) : request(std::move(request)) {}
    std::unique_ptr<StateData> Clone() const override {
      return std::make_unique<PreFilterState>(*this);
    }
    Resource request;
  };

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  // `features`: the run's (the pod-resource gates are what the v1.37 scale-down hint reads).
  NodeResourcesFit(NodeResourcesFitArgs args, const Features& features);

  std::string_view Name() const override { return kName; }
  // Always Success (never skips, at either level): stores ComputePodResourceRequest.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  // Unschedulable with one reason per insufficient resource (v1.37: UnschedulableAndUnresolvable
  // when one of them exceeds the allocatable); Error without the PreFilter state.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node_info) override;
  // Always Success, storing nothing. Upstream's PreScore (v1.27 and v1.37) stores the pod's
  // requests for Score, which computes the same numbers itself when the state is missing; Score
  // here always computes them. A PreScore plugin all the same: a profile may list it at
  // preScore, and it runs in upstream's PreScore order.
  Status PreScore(CycleState& state, const Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // No NormalizeScore: the strategy already yields 0..100.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node_info,
               int64_t* score) override;
  // v1.27: Pod Delete; Node Add|Update.
  std::vector<ClusterEvent> EventsToRegister() const override;
  // v1.37 (queueing_hints.cc): AssignedPod Delete; Node Add | UpdateNodeAllocatable; AssignedPod
  // and TargetPod UpdatePodScaleDown.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

 private:
  NodeResourcesFitArgs args_;
  Features features_;
  ResourceAllocationScorer resource_allocation_scorer_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_
