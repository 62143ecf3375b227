// DefaultPreemption for the fast engine: the plain evaluator (plugins/default_preemption) with
// three shortcuts of its dry run over thousands of nodes. A node without a pod of lower priority
// than the preemptor has no victims: its status is given without copying the node and the cycle
// state (NodeInfo keeps the lowest priority of its pods), shared by every such node. The nodes
// where preemption might help are found by walking the nodes in name order along the filter
// statuses (which are in name order too) instead of looking each node up. And the statuses of the
// nodes without a candidate, which serve only the FitError text when there is no candidate at
// all, are counted per reason as they come instead of being put into a node map.
//
// The dry run itself (SelectVictimsOnNode) runs on no copy at all when the attempt's filters
// allow it (FastDryRunPlan): when every filter that runs is either blind to the node's pods (it
// reads only the node, or the pod asks nothing that pods on the node could change: no host
// ports, no volumes, no DoNotSchedule spread constraint) or NodeResourcesFit, removing and
// putting back victims and adding nominated pods only moves the node's requested resources and
// pod count. Those two numbers are kept beside the node, the pod-blind filters run once on the
// node itself, and NodeResourcesFit's Filter is asked with the numbers (FilterWithRequested).
// Any other filter, or a filter error, and the node gets the plain dry run.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/accel/fit_error_text.h"
#include "reference/accel/node_resources_fit/fast_node_resources_fit.h"
#include "reference/plugins/default_preemption/default_preemption.h"

namespace schedcheck::reference {

// NodesWherePreemptionMightHelp (plugins/default_preemption/preemption.h), the same result:
// the nodes in name order (by their snapshot name ranks, or sorted when the nodes are not a
// whole snapshot) walk along `statuses`, one string compare per step. `unhelpful` may be null
// (every node not returned is unhelpful, with the one status).
std::vector<const NodeInfo*> NodesWherePreemptionMightHelpInNameOrder(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful);

// What the fast dry run needs of one preemption attempt's filters. `usable` is false when some
// filter that runs may see the node's pods other than through NodeResourcesFit, or some
// PreFilter extension that runs belongs to such a filter.
struct FastDryRunPlan {
  struct Step {
    FilterPlugin* plugin = nullptr;
    FastNodeResourcesFit* fit = nullptr;  // set for NodeResourcesFit, null for a pod-blind filter
    const std::string* name = nullptr;    // interned, for the statuses
  };
  bool usable = false;
  std::vector<Step> steps;  // the filters that may reject, in run order
};
// The plan for `pod` in the cycle of `state` under the framework of `handle` (null or not a
// Framework: not usable).
FastDryRunPlan PlanFastDryRun(const Handle& handle, const CycleState& state, const Pod& pod);

// Over DefaultPreemption (v1.27) and over DefaultPreemptionV1_37 (whose PreEnqueue holds a pod
// back while its preemption runs); the shortcuts follow the handle's level.
template <class PlainDefaultPreemption>
class FastDefaultPreemptionOf final : public PlainDefaultPreemption {
 public:
  // FastDefaultPreemptionOf<DefaultPreemptionV1_37> at v1.37, else over DefaultPreemption.
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  using PlainDefaultPreemption::PlainDefaultPreemption;

  NodeVictims SelectVictimsOnNode(
      const CycleState& state, const Pod& pod, const NodeInfo& node,
      const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const override;

 protected:
  std::vector<Candidate> FindCandidatesOrFitError(const CycleState& state, const Pod& pod,
                                                  const NodeToStatus& m, std::string* fit_error,
                                                  std::string* error) const override;

 private:
  // The dry run without copies (see above); nullopt when `node` needs the plain one (decided
  // before anything is read, so the plain one then reads the clock as it would have).
  std::optional<NodeVictims> SelectVictimsWithoutCopies(
      const FastDryRunPlan& plan, const CycleState& state, const Pod& pod, const NodeInfo& node,
      const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const;

  // The plan of the attempt FindCandidatesOrFitError is running, for its (state, pod); other
  // callers of SelectVictimsOnNode get the plain dry run.
  mutable FastDryRunPlan plan_;
  mutable const CycleState* plan_state_ = nullptr;
  mutable const Pod* plan_pod_ = nullptr;
};

using FastDefaultPreemption = FastDefaultPreemptionOf<DefaultPreemption>;

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
