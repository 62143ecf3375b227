// Test helpers: Kubernetes objects from inline YAML, NodeInfos and snapshots from them. Abort
// (with the parse error) on malformed input, so a broken fixture fails loudly.
#ifndef SCHEDCHECK_REFERENCE_TESTING_OBJECTS_H_
#define SCHEDCHECK_REFERENCE_TESTING_OBJECTS_H_

#include <memory>
#include <string_view>
#include <vector>

#include "reference/api/objects.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"

namespace schedcheck::reference::testing {

// e.g. ParsePod("metadata: {name: p}\nspec: {containers: [{resources: {requests: {cpu: 1}}}]}")
// `level`: the release whose rules compute the pod's requests (BuildPod, at the level's
// default feature gates).
PodPtr ParsePod(std::string_view yaml, CompatLevel level);
NodePtr ParseNode(std::string_view yaml);

// A NodeInfo for `node` holding `pods` (their spec.nodeName is not checked).
std::shared_ptr<NodeInfo> MakeNodeInfo(NodePtr node, const std::vector<PodPtr>& pods = {});

// A snapshot of nodes, in the given order, with each pod placed on the node named by its
// spec.nodeName (pods naming an unknown node abort).
Snapshot MakeSnapshot(const std::vector<NodePtr>& nodes, const std::vector<PodPtr>& pods = {});

}  // namespace schedcheck::reference::testing

#endif  // SCHEDCHECK_REFERENCE_TESTING_OBJECTS_H_
