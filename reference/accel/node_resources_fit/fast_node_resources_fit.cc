#include "reference/accel/node_resources_fit/fast_node_resources_fit.h"

#include <algorithm>
#include <utility>

#include "reference/api/resource.h"
#include "reference/base/go_int.h"

namespace schedcheck::reference {
namespace {

using PreFilterState = NodeResourcesFit::PreFilterState;

// The prefix of an extended resource name ("example.com" of "example.com/gpu").
std::string_view ResourceGroup(std::string_view name) { return name.substr(0, name.find('/')); }

// The walk of FitsRequest (with `requested_only`: fit_compares_requested_resources_only): calls
// `lacking(name, slot, beyond_allocatable)` for every resource `request` does not fit into `room`
// (NodeRoom or FreeRoom), in the plain order (pods, cpu, memory, ephemeral-storage, scalars);
// `slot` numbers the resources in that order (pods 0, cpu 1, memory 2, ephemeral-storage 3, the
// request's i-th scalar 4 + i), so that for one request a set of slots names one list of lacking
// resources; `beyond_allocatable` (requested_only) says the request exceeds the node's whole
// allocatable (the status is then UnschedulableAndUnresolvable). Allocates nothing, so a rejection
// can be recognised before any reason string is built.
template <typename Room, typename Lacking>
void ForEachInsufficientResource(const Resource& request, const Room& room,
                                 const Resource& allocatable, bool requested_only,
                                 const std::set<std::string, std::less<>>& ignored_resources,
                                 const std::set<std::string, std::less<>>& ignored_groups,
                                 Lacking&& lacking) {
  if (room.Pods() < 1) lacking(kResourcePods, 0, false);
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalar.empty()) {
    return;
  }
  // v1.27 compares even zero requests; v1.28 started skipping them.
  auto compared = [&](int64_t r) { return !requested_only || r > 0; };
  if (compared(request.milli_cpu) && request.milli_cpu > room.MilliCpu()) {
    lacking(kResourceCpu, 1, requested_only && request.milli_cpu > allocatable.milli_cpu);
  }
  if (compared(request.memory) && request.memory > room.Memory()) {
    lacking(kResourceMemory, 2, requested_only && request.memory > allocatable.memory);
  }
  if (compared(request.ephemeral_storage) && request.ephemeral_storage > room.EphemeralStorage()) {
    lacking(kResourceEphemeralStorage, 3,
            requested_only && request.ephemeral_storage > allocatable.ephemeral_storage);
  }
  const bool any_ignored = !ignored_resources.empty() || !ignored_groups.empty();
  int slot = 4;
  for (const auto& [name, quantity] : request.scalar) {
    const int this_slot = slot++;
    if (quantity == 0) continue;
    if (any_ignored && IsExtendedResourceName(name) &&
        (ignored_resources.count(name.str()) > 0 ||
         ignored_groups.count(ResourceGroup(name)) > 0)) {
      continue;
    }
    if (quantity > room.Scalar(name)) {
      lacking(std::string_view(name), this_slot,
              requested_only && quantity > allocatable.Scalar(name));
    }
  }
}

// The room of a node whose requested resources and pod count are given apart from it (a dry
// run's): the expressions of NodeRoom over those.
class RequestedRoom {
 public:
  RequestedRoom(const NodeInfo& node, const Resource& requested, int64_t num_pods)
      : allocatable_(node.allocatable()), requested_(requested), num_pods_(num_pods) {}
  int64_t Pods() const { return allocatable_.allowed_pod_number - num_pods_; }
  int64_t MilliCpu() const { return GoSub(allocatable_.milli_cpu, requested_.milli_cpu); }
  int64_t Memory() const { return GoSub(allocatable_.memory, requested_.memory); }
  int64_t EphemeralStorage() const {
    return GoSub(allocatable_.ephemeral_storage, requested_.ephemeral_storage);
  }
  int64_t Scalar(ResourceName name) const {
    return GoSub(allocatable_.Scalar(name), requested_.Scalar(name));
  }

 private:
  const Resource& allocatable_;
  const Resource& requested_;
  int64_t num_pods_;
};

// "Too many pods" for pods, else "Insufficient <name>".
std::string InsufficientReason(std::string_view resource) {
  if (resource == kResourcePods) return "Too many pods";
  return "Insufficient " + std::string(resource);
}

}  // namespace

Result<std::unique_ptr<Plugin>> FastNodeResourcesFit::New(const PluginArgs& args,
                                                          const Handle& handle) {
  Result<NodeResourcesFitArgs> parsed = ParseNodeResourcesFitArgs(args, handle.features);
  if (!parsed.ok()) return Error{"NodeResourcesFit: " + parsed.message()};
  return std::unique_ptr<Plugin>(
      std::make_unique<FastNodeResourcesFit>(std::move(*parsed), handle.features));
}

