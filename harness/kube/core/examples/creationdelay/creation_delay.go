// Package creationdelay is the project's example out-of-tree plugin CreationDelay
// (harness/kube/examples/creation-delay, a v1.27 module) ported to v1.37's plugin API
// (k8s.io/kube-scheduler/framework): PreFilter rejects a pod until N seconds after its
// creationTimestamp, N from the annotation schedcheck.io/creation-delay-seconds. It is the Go twin
// of the reference's example plugin (reference/plugins/creation_delay), with the same deliberate
// bug: EventsToRegister returns no event, so a rejected pod is moved by nothing and waits for the
// 5-minute unschedulable flush.
package creationdelay

import (
	"context"
	"fmt"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/utils/clock"
)

const (
	// Name is the plugin's name in a KubeSchedulerConfiguration.
	Name = "CreationDelay"
	// Annotation holds the delay in whole seconds.
	Annotation = "schedcheck.io/creation-delay-seconds"
)

// CreationDelay is the plugin.
type CreationDelay struct {
	clock clock.PassiveClock
}

var (
	_ fwk.PreFilterPlugin   = &CreationDelay{}
	_ fwk.EnqueueExtensions = &CreationDelay{}
)

// NewFactory returns the plugin's factory, reading time from c (in a replay, the adapter's
// virtual clock).
func NewFactory(c clock.PassiveClock) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ runtime.Object, _ fwk.Handle) (fwk.Plugin, error) {
		return &CreationDelay{clock: c}, nil
	}
}

func (*CreationDelay) Name() string { return Name }

// PreFilter rejects the pod while it is younger than its delay.
func (pl *CreationDelay) PreFilter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	text, ok := pod.Annotations[Annotation]
	if !ok {
		return nil, nil
	}
	seconds, err := strconv.ParseInt(text, 10, 64)
	if err != nil || seconds < 0 {
		return nil, fwk.AsStatus(fmt.Errorf("annotation %s: not a non-negative integer: %q", Annotation, text))
	}
	if pod.CreationTimestamp.IsZero() {
		return nil, nil // no creation time known: nothing to wait for
	}
	if pl.clock.Now().Before(pod.CreationTimestamp.Add(time.Duration(seconds) * time.Second)) {
		return nil, fwk.NewStatus(fwk.Unschedulable, "pod is younger than its creation delay of "+text+"s")
	}
	return nil, nil
}

func (*CreationDelay) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// EventsToRegister returns nothing: the bug this example exists to show. (Only time makes the pod
// schedulable; a real plugin would requeue itself via backoff.)
func (*CreationDelay) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return nil, nil
}
