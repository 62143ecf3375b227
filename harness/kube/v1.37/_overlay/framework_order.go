// Added to k8s.io/kubernetes/pkg/scheduler/framework by the schedcheck adapter build; not part
// of upstream.

package framework

import (
	"sort"

	"k8s.io/apimachinery/pkg/util/sets"
	fwk "k8s.io/kube-scheduler/framework"
)

// SchedcheckNodeOrder lists the names of set in the order of nodes (the snapshot's node-tree
// order), then those not among nodes in name order. It replaces walks over Go sets and maps of
// node names, whose random order would decide which nodes are evaluated first (docs/DEVIATIONS.md,
// "PreFilterResult node order").
func SchedcheckNodeOrder(nodes []fwk.NodeInfo, set sets.Set[string]) []string {
	out := make([]string, 0, len(set))
	seen := make(sets.Set[string], len(set))
	for _, n := range nodes {
		name := n.Node().Name
		if set.Has(name) && !seen.Has(name) {
			seen.Insert(name)
			out = append(out, name)
		}
	}
	var rest []string
	for name := range set {
		if !seen.Has(name) {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// schedcheckExplicitNodes is the explicit branch of NodeToStatus.NodesForStatusCode in the
// lister's (snapshot) order instead of the status map's random order: the potential nodes of
// preemption are visited in this order by DryRunPreemption.
func (m *NodeToStatus) schedcheckExplicitNodes(nodeLister fwk.NodeInfoLister, code fwk.Code) ([]fwk.NodeInfo, error) {
	allNodes, err := nodeLister.List()
	if err != nil {
		return nil, err
	}
	matching := sets.New[string]()
	m.ForEachExplicitNode(func(nodeName string, status *fwk.Status) {
		if status.Code() == code {
			matching.Insert(nodeName)
		}
	})
	var resultNodes []fwk.NodeInfo
	for _, name := range SchedcheckNodeOrder(allNodes, matching) {
		if nodeInfo, err := nodeLister.Get(name); err == nil {
			resultNodes = append(resultNodes, nodeInfo)
		}
	}
	return resultNodes, nil
}
