// DefaultPreemption for the fast engine: the plain evaluator (plugins/default_preemption) with
// three shortcuts of its dry run over thousands of nodes. A node without a pod of lower priority
// than the preemptor has no victims: its status is given without copying the node and the cycle
// state (NodeInfo keeps the lowest priority of its pods), shared by every such node. The nodes
// where preemption might help are found by walking the nodes in name order along the filter
// statuses (which are in name order too) instead of looking each node up. And the statuses of the
// nodes without a candidate, which serve only the FitError text when there is no candidate at
// all, are counted per reason as they come instead of being put into a node map.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_

#include <memory>
#include <vector>

#include "reference/accel/fit_error_text.h"
#include "reference/plugins/default_preemption/default_preemption.h"

namespace schedcheck::reference {

// NodesWherePreemptionMightHelp (plugins/default_preemption/preemption.h), the same result:
// the nodes in name order (by their snapshot name ranks, or sorted when the nodes are not a
// whole snapshot) walk along `statuses`, one string compare per step. `unhelpful` may be null
// (every node not returned is unhelpful, with the one status).
std::vector<const NodeInfo*> NodesWherePreemptionMightHelpInNameOrder(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful);

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
};

using FastDefaultPreemption = FastDefaultPreemptionOf<DefaultPreemption>;

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