FastNodeResourcesFit::FastNodeResourcesFit(NodeResourcesFitArgs args, const Features& features)
    : args_(std::move(args)),
      features_(features),
      resources_(ClassifyResources(args_.resources)),
      strategy_(args_.scoring_type == "MostAllocated" ? Strategy::kMostAllocated
                : args_.scoring_type == "RequestedToCapacityRatio"
                    ? Strategy::kRequestedToCapacityRatio
                    : Strategy::kLeastAllocated) {
  if (strategy_ == Strategy::kRequestedToCapacityRatio) {
    requested_to_capacity_ratio_ = RequestedToCapacityRatioScorer(args_.resources, args_.shape);
  }
}

Status FastNodeResourcesFit::PreFilter(CycleState& state, const Pod& pod,
                                       [[maybe_unused]] PreFilterResult* result) {
  state.Write(NodeResourcesFit::kPreFilterStateKey,
              std::make_unique<PreFilterState>(ComputePodResourceRequest(pod)));
  return Status();
}

Status FastNodeResourcesFit::Filter(const CycleState& state, [[maybe_unused]] const Pod& pod,
                                    const NodeInfo& node) {
  const auto* s = state.ReadAs<PreFilterState>(NodeResourcesFit::kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"" + std::string(NodeResourcesFit::kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  return FilterRequest(s->request, node);
}

void FastNodeResourcesFit::FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                                       std::vector<BatchRejection>* rejected) {
  const auto* s = state.ReadAs<PreFilterState>(NodeResourcesFit::kPreFilterStateKey);
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
      // v1.37 does not compare zero requests (a node already over its allocatable still fits).
      const bool skip_zero = features_.fit_compares_requested_resources_only;
      auto fits_in = [&](int64_t r, int64_t free) { return (skip_zero && r == 0) || r <= free; };
      const bool fits = room.Pods() >= 1 && fits_in(request.milli_cpu, room.MilliCpu()) &&
                        fits_in(request.memory, room.Memory()) &&
                        fits_in(request.ephemeral_storage, room.EphemeralStorage());
      fits_memo_.Store(node, key, fits);
      if (fits) continue;
    }
    Status status =
        only_base ? FilterRequest(request, node) : FilterRequestWithScalars(request, node);
    if (!status.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(status)});
  }
}

Status FastNodeResourcesFit::FilterWithRequested(const CycleState& state, const NodeInfo& node,
                                                 const Resource& requested, int64_t num_pods) {
  const auto* s = state.ReadAs<PreFilterState>(NodeResourcesFit::kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"" + std::string(NodeResourcesFit::kPreFilterStateKey) +
                         "\" from cycleState: not found");
  }
  return RejectionFor(s->request, RequestedRoom(node, requested, num_pods), node);
}

Status FastNodeResourcesFit::FilterRequest(const Resource& request, const NodeInfo& node) {
  return RejectionFor(request, NodeRoom(node), node);
}

Status FastNodeResourcesFit::FilterRequestWithScalars(const Resource& request,
                                                      const NodeInfo& node) {
  const FreeRoom& room = free_room_memo_.GetOrStore(node, true, [&] { return FreeRoom(node); });
  if (!room.complete()) return FilterRequest(request, node);
  // The lacking resources as a set of slots: for the request of this cycle, a known set is a
  // known status, found without building the list of names.
  if (request.scalar.size() > kMaxMaskedScalars) return RejectionFor(request, room, node);
  uint64_t lacking = 0;
  bool unresolvable = false;
  ForEachInsufficientResource(request, room, node.allocatable(),
                              features_.fit_compares_requested_resources_only,
                              args_.ignored_resources, args_.ignored_resource_groups,
                              [&](std::string_view, int slot, bool beyond_allocatable) {
                                lacking |= uint64_t{1} << slot;
                                unresolvable = unresolvable || beyond_allocatable;
                              });
  if (lacking == 0) return Status();
  for (const SlotRejection& known : rejections_by_slots_) {
    if (known.lacking == lacking && known.unresolvable == unresolvable) return known.status;
  }
  Status status = RejectionFor(request, room, node);
  rejections_by_slots_.push_back({lacking, unresolvable, status});
  return status;
}

