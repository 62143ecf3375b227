// NodeAffinityArgs (apis/config NodeAffinityArgs) and the validity rules of
// component-helpers nodeaffinity.NewNodeSelector / NewPreferredSchedulingTerms, which both
// ValidateNodeAffinityArgs and the plugin's score path apply.
#ifndef SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_
#define SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_

#include <optional>
#include <string>

#include "reference/base/result.h"
#include "reference/framework/registry.h"
#include "traces/k8s.pb.h"

namespace schedcheck::reference {

struct NodeAffinityArgs {
  // args.addedAffinity; absent = nothing added.
  std::optional<k8s::NodeAffinity> added_affinity;
};

// Parses pluginConfig args (null = defaults). Unknown fields and invalid selector terms are
// errors naming the field, e.g.
// "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: ...".
Result<NodeAffinityArgs> ParseNodeAffinityArgs(const PluginArgs& args);

// Empty when the term parses (nodeaffinity.parseNodeSelectorTerm); otherwise the first problem,
// prefixed with `path`.
std::string NodeSelectorTermError(const k8s::NodeSelectorTerm& term, const std::string& path);

// A term with no matchExpressions and no matchFields (isEmptyNodeSelectorTerm).
bool IsEmptyNodeSelectorTerm(const k8s::NodeSelectorTerm& term);

}  // namespace schedcheck::reference

#endif  // SCHEDCHECK_REFERENCE_PLUGINS_NODE_AFFINITY_NODE_AFFINITY_ARGS_H_
