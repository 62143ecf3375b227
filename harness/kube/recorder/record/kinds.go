package record

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// Kind is one resource the recorder lists and watches.
type Kind struct {
	GVR  schema.GroupVersionResource
	Kind string
}

// Stream names the kind's watch stream (and its merger watermark).
func (k Kind) Stream() string { return k.GVR.String() }

// WantedKinds are the kinds the trace schema holds (traces/importers/README.md),
// plus core Events (the scheduler's FailedScheduling, Scheduled and Preempted
// records), each at the version the importer reads. Workload kinds the trace
// does not hold (Deployment, DaemonSet, Job) are not recorded: a capture holds
// the pods their controllers made.
var WantedKinds = []Kind{
	{schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, "Namespace"},
	{schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, "Node"},
	{schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "Pod"},
	{schema.GroupVersionResource{Version: "v1", Resource: "events"}, "Event"},
	{schema.GroupVersionResource{Version: "v1", Resource: "services"}, "Service"},
	{schema.GroupVersionResource{Version: "v1", Resource: "replicationcontrollers"}, "ReplicationController"},
	{schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}, "PersistentVolume"},
	{schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}, "PersistentVolumeClaim"},
	{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}, "ReplicaSet"},
	{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}, "StatefulSet"},
	{schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses"}, "PriorityClass"},
	{schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}, "PodDisruptionBudget"},
	{schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "storageclasses"}, "StorageClass"},
	{schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "csinodes"}, "CSINode"},
	{schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "csidrivers"}, "CSIDriver"},
	{schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "csistoragecapacities"}, "CSIStorageCapacity"},
	{schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"}, "ResourceClaim"},
	{schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaimtemplates"}, "ResourceClaimTemplate"},
	{schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceslices"}, "ResourceSlice"},
	{schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "deviceclasses"}, "DeviceClass"},
	{schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "devicetaintrules"}, "DeviceTaintRule"},
	{schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "workloads"}, "Workload"},
	{schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"}, "PodGroup"},
}

// ServedKinds returns the wanted kinds the server serves, and a note per kind
// it does not (an API group or version switched off, a gate not enabled).
func ServedKinds(d discovery.DiscoveryInterface) ([]Kind, []string, error) {
	var served []Kind
	var notes []string
	cache := map[string]map[string]bool{}
	for _, k := range WantedKinds {
		gv := k.GVR.GroupVersion().String()
		resources, seen := cache[gv]
		if !seen {
			resources = map[string]bool{}
			list, err := d.ServerResourcesForGroupVersion(gv)
			if err == nil {
				for _, r := range list.APIResources {
					resources[r.Name] = true
				}
			}
			cache[gv] = resources
		}
		if resources[k.GVR.Resource] {
			served = append(served, k)
		} else {
			notes = append(notes, fmt.Sprintf("%s (%s) is not served: not recorded", k.Kind, gv))
		}
	}
	if len(served) == 0 {
		return nil, notes, fmt.Errorf("the server serves none of the kinds the trace holds")
	}
	return served, notes, nil
}
