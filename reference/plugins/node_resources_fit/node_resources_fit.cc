#include "reference/plugins/node_resources_fit/node_resources_fit.h"

#include <utility>

#include "reference/api/resource.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {

ResourceAllocationScorer NodeResourceStrategyScorer(const NodeResourcesFitArgs& args) {
  const std::vector<ResourceSpec>& resources = args.resources;
  if (args.scoring_type == "MostAllocated") {
    return {"MostAllocated", false, MostResourceScorer(resources), resources};
  }
  if (args.scoring_type == "RequestedToCapacityRatio") {
    return {"RequestedToCapacityRatio", false,
            RequestedToCapacityRatioScorer(resources, args.shape), resources};
  }
  return {"LeastAllocated", false, LeastResourceScorer(resources), resources};
}

Result<std::unique_ptr<Plugin>> NodeResourcesFit::New(const PluginArgs& args,
                                                      const Handle& handle) {
  Result<NodeResourcesFitArgs> parsed = ParseNodeResourcesFitArgs(args, handle.features);
  if (!parsed.ok()) return Error{"NodeResourcesFit: " + parsed.message()};
  return std::unique_ptr<Plugin>(
      std::make_unique<NodeResourcesFit>(std::move(*parsed), handle.features));
}

NodeResourcesFit::NodeResourcesFit(NodeResourcesFitArgs args, const Features& features)
    : args_(std::move(args)),
      features_(features),
      resource_allocation_scorer_(NodeResourceStrategyScorer(args_)) {}

Resource ComputePodResourceRequest(const Pod& pod) {
  // resource.PodRequests of the spec: v1.27 max(Σ containers, max init) + overhead; v1.37 with
  // sidecars and pod-level resources (objects.h, Pod::spec_requests).
  return pod.spec_requests;
}

Status NodeResourcesFit::PreFilter(CycleState& state, const Pod& pod,
                                   [[maybe_unused]] PreFilterResult* result) {
  state.Write(kPreFilterStateKey, std::make_unique<PreFilterState>(ComputePodResourceRequest(pod)));
  return Status();
}

Status NodeResourcesFit::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                const NodeInfo& node_info) {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  std::vector<InsufficientResource> insufficient_resources = FitsRequest(
      s->request, node_info, args_.ignored_resources, args_.ignored_resource_groups, features_);
  if (insufficient_resources.empty()) return Status();
  std::vector<std::string> failure_reasons;
  failure_reasons.reserve(insufficient_resources.size());
  Code status_code = Code::kUnschedulable;
  for (const InsufficientResource& r : insufficient_resources) {
    failure_reasons.push_back(r.reason);
    if (r.unresolvable) status_code = Code::kUnschedulableAndUnresolvable;
  }
  return Status(status_code, std::move(failure_reasons));
}

std::vector<InsufficientResource> Fits(const Pod& pod, const NodeInfo& node_info,
                                       const Features& features) {
  return FitsRequest(ComputePodResourceRequest(pod), node_info, {}, {}, features);
}

std::vector<InsufficientResource> FitsRequest(
    const Resource& pod_request, const NodeInfo& node_info,
    const std::set<std::string, std::less<>>& ignored_extended_resources,
    const std::set<std::string, std::less<>>& ignored_resource_groups, const Features& features) {
  // v1.27 compares even zero requests; v1.28 started skipping them, and tells a request beyond
  // the allocatable apart.
  const bool requested_only = features.fit_compares_requested_resources_only;
  auto compared = [&](int64_t request) { return !requested_only || request > 0; };
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
  if (compared(pod_request.milli_cpu) &&
      pod_request.milli_cpu > GoSub(allocatable.milli_cpu, requested.milli_cpu)) {
    insufficient_resources.push_back(
        {std::string(kResourceCpu), "Insufficient cpu", pod_request.milli_cpu, requested.milli_cpu,
         allocatable.milli_cpu, requested_only && pod_request.milli_cpu > allocatable.milli_cpu});
  }
  if (compared(pod_request.memory) &&
      pod_request.memory > GoSub(allocatable.memory, requested.memory)) {
    insufficient_resources.push_back({std::string(kResourceMemory), "Insufficient memory",
                                      pod_request.memory, requested.memory, allocatable.memory,
                                      requested_only && pod_request.memory > allocatable.memory});
  }
  if (compared(pod_request.ephemeral_storage) &&
      pod_request.ephemeral_storage >
          GoSub(allocatable.ephemeral_storage, requested.ephemeral_storage)) {
    insufficient_resources.push_back(
        {std::string(kResourceEphemeralStorage), "Insufficient ephemeral-storage",
         pod_request.ephemeral_storage, requested.ephemeral_storage, allocatable.ephemeral_storage,
         requested_only && pod_request.ephemeral_storage > allocatable.ephemeral_storage});
  }
  // Upstream walks a Go map here (random order); we walk names in sorted order.
  for (const auto& [r_name, r_quant] : pod_request.scalar) {
    // Skip in case request quantity is zero (both levels).
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
                                        requested_only && r_quant > node_allocatable});
    }
  }
  return insufficient_resources;
}

Status NodeResourcesFit::PreScore([[maybe_unused]] CycleState& state,
                                  [[maybe_unused]] const Pod& pod,
                                  [[maybe_unused]] const std::vector<const NodeInfo*>& nodes) {
  return Status();
}

Status NodeResourcesFit::Score([[maybe_unused]] const CycleState& state, const Pod& pod,
                               const NodeInfo& node_info, int64_t* score) {
  // Upstream reads the pod's requests from its PreScore state and computes them when the state
  // is missing; PreScore here stores nothing, so Score always computes them.
  std::vector<int64_t> pod_requests = resource_allocation_scorer_.CalculatePodResourceRequestList(
      pod, resource_allocation_scorer_.resources);
  return resource_allocation_scorer_.Score(pod, node_info, pod_requests, score);
}

std::vector<ClusterEvent> NodeResourcesFit::EventsToRegister() const {
  // InPlacePodVerticalScaling is off in v1.27, so pod updates are not registered.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

}  // namespace schedcheck::reference
