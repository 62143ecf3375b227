package adapter

import (
	"testing"

	schedulinglisters "k8s.io/client-go/listers/scheduling/v1"

	"schedcheck.local/kube/common/protocol"
	"schedcheck.local/kube/shared/adaptertest"
)

// TestPriorityClassesReachTheInformer: a PriorityClass of the trace is found by the lister of the
// informer factory kube-scheduler v1.37.2 hands to its plugins.
func TestPriorityClassesReachTheInformer(t *testing.T) {
	adaptertest.CheckPriorityClassLister(t, NewFactory(),
		func(s protocol.Scheduler) schedulinglisters.PriorityClassLister {
			return s.(*run).factory.Scheduling().V1().PriorityClasses().Lister()
		})
}
