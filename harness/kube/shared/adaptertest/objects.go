package adaptertest

import (
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	schedulinglisters "k8s.io/client-go/listers/scheduling/v1"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/protocol"
)

// CheckPriorityClassLister: the trace's PriorityClasses reach the informer the scheduler's
// factory hands to plugins (a third-party plugin such as scheduler-plugins' PreemptionToleration
// gets them from its lister), with their values; an update replaces one and a deletion removes
// it. `lister` is the PriorityClass lister of the run `s` (the adapter's own informer factory).
func CheckPriorityClassLister(t *testing.T, factory protocol.Factory,
	lister func(s protocol.Scheduler) schedulinglisters.PriorityClassLister) {
	t.Helper()
	s := Start(t, factory)
	events := []*pb.ApiEvent{
		Event(t, `{"type": "ADDED", "priorityClass": {"metadata": {"name": "tolerant-batch"}, "value": 1000}}`),
		Event(t, `{"type": "ADDED", "priorityClass": {"metadata": {"name": "gone"}, "value": 5}}`),
		Event(t, `{"type": "MODIFIED", "priorityClass": {"metadata": {"name": "tolerant-batch"}, "value": 1000, "description": "batch jobs"}}`),
		Event(t, `{"type": "DELETED", "priorityClass": {"metadata": {"name": "gone"}, "value": 5}}`),
	}
	if _, err := s.Events(&pb.Events{TimeNs: 0, Events: events, FirstIndex: 0}); err != nil {
		t.Fatalf("Events: %v", err)
	}
	pc, err := lister(s).Get("tolerant-batch")
	if err != nil {
		t.Fatalf(`PriorityClass "tolerant-batch" from the trace: %v`, err)
	}
	if pc.Value != 1000 || pc.Description != "batch jobs" {
		t.Errorf("PriorityClass tolerant-batch: value %d, description %q; want 1000, \"batch jobs\"", pc.Value, pc.Description)
	}
	if _, err := lister(s).Get("gone"); err == nil {
		t.Errorf(`PriorityClass "gone" was deleted by the trace but the lister still finds it`)
	}
	all, err := lister(s).List(labels.Everything())
	if err != nil || len(all) != 1 {
		t.Errorf("List: %d classes (error %v), want 1", len(all), err)
	}
}
