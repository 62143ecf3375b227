// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// schedcheckByName orders the PVs the assume cache listed for a class by name. Upstream lists them
// from an index set, in Go map order, and findMatchingVolumes takes the first of equally small
// matching PVs: a random choice between ties. By name, the choice is deterministic and the
// reference's (docs/DEVIATIONS.md).
func schedcheckByName(pvs []*v1.PersistentVolume) []*v1.PersistentVolume {
	sort.Slice(pvs, func(i, j int) bool { return pvs[i].Name < pvs[j].Name })
	return pvs
}

// schedcheckCapacitiesByKey orders the listed CSIStorageCapacities by "namespace/name".
// hasEnoughCapacity takes the first sufficient capacity that the node can reach; upstream lists
// them in Go map order, so with several such capacities the choice (and, at v1.37, the
// StorageCapacityScoring score that uses it) is random. The reference walks them in this order
// (docs/DEVIATIONS.md).
func schedcheckCapacitiesByKey(capacities []*storagev1.CSIStorageCapacity, err error) ([]*storagev1.CSIStorageCapacity, error) {
	key := func(c *storagev1.CSIStorageCapacity) string { return c.Namespace + "/" + c.Name }
	sort.Slice(capacities, func(i, j int) bool { return key(capacities[i]) < key(capacities[j]) })
	return capacities, err
}
