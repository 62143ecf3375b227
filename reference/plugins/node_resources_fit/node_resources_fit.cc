#include "reference/plugins/node_resources_fit/node_resources_fit.h"

#include <algorithm>

#include <utility>

#include "reference/api/resource.h"
#include "reference/plugins/node_resources_fit/free_room.h"

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

// The walk of fitsRequest: calls `lacking(name, requested, slot)` for every resource `request`
// does not fit into `room` (NodeRoom or FreeRoom), in upstream's order (pods, cpu, memory,
// ephemeral-storage, scalars); `slot` numbers the resources in that order (pods 0, cpu 1, memory
// 2, ephemeral-storage 3, the request's i-th scalar 4 + i), so that for one request a set of
// slots names one list of lacking resources. Allocates nothing, so a rejection can be recognised before any
// reason string is built.
template <typename Room, typename Lacking>
void ForEachInsufficientResource(const Resource& request, const Room& room,
                                 const std::set<std::string, std::less<>>& ignored_resources,
                                 const std::set<std::string, std::less<>>& ignored_groups, Lacking&& lacking) {
  if (room.Pods() < 1) lacking(kResourcePods, 1, 0);
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalar.empty()) {
    return;
  }
  // v1.27 compares even zero requests (a node already over its allocatable rejects a pod
  // requesting 0 of that resource); v1.28 started skipping them.
  if (request.milli_cpu > room.MilliCpu()) lacking(kResourceCpu, request.milli_cpu, 1);
  if (request.memory > room.Memory()) lacking(kResourceMemory, request.memory, 2);
  if (request.ephemeral_storage > room.EphemeralStorage()) {
    lacking(kResourceEphemeralStorage, request.ephemeral_storage, 3);
  }
  // Upstream walks a Go map here (random order); we walk names in sorted order.
  const bool any_ignored = !ignored_resources.empty() || !ignored_groups.empty();
  int slot = 4;
  for (const auto& [name, quantity] : request.scalar) {
    const int this_slot = slot++;
    // A zero scalar request is skipped (it still counts above: the pod's request is not all
    // zero, so cpu, memory and ephemeral storage were compared).
    if (quantity == 0) continue;
    // Only extended resources can be ignored; hugepages and kubernetes.io/* never are.
    if (any_ignored && IsExtendedResourceName(name) &&
        (ignored_resources.count(name.str()) > 0 || ignored_groups.count(ResourceGroup(name)) > 0)) {
      continue;
    }
    if (quantity > room.Scalar(name)) lacking(std::string_view(name), quantity, this_slot);
  }
}

// "Too many pods" for pods, else "Insufficient <name>".
std::string InsufficientReason(std::string_view resource) {
  if (resource == kResourcePods) return "Too many pods";
  return "Insufficient " + std::string(resource);
}

}  // namespace

std::vector<InsufficientResource> FitsRequest(
    const Resource& request, const NodeInfo& node,
    const std::set<std::string, std::less<>>& ignored_resources,
    const std::set<std::string, std::less<>>& ignored_groups) {
  std::vector<InsufficientResource> out;
  ForEachInsufficientResource(request, NodeRoom(node), ignored_resources, ignored_groups,
                              [&](std::string_view name, int64_t requested, int) {
                                const bool pods = name == kResourcePods;
                                const int64_t used = pods ? static_cast<int64_t>(node.pods().size()) : node.requested().Get(name);
                                const int64_t capacity = pods ? node.allocatable().allowed_pod_number : node.allocatable().Get(name);
                                out.push_back({std::string(name), InsufficientReason(name), requested, used, capacity});
                              });
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
    : args_(std::move(args)),
      scorer_(MakeScorer(args_)),
      strategy_(args_.scoring_type == "MostAllocated"              ? Strategy::kMostAllocated
                : args_.scoring_type == "RequestedToCapacityRatio" ? Strategy::kRequestedToCapacityRatio
                                                                   : Strategy::kLeastAllocated) {}

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
  return FilterRequest(s->request, node);
}

void NodeResourcesFit::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                   std::vector<BatchRejection>* rejected) {
  (void)pod;
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    FilterEachNode(*this, state, pod, nodes, rejected);  // the per-node error
    return;
  }
  const Resource& request = s->request;
  // Most nodes have room: the plain compares of fitsRequest for the pods count, cpu, memory and
  // ephemeral storage decide them; a pod with scalar requests, or a node short of something,
  // takes the full walk.
  const bool only_base = request.scalar.empty();
  // The statuses by lacking slots hold for one request only.
  if (!only_base && !(slots_request_ == request)) {
    slots_request_ = request;
    rejections_by_slots_.clear();
  }
  const RequestKey key{request.milli_cpu, request.memory, request.ephemeral_storage};
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeInfo& node = *nodes[i];
    if (only_base) {
      if (const bool* fits = fits_memo_.Find(node, key); fits != nullptr && *fits) continue;
    }
    if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfo(nodes[i + kPrefetchAhead]);
    if (only_base) {
      const NodeRoom room(node);
      const bool fits = room.Pods() >= 1 && request.milli_cpu <= room.MilliCpu() && request.memory <= room.Memory() &&
                        request.ephemeral_storage <= room.EphemeralStorage();
      fits_memo_.Store(node, key, fits);
      if (fits) continue;
    }
    Status status = only_base ? FilterRequest(request, node) : FilterRequestWithScalars(request, node);
    if (!status.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(status)});
  }
}

Status NodeResourcesFit::FilterRequest(const Resource& request, const NodeInfo& node) {
  return RejectionFor(request, NodeRoom(node));
}

