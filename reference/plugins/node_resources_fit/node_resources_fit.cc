#include "reference/plugins/node_resources_fit/node_resources_fit.h"

#include <utility>

#include "reference/api/resource.h"

namespace schedcheck::reference {
namespace {

// What PreFilter leaves for Filter: the pod's effective request vector.
class PreFilterState final : public StateData {
 public:
  explicit PreFilterState(Resource request) : request(std::move(request)) {}
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  Resource request;
};

// The scorer for the configured strategy (nodeResourceStrategyTypeMap upstream).
ResourceScorer MakeScorer(const NodeResourcesFitArgs& args) {
  if (args.scoring_type == "MostAllocated") return MostAllocatedScorer(args.resources);
  if (args.scoring_type == "RequestedToCapacityRatio") {
    return RequestedToCapacityRatioScorer(args.resources, args.shape);
  }
  return LeastAllocatedScorer(args.resources);
}

// The prefix of an extended resource name ("example.com" of "example.com/gpu").
std::string_view ResourceGroup(std::string_view name) { return name.substr(0, name.find('/')); }

}  // namespace

std::vector<InsufficientResource> FitsRequest(
    const Resource& request, const NodeInfo& node,
    const std::set<std::string, std::less<>>& ignored_resources,
    const std::set<std::string, std::less<>>& ignored_groups) {
  std::vector<InsufficientResource> out;
  const Resource& alloc = node.allocatable();
  const Resource& used = node.requested();
  int64_t pods = static_cast<int64_t>(node.pods().size());
  if (pods + 1 > alloc.allowed_pod_number) {
    out.push_back({std::string(kResourcePods), "Too many pods", 1, pods, alloc.allowed_pod_number});
  }
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalar.empty()) {
    return out;
  }
  // v1.27 compares even zero requests (a node already over its allocatable rejects a pod
  // requesting 0 of that resource); v1.28 started skipping them.
  if (request.milli_cpu > alloc.milli_cpu - used.milli_cpu) {
    out.push_back({std::string(kResourceCpu), "Insufficient cpu", request.milli_cpu,
                   used.milli_cpu, alloc.milli_cpu});
  }
  if (request.memory > alloc.memory - used.memory) {
    out.push_back({std::string(kResourceMemory), "Insufficient memory", request.memory,
                   used.memory, alloc.memory});
  }
  if (request.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage) {
    out.push_back({std::string(kResourceEphemeralStorage), "Insufficient ephemeral-storage",
                   request.ephemeral_storage, used.ephemeral_storage, alloc.ephemeral_storage});
  }
  // Upstream walks a Go map here (random order); we walk names in sorted order.
  for (const auto& [name, quantity] : request.scalar) {
    // Only extended resources can be ignored; hugepages and kubernetes.io/* never are.
    if (IsExtendedResourceName(name) &&
        (ignored_resources.count(name) > 0 || ignored_groups.count(ResourceGroup(name)) > 0)) {
      continue;
    }
    if (quantity > alloc.Scalar(name) - used.Scalar(name)) {
      out.push_back({name, "Insufficient " + name, quantity, used.Scalar(name), alloc.Scalar(name)});
    }
  }
  return out;
}

std::vector<InsufficientResource> Fits(const Pod& pod, const NodeInfo& node) {
  return FitsRequest(pod.requests, node, {}, {});
}

Result<std::unique_ptr<Plugin>> NodeResourcesFit::New(const PluginArgs& args,
                                                      const Handle& handle) {
  (void)handle;
  Result<NodeResourcesFitArgs> parsed = ParseNodeResourcesFitArgs(args);
  if (!parsed.ok()) return Error{"NodeResourcesFit: " + parsed.message()};
  return std::unique_ptr<Plugin>(std::make_unique<NodeResourcesFit>(std::move(*parsed)));
}

NodeResourcesFit::NodeResourcesFit(NodeResourcesFitArgs args)
    : args_(std::move(args)), scorer_(MakeScorer(args_)) {}

Status NodeResourcesFit::PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) {
  (void)result;
  // Pod::requests is computePodResourceRequest: max(Σ containers, max init) + overhead.
  state.Write(std::string(kPreFilterStateKey), std::make_unique<PreFilterState>(pod.requests));
  return Status();
}

Status NodeResourcesFit::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) {
  (void)pod;
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"" + std::string(kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  std::vector<InsufficientResource> insufficient =
      FitsRequest(s->request, node, args_.ignored_resources, args_.ignored_resource_groups);
  if (insufficient.empty()) return Status();
  std::vector<std::string> reasons;
  reasons.reserve(insufficient.size());
  for (InsufficientResource& r : insufficient) reasons.push_back(std::move(r.reason));
  return Status(Code::kUnschedulable, std::move(reasons));
}

Status NodeResourcesFit::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                               int64_t* score) {
  (void)state;
  return ScoreResourceAllocation(node, pod, args_.resources, /*use_requested=*/false, scorer_,
                                 score);
}

std::vector<ClusterEvent> NodeResourcesFit::EventsToRegister() const {
  // InPlacePodVerticalScaling is off in v1.27, so pod updates are not registered.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

}  // namespace schedcheck::reference
