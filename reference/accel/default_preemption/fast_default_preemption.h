// DefaultPreemption for the fast engine: the plain evaluator (plugins/default_preemption) with
// three shortcuts of its dry run over thousands of nodes. A node without a pod of lower priority
// than the preemptor has no victims: its status is given without copying the node and the cycle
// state (NodeInfo keeps the lowest priority of its pods), shared by every such node. And the
// nodes where preemption might help are found by walking the nodes in name order along the
// filter statuses (which are in name order too) instead of looking each node up. And the dry
// run's statuses are listed, then put into the node map in name order (by name rank) together
// with the unhelpful nodes' statuses, instead of each being looked up in the map as it comes.
#ifndef SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
#define SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_

#include <memory>
#include <vector>

#include "reference/accel/fit_error_text.h"
#include "reference/plugins/default_preemption/default_preemption.h"

namespace schedcheck::reference {

// NodesWherePreemptionMightHelp (plugins/default_preemption/preemption.h), the same result:
// the nodes in name order (by their snapshot name ranks, or sorted when the nodes are not a
// whole snapshot) walk along `statuses`, one string compare per step.
std::vector<const NodeInfo*> NodesWherePreemptionMightHelpInNameOrder(
    const std::vector<const NodeInfo*>& nodes, const NodeToStatus& statuses,
    NodeToStatus* unhelpful);

class FastDefaultPreemption final : public DefaultPreemption {
 public:
  static Result<std::unique_ptr<Plugin>> New(const PluginArgs& args, const Handle& handle);
  using DefaultPreemption::DefaultPreemption;

  NodeVictims SelectVictimsOnNode(
      const CycleState& state, const Pod& pod, const NodeInfo& node,
      const std::vector<const k8s::PodDisruptionBudget*>& pdbs) const override;

 protected:
  std::vector<const NodeInfo*> PotentialNodes(const std::vector<const NodeInfo*>& nodes,
                                              const NodeToStatus& statuses,
                                              NodeToStatus* unhelpful) const override;
  std::string FitErrorText(int num_all_nodes, const Diagnosis& diagnosis) const override {
    return FastFitErrorMessage(num_all_nodes, diagnosis);
  }
  // REQUIRES: `node_statuses` is empty (EvaluatorPreempt's fresh map). Fills it only when no
  // candidate is found, the one case where EvaluatorPreempt reads it.
  std::vector<Candidate> FindCandidates(const CycleState& state, const Pod& pod,
                                        const NodeToStatus& m, NodeToStatus* node_statuses,
                                        std::string* error) const override;
};

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_ACCEL_DEFAULT_PREEMPTION_FAST_DEFAULT_PREEMPTION_H_
