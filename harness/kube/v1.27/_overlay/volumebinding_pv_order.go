// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
	"sort"

	v1 "k8s.io/api/core/v1"
)

// schedcheckByName orders the PVs the assume cache listed for a class by name. Upstream lists them
// from an index set, in Go map order, and findMatchingVolumes takes the first of equally small
// matching PVs: a random choice between ties. By name, the choice is deterministic and the
// reference's (docs/DEVIATIONS.md).
func schedcheckByName(pvs []*v1.PersistentVolume) []*v1.PersistentVolume {
	sort.Slice(pvs, func(i, j int) bool { return pvs[i].Name < pvs[j].Name })
	return pvs
}
