// Batch forms of Filter and Score, for the fast engine only. None of these is an upstream
// extension point: each gives exactly the results of the per-node Filter / Score (and of
// NormalizeScore) that the plain engine calls, and exists to read a plugin's cycle state once per
// run of nodes instead of once per node. A plugin's accelerated variant implements them; the
// fast runner (accel/fast_runner.h) finds them with dynamic_cast and falls back to the per-node
// calls for plugins that implement none.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_BATCH_PLUGIN_H_
#define SCHEDCHECK_REFERENCE_ACCEL_BATCH_PLUGIN_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "reference/framework/interface.h"

namespace schedcheck::reference {

// A run of nodes that FilterNodes or ScoreNodes handles in one call.
using NodeBatch = std::span<const NodeInfo* const>;

// A node that a batch Filter did not pass: its position in the batch and its status.
struct BatchRejection {
  uint32_t index = 0;
  Status status;
};

// What a batch form gives when computed node by node: the fallback for plugins without one, and
// for a batch that meets a case it does not handle (an error, a missing node).
inline void FilterEachNode(FilterPlugin& plugin, const CycleState& state, const Pod& pod,
                           NodeBatch nodes, std::vector<BatchRejection>* rejected) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    Status s = plugin.Filter(state, pod, *nodes[i]);
    if (!s.IsSuccess()) rejected->push_back({static_cast<uint32_t>(i), std::move(s)});
  }
}

inline Status ScoreEachNode(ScorePlugin& plugin, const CycleState& state, const Pod& pod,
                            NodeBatch nodes, int64_t* scores) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    scores[i] = 0;
    Status s = plugin.Score(state, pod, *nodes[i], &scores[i]);
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

class BatchFilterPlugin {
 public:
  virtual ~BatchFilterPlugin() = default;
  // Appends, in position order, every node of `nodes` whose Filter would not return Success,
  // with that status. Only for snapshot nodes.
  virtual void FilterNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                           std::vector<BatchRejection>* rejected) = 0;
};

class BatchScorePlugin {
 public:
  virtual ~BatchScorePlugin() = default;
  // scores[i] is Score of nodes[i]. On a non-Success the scores are unspecified and the status
  // is some node's error (the runner then finds the first one node by node).
  virtual Status ScoreNodes(const CycleState& state, const Pod& pod, NodeBatch nodes,
                            int64_t* scores) = 0;
};

class UniformScorePlugin {
 public:
  virtual ~UniformScorePlugin() = default;
  // True when PreScore's state shows that Score gives every node the same raw score for this
  // pod (say, the pod has no preferred terms), which is then written to `*score`; the runner
  // fills the column instead of calling Score once per node. Only for feasible, existing nodes.
  virtual bool UniformScore([[maybe_unused]] const CycleState& state,
                            [[maybe_unused]] const Pod& pod,
                            [[maybe_unused]] int64_t* score) const {
    return false;
  }
  // For a plugin with NormalizeScore: what NormalizeScore gives (with Success) every node of a
  // list whose raw scores all equal `uniform`, written to `*normalized`. False: NormalizeScore
  // runs as usual.
  virtual bool UniformNormalizedScore([[maybe_unused]] const CycleState& state,
                                      [[maybe_unused]] const Pod& pod,
                                      [[maybe_unused]] int64_t uniform,
                                      [[maybe_unused]] int64_t* normalized) const {
    return false;
  }
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_BATCH_PLUGIN_H_
