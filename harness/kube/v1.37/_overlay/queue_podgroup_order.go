// Added to k8s.io/kubernetes/pkg/scheduler/backend/queue by the schedcheck adapter build; not
// part of upstream. The pods a pod group's arrival releases leave their holding set in
// namespace/name order, not Go map order, so their moves into the queue are reported in one order.

package queue

import (
	"sort"

	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// schedcheckSortPodInfos sorts pod infos by namespace/name.
func schedcheckSortPodInfos(infos []*framework.QueuedPodInfo) []*framework.QueuedPodInfo {
	sort.Slice(infos, func(i, j int) bool {
		a, b := infos[i].Pod, infos[j].Pod
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return infos
}