Status NodeResourcesFit::FilterRequestWithScalars(const Resource& request, const NodeInfo& node) {
  const FreeRoom& room = free_room_memo_.GetOrStore(node, true, [&] { return FreeRoom(node); });
  if (!room.complete()) return FilterRequest(request, node);
  // The lacking resources as a set of slots: for the request of this cycle, a known set is a
  // known status, found without building the list of names.
  if (request.scalar.size() > kMaxMaskedScalars) return RejectionFor(request, room);
  uint64_t lacking = 0;
  ForEachInsufficientResource(request, room, args_.ignored_resources, args_.ignored_resource_groups,
                              [&](std::string_view, int64_t, int slot) { lacking |= uint64_t{1} << slot; });
  if (lacking == 0) return Status();
  for (const auto& [known, status] : rejections_by_slots_) {
    if (known == lacking) return status;
  }
  Status status = RejectionFor(request, room);
  rejections_by_slots_.emplace_back(lacking, status);
  return status;
}

template <typename Room>
Status NodeResourcesFit::RejectionFor(const Resource& request, const Room& room) {
  // The names of the lacking resources, compared with the last rejection's before any reason
  // string is built: in a full cluster most nodes fail alike.
  static thread_local std::vector<std::string_view> lacking;
  lacking.clear();
  ForEachInsufficientResource(request, room, args_.ignored_resources, args_.ignored_resource_groups,
                              [](std::string_view name, int64_t, int) { lacking.push_back(name); });
  if (lacking.empty()) return Status();
  // The names come from constants and from interned scalar names, so the same resource always
  // has the same text address: comparing addresses suffices (a miss only builds a fresh status).
  auto same_name = [](std::string_view a, std::string_view b) { return a.data() == b.data() && a.size() == b.size(); };
  for (const RecentRejection& r : recent_rejections_) {
    if (std::equal(lacking.begin(), lacking.end(), r.resources.begin(), r.resources.end(), same_name)) return r.status;
  }
  std::vector<std::string> reasons;
  reasons.reserve(lacking.size());
  for (std::string_view name : lacking) reasons.push_back(InsufficientReason(name));
  RecentRejection fresh{std::vector<std::string_view>(lacking.begin(), lacking.end()),
                        Status(Code::kUnschedulable, std::move(reasons))};
  // A handful of distinct rejections cover a cluster; the oldest one makes room.
  if (recent_rejections_.size() == kRecentRejections) recent_rejections_.erase(recent_rejections_.begin());
  recent_rejections_.push_back(std::move(fresh));
  return recent_rejections_.back().status;
}

Status NodeResourcesFit::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                               int64_t* score) {
  (void)state;
  return ScoreResourceAllocation(node, pod, args_.resources, /*use_requested=*/false, scorer_,
                                 score);
}

Status NodeResourcesFit::ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) {
  (void)state;
  const std::vector<ResourceSpec>& resources = args_.resources;
  if (strategy_ == Strategy::kLeastAllocated && IsCpuThenMemory(resources)) {
    // The default configuration, written out: the same arithmetic as WeightedAverageScore over
    // (cpu, memory) with the non-zero requests, without the per-resource arrays.
    const int64_t cpu_weight = resources[0].weight, memory_weight = resources[1].weight;
    const RequestKey key{pod.non_zero_milli_cpu, pod.non_zero_memory, 0};
    for (size_t i = 0; i < nodes.size(); ++i) {
      const NodeInfo& node = *nodes[i];
      if (node.node() == nullptr) return Status::Error("node not found");
      if (const int64_t* score = least_allocated_memo_.Find(node, key)) {
        scores[i] = *score;
        continue;
      }
      if (i + kPrefetchAhead < nodes.size()) PrefetchNodeInfo(nodes[i + kPrefetchAhead]);
      const Resource& alloc = node.allocatable();
      const Resource& used = node.non_zero_requested();
      int64_t sum = 0, weight_sum = 0;
      if (alloc.milli_cpu != 0) {
        sum += LeastRequestedScore(used.milli_cpu + pod.non_zero_milli_cpu, alloc.milli_cpu) * cpu_weight;
        weight_sum += cpu_weight;
      }
      if (alloc.memory != 0) {
        sum += LeastRequestedScore(used.memory + pod.non_zero_memory, alloc.memory) * memory_weight;
        weight_sum += memory_weight;
      }
      scores[i] = weight_sum == 0 ? 0 : sum / weight_sum;
      least_allocated_memo_.Store(node, key, scores[i]);
    }
    return Status();
  }
  switch (strategy_) {
    case Strategy::kLeastAllocated:
      return ScoreResourceAllocationOnNodes(
          nodes, pod, resources, /*use_requested=*/false,
          [&](std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
            return WeightedAverageScore(resources, requested, allocatable, [](int64_t r, int64_t c) { return LeastRequestedScore(r, c); });
          },
          scores);
    case Strategy::kMostAllocated:
      return ScoreResourceAllocationOnNodes(
          nodes, pod, resources, /*use_requested=*/false,
          [&](std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
            return WeightedAverageScore(resources, requested, allocatable, [](int64_t r, int64_t c) { return MostRequestedScore(r, c); });
          },
          scores);
    default:
      return ScoreResourceAllocationOnNodes(nodes, pod, resources, /*use_requested=*/false, scorer_, scores);
  }
}

std::vector<ClusterEvent> NodeResourcesFit::EventsToRegister() const {
  // InPlacePodVerticalScaling is off in v1.27, so pod updates are not registered.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

}  // namespace schedcheck::reference
