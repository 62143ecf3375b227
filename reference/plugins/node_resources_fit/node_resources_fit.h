// NodeResourcesFit (noderesources/fit.go, v1.27): PreFilter computes the pod's request vector,
// Filter rejects nodes without room for it (fitsRequest), Score ranks nodes with the configured
// scoring strategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio). Also exports
// Fits(), which the scheduling queue's preCheckForNode uses.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/api/objects.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_memo.h"
#include "reference/plugins/node_resources_fit/free_room.h"
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
Result<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const PluginArgs& args);

// One resource the node lacks (InsufficientResource upstream).
struct InsufficientResource {
  std::string resource_name;
  std::string reason;  // "Too many pods", "Insufficient cpu", "Insufficient example.com/gpu"
  int64_t requested = 0;
  int64_t used = 0;
  int64_t capacity = 0;
};

// fitsRequest: every resource `request` does not fit on `node`, in upstream's order (pods, cpu,
// memory, ephemeral-storage, then scalar resources, here by name). Extended resources named in
// `ignored_resources` or whose prefix before "/" is in `ignored_groups` are not checked.
std::vector<InsufficientResource> FitsRequest(
    const Resource& request, const NodeInfo& node,
    const std::set<std::string, std::less<>>& ignored_resources,
    const std::set<std::string, std::less<>>& ignored_groups);

// Fits: FitsRequest with the pod's effective request and nothing ignored (queue preCheck).
std::vector<InsufficientResource> Fits(const Pod& pod, const NodeInfo& node);

class NodeResourcesFit final : public PreFilterPlugin,
                               public FilterPlugin,
                               public ScorePlugin,
                               public EnqueueExtensions, public BatchFilterPlugin, public BatchScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesFit";
  static constexpr std::string_view kPreFilterStateKey = "PreFilterNodeResourcesFit";

  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  explicit NodeResourcesFit(NodeResourcesFitArgs args);

  std::string_view Name() const override { return kName; }
  // Always Success (v1.27 never skips): stores the request vector of docs/SEMANTICS.md#resource-accounting.
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
  // No NormalizeScore: the strategy already yields 0..100.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes, int64_t* scores) override;
  // v1.27: Pod Delete; Node Add|Update.
  std::vector<ClusterEvent> EventsToRegister() const override;

 private:
  // Filter once the request vector is read from the cycle state.
  Status FilterRequest(const Resource& request, const NodeInfo& node);
  // The same, reading the node's room from free_room_memo_ (for requests with scalars).
  Status FilterRequestWithScalars(const Resource& request, const NodeInfo& node);
  // The status for what `request` lacks in `room` (NodeRoom or FreeRoom): Success, or one of the
  // recent rejections, or a new one.
  template <typename Room>
  Status RejectionFor(const Resource& request, const Room& room);

  NodeResourcesFitArgs args_;
  ResourceScorer scorer_;
  enum class Strategy { kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio };
  Strategy strategy_;
  // Recent rejections by their lacking resources (in order), reused for nodes failing alike
  // (most nodes of a full cluster): copies of a status share its reasons, so such a rejection
  // allocates nothing.
  struct RecentRejection {
    std::vector<std::string_view> resources;  // views of constants and interned names
    Status status;
  };
  static constexpr size_t kRecentRejections = 8;
  std::vector<RecentRejection> recent_rejections_;
  // Batch results of unchanged nodes from earlier cycles (node_memo.h): whether a request
  // without scalars fits, and the default LeastAllocated score, keyed by what the pod brings.
  struct RequestKey {
    int64_t milli_cpu = 0, memory = 0, ephemeral_storage = 0;
    bool operator==(const RequestKey&) const = default;
  };
  NodeMemo<RequestKey, bool> fits_memo_;
  NodeMemo<RequestKey, int64_t> least_allocated_memo_;
  // Nodes' room per resource (free_room.h), for requests with scalars.
  NodeMemo<bool, FreeRoom> free_room_memo_;
  // For requests with scalars: the statuses given in this cycle, by the set of lacking resource
  // slots (see ForEachInsufficientResource), valid for `slots_request_`.
  static constexpr size_t kMaxMaskedScalars = 60;
  Resource slots_request_;
  std::vector<std::pair<uint64_t, Status>> rejections_by_slots_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_RESOURCES_FIT_NODE_RESOURCES_FIT_H_
