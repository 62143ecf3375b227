// NodeAffinityArgs (apis/config NodeAffinityArgs) and the validity rules of
// component-helpers nodeaffinity.NewNodeSelector / NewPreferredSchedulingTerms, which both
// ValidateNodeAffinityArgs and the plugin's score path apply.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_

#include <optional>
#include <string>

#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "reference/k8s/k8s.pb.h"

namespace schedcheck::reference {

struct NodeAffinityArgs {
  // args.addedAffinity; absent = nothing added.
  std::optional<k8s::NodeAffinity> added_affinity;
};

// Parses pluginConfig args (null = defaults). Unknown fields and invalid selector terms are
// errors naming the field, e.g.
// "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values:
// ...".
Result<NodeAffinityArgs> ParseNodeAffinityArgs(const PluginArgs& args);

// The errors of component-helpers' newNodeSelectorTerm for `term`, under the field path `path`
// (e.g. "[0]" for a pod's first preferred term): every matchExpressions entry's
// (NodeSelectorRequirementErrors, values that are not label values among them), then the
// matchFields entries'. Empty when the term parses. `reworded_messages`: the wording of
// apimachinery v0.37 (LabelKeyError).
std::vector<std::string> NodeSelectorTermErrors(const k8s::NodeSelectorTerm& term,
                                                const std::string& path, bool reworded_messages);
// The same aggregated as utilerrors prints them ("" when the term parses), for the plugin args,
// in v0.27's wording at either level as the reference has always worded them (v0.37 differs only
// for over-long keys and values).
std::string NodeSelectorTermError(const k8s::NodeSelectorTerm& term, const std::string& path);

// A term with no matchExpressions and no matchFields (isEmptyNodeSelectorTerm).
bool IsEmptyNodeSelectorTerm(const k8s::NodeSelectorTerm& term);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_