template <typename Room>
Status FastNodeResourcesFit::RejectionFor(const Resource& request, const Room& room,
                                          const NodeInfo& node) {
  // The names of the lacking resources, compared with the last rejections' before any reason
  // string is built: in a full cluster most nodes fail alike.
  lacking_.clear();
  bool unresolvable = false;
  ForEachInsufficientResource(request, room, node.allocatable(),
                              features_.fit_compares_requested_resources_only,
                              args_.ignored_resources, args_.ignored_resource_groups,
                              [&](std::string_view name, int, bool beyond_allocatable) {
                                lacking_.push_back(name);
                                unresolvable = unresolvable || beyond_allocatable;
                              });
  if (lacking_.empty()) return Status();
  const Code code = unresolvable ? Code::kUnschedulableAndUnresolvable : Code::kUnschedulable;
  // The names come from constants and from interned scalar names, so the same resource always
  // has the same text address: comparing addresses suffices (a miss only builds a fresh status).
  auto same_name = [](std::string_view a, std::string_view b) {
    return a.data() == b.data() && a.size() == b.size();
  };
  for (const RecentRejection& r : recent_rejections_) {
    if (r.status.code() == code && std::equal(lacking_.begin(), lacking_.end(), r.resources.begin(),
                                              r.resources.end(), same_name)) {
      return r.status;
    }
  }
  std::vector<std::string> reasons;
  reasons.reserve(lacking_.size());
  for (std::string_view name : lacking_) reasons.push_back(InsufficientReason(name));
  RecentRejection fresh{lacking_, Status(code, std::move(reasons))};
  // A handful of distinct rejections cover a cluster; the oldest one makes room.
  if (recent_rejections_.size() == kRecentRejections)
    recent_rejections_.erase(recent_rejections_.begin());
  recent_rejections_.push_back(std::move(fresh));
  return recent_rejections_.back().status;
}

Status FastNodeResourcesFit::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                   int64_t* score) {
  const NodeInfo* batch[] = {&node};
  Status s = ScoreNodes(state, pod, batch, score);
  if (!s.IsSuccess()) *score = 0;
  return s;
}

Status FastNodeResourcesFit::ScoreNodes([[maybe_unused]] const CycleState& state, const Pod& pod,
                                        NodeBatch nodes, int64_t* scores) {
  switch (strategy_) {
    case Strategy::kLeastAllocated:
      if (IsCpuThenMemory(resources_)) return ScoreLeastAllocatedCpuMemory(pod, nodes, scores);
      return ScoreResourceAllocationOnNodes(
          nodes, pod, resources_, /*use_requested=*/false,
          [&](std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
            return WeightedAverageScore(resources_, requested, allocatable, &LeastRequestedScore);
          },
          scores);
    case Strategy::kMostAllocated:
      return ScoreResourceAllocationOnNodes(
          nodes, pod, resources_, /*use_requested=*/false,
          [&](std::span<const int64_t> requested, std::span<const int64_t> allocatable) {
            return WeightedAverageScore(resources_, requested, allocatable, &MostRequestedScore);
          },
          scores);
    case Strategy::kRequestedToCapacityRatio:
      return ScoreResourceAllocationOnNodes(nodes, pod, resources_, /*use_requested=*/false,
                                            requested_to_capacity_ratio_, scores);
  }
  return Status::Error("unknown scoring strategy");
}

Status FastNodeResourcesFit::ScoreLeastAllocatedCpuMemory(const Pod& pod, NodeBatch nodes,
                                                          int64_t* scores) {
  // The same arithmetic as leastResourceScorer over (cpu, memory) with the non-zero requests,
  // without the per-resource arrays.
  const int64_t cpu_weight = resources_[0].weight, memory_weight = resources_[1].weight;
  const RequestKey key{pod.score_non_zero_milli_cpu, pod.score_non_zero_memory, 0};
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
      sum += LeastRequestedScore(GoAdd(used.milli_cpu, pod.score_non_zero_milli_cpu),
                                 alloc.milli_cpu) *
             cpu_weight;
      weight_sum += cpu_weight;
    }
    if (alloc.memory != 0) {
      sum += LeastRequestedScore(GoAdd(used.memory, pod.score_non_zero_memory), alloc.memory) *
             memory_weight;
      weight_sum += memory_weight;
    }
    scores[i] = weight_sum == 0 ? 0 : sum / weight_sum;
    least_allocated_memo_.Store(node, key, scores[i]);
  }
  return Status();
}

std::vector<ClusterEventWithHint> FastNodeResourcesFit::EventsToRegisterWithHints() const {
  // The plain plugin's registrations (its hints are free functions, so they outlive it).
  return NodeResourcesFit(args_, features_).EventsToRegisterWithHints();
}

std::vector<ClusterEvent> FastNodeResourcesFit::EventsToRegister() const {
  // InPlacePodVerticalScaling is off in v1.27, so pod updates are not registered.
  return {
      {std::string(resource::kPod), action::kDelete, ""},
      {std::string(resource::kNode), action::kAdd | action::kUpdate, ""},
  };
}

}  // namespace schedcheck::reference
