package adapterkit

import "schedcheck.local/kube/common/pb"

// GroupObjects applies events of the Workload and PodGroup kinds (scheduling.k8s.io/v1beta1) to
// the informers of an adapter whose Kubernetes version has them.
type GroupObjects interface {
	Apply(e *pb.ApiEvent) error
}

// SetGroups makes g apply Workloads and PodGroups; without it they are accepted and read by
// nothing.
func (s *Objects) SetGroups(g GroupObjects) { s.groups = g }

// GroupName names the object of a Workload or PodGroup event for error messages.
func GroupName(e *pb.ApiEvent) string {
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_Workload:
		m := obj.Workload.GetMetadata()
		return " (workload " + m.GetNamespace() + "/" + m.GetName() + ")"
	case *pb.ApiEvent_PodGroup:
		m := obj.PodGroup.GetMetadata()
		return " (podGroup " + m.GetNamespace() + "/" + m.GetName() + ")"
	}
	return ""
}
