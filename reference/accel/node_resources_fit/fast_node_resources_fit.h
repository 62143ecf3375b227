// FastNodeResourcesFit: NodeResourcesFit (plugins/node_resources_fit) for the fast engine. The
// same PreFilter, Filter and Score results, computed with what exists only for speed: batch
// Filter and Score over runs of nodes, per-node results kept across cycles by NodeInfo
// generation (accel/node_memo.h), nodes' room per resource in one record (free_room.h), and
// rejections reused for nodes lacking the same resources (statuses share their reasons).
// fast_node_resources_fit_equivalence_test holds it equal to the plain rule.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_NODE_RESOURCES_FIT_H_
#define SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_NODE_RESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/accel/batch_plugin.h"
#include "reference/accel/node_memo.h"
#include "reference/accel/node_resources_fit/fast_resource_allocation.h"
#include "reference/accel/node_resources_fit/free_room.h"
#include "reference/base/result.h"
#include "reference/framework/handle.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"
#include "reference/plugins/node_resources_fit/node_resources_fit.h"

namespace schedcheck::reference {

class FastNodeResourcesFit final : public PreFilterPlugin,
                                   public FilterPlugin,
                                   public PreScorePlugin,
                                   public ScorePlugin,
                                   public EnqueueExtensions,
                                   public QueueingHintExtensions,
                                   public BatchFilterPlugin,
                                   public BatchScorePlugin {
 public:
  static constexpr std::string_view kName = NodeResourcesFit::kName;

  // The plain factory's argument handling and errors.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  FastNodeResourcesFit(NodeResourcesFitArgs args, const Features& features);

  std::string_view Name() const override { return kName; }
  Status PreFilter(CycleState& state, const Pod& pod, PreFilterResult* result) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) override;
  void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                   std::vector<BatchRejection>* rejected) override;
  // The plain PreScore's: Success, nothing stored.
  Status PreScore(CycleState&, const Pod&, const std::vector<const NodeInfo*>&) override {
    return Status();
  }
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) override;
  Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                    int64_t* scores) override;
  std::vector<ClusterEvent> EventsToRegister() const override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

  // Filter on `node` as it would be with `requested` as its requested resources and `num_pods`
  // pods: what DefaultPreemption's dry run (accel/default_preemption) asks after removing
  // victims and adding nominated pods, without copying the node. The same status as Filter on
  // such a copy (Error without the PreFilter state).
  Status FilterWithRequested(const CycleState& state, const NodeInfo& node,
                             const Resource& requested, int64_t num_pods);

 private:
  // Filter once the request vector is read from the cycle state.
  Status FilterRequest(const Resource& request, const NodeInfo& node);
  // The same, reading the node's room from free_room_memo_ (for requests with scalars).
  Status FilterRequestWithScalars(const Resource& request, const NodeInfo& node);
  // The status for what `request` lacks in `room` (NodeRoom or FreeRoom): Success, or one of the
  // recent rejections, or a new one.
  template <typename Room>
  Status RejectionFor(const Resource& request, const Room& room, const NodeInfo& node);
  // The default configuration (LeastAllocated over cpu then memory), written out.
  Status ScoreLeastAllocatedCpuMemory(const Pod& pod, NodeBatch nodes, int64_t* scores);

  NodeResourcesFitArgs args_;
  Features features_;
  std::vector<ClassifiedResource> resources_;
  ResourceScorerFunc requested_to_capacity_ratio_;  // RequestedToCapacityRatio only
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
  // The names of the lacking resources of the last RejectionFor, reused across calls.
  std::vector<std::string_view> lacking_;
  // Batch results of unchanged nodes from earlier cycles (accel/node_memo.h): whether a request
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
  struct SlotRejection {
    uint64_t lacking = 0;
    bool unresolvable = false;  // v1.37: some request exceeds the node's allocatable
    Status status;
  };
  std::vector<SlotRejection> rejections_by_slots_;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_NODE_RESOURCES_FIT_FAST_NODE_RESOURCES_FIT_H_
