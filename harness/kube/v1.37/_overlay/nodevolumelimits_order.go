// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits by the schedcheck
// adapter build; not part of upstream.

package nodevolumelimits

import "sort"

// schedcheckDriversByVolume lists the drivers of the pod's new volumes (unique volume name ->
// driver) in volume-name order. With VolumeLimitScaling, Filter reports the first driver missing
// from the node; upstream walks the map in Go's random order, so with two such drivers the
// reason changes from run to run. In this order it is deterministic and the reference's
// (docs/DEVIATIONS.md).
func schedcheckDriversByVolume(newVolumes map[string]string) []string {
	names := make([]string, 0, len(newVolumes))
	for name := range newVolumes {
		names = append(names, name)
	}
	sort.Strings(names)
	drivers := make([]string, 0, len(names))
	for _, name := range names {
		drivers = append(drivers, newVolumes[name])
	}
	return drivers
}
