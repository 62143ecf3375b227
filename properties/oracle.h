// Independent oracles for the Filter plugins of the v1.27 default profile, written from the
// upstream semantics (docs/SEMANTICS.md: the plugin sections and #resource-accounting) without
// calling the reference's plugin or selector code,
// for the vocabulary the generators produce (no hostIP, no namespaceSelector, no matchFields, no
// minDomains, default spread policies). They work on plain Kubernetes objects, so a bug planted
// in a reference plugin, in NodeInfo aggregates or in quantity parsing shows up as a
// disagreement. testonly.
#ifndef SCHEDCHECK_PROPERTIES_ORACLE_H_
#define SCHEDCHECK_PROPERTIES_ORACLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference/k8s/k8s.pb.h"

namespace schedcheck::properties {

// Nodes and the pods bound to them (spec.nodeName set; pods naming an absent node are ignored).
struct ClusterState {
  std::vector<k8s::Node> nodes;
  std::vector<k8s::Pod> bound;
  const k8s::Node* FindNode(const std::string& name) const;
};

// Quantities of the generators' vocabulary ("100m", "2", "512Mi", "1Gi", "1.5"): cpu in
// millicores, everything else in units. Aborts on anything else (a generator bug).
int64_t OracleQuantity(const std::string& resource, const std::string& text);

// Effective request of `resource`: max(sum of containers, max of init containers) + overhead.
int64_t OracleRequest(const k8s::Pod& pod, const std::string& resource);

// Each returns "" when `pod` may be placed on `node` according to that plugin's Filter, or
// a short reason. `node` must be in `state`.
std::string OracleNodeResourcesFit(const ClusterState& state, const k8s::Pod& pod,
                                   const std::string& node);
std::string OracleNodePorts(const ClusterState& state, const k8s::Pod& pod,
                            const std::string& node);
std::string OracleTaintToleration(const ClusterState& state, const k8s::Pod& pod,
                                  const std::string& node);
std::string OracleNodeUnschedulable(const ClusterState& state, const k8s::Pod& pod,
                                    const std::string& node);
std::string OracleNodeAffinity(const ClusterState& state, const k8s::Pod& pod,
                               const std::string& node);
std::string OracleInterPodAffinity(const ClusterState& state, const k8s::Pod& pod,
                                   const std::string& node);
std::string OraclePodTopologySpread(const ClusterState& state, const k8s::Pod& pod,
                                    const std::string& node);

// The oracle for a Filter plugin by its upstream name ("" for plugins that accept every
// generated pod: NodeName, the volume placeholders).
std::string OracleFilter(const std::string& plugin, const ClusterState& state, const k8s::Pod& pod,
                         const std::string& node);
// Every oracle; "" when all accept, else "Plugin: reason" of the first that rejects.
std::string OracleAllFilters(const ClusterState& state, const k8s::Pod& pod,
                             const std::string& node);

// Own label matching (labelSelector with matchLabels and In/NotIn/Exists/DoesNotExist).
bool OracleSelectorMatches(const k8s::LabelSelector& sel,
                           const google::protobuf::Map<std::string, std::string>& labels);

}  // namespace schedcheck::properties

#endif  // SCHEDCHECK_PROPERTIES_ORACLE_H_
