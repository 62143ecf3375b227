// Package plugin is an out-of-tree kube-scheduler plugin written the way a scheduler engineer
// writes one, used as the worked example of harness/kube/README.md. It is the Go twin of the
// reference's example plugin (reference/plugins/creation_delay): PreFilter rejects a pod until N
// seconds after its creationTimestamp, N from the annotation schedcheck.io/creation-delay-seconds.
//
// It carries the same deliberate bug: EventsToRegister returns no event, so a rejected pod is
// moved by nothing and waits for the 5-minute unschedulable flush.
package plugin

import (
	"context"
	"fmt"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/scheduler/framework"
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
	_ framework.PreFilterPlugin   = &CreationDelay{}
	_ framework.EnqueueExtensions = &CreationDelay{}
)

// NewFactory returns the plugin's factory, reading time from c (in a replay, the adapter's
// virtual clock).
func NewFactory(c clock.PassiveClock) frameworkruntime.PluginFactory {
	return func(_ runtime.Object, _ framework.Handle) (framework.Plugin, error) {
		return &CreationDelay{clock: c}, nil
	}
}

func (*CreationDelay) Name() string { return Name }

// PreFilter rejects the pod while it is younger than its delay.
func (pl *CreationDelay) PreFilter(_ context.Context, _ *framework.CycleState, pod *v1.Pod) (*framework.PreFilterResult, *framework.Status) {
	text, ok := pod.Annotations[Annotation]
	if !ok {
		return nil, nil
	}
	seconds, err := strconv.ParseInt(text, 10, 64)
	if err != nil || seconds < 0 {
		return nil, framework.AsStatus(fmt.Errorf("annotation %s: not a non-negative integer: %q", Annotation, text))
	}
	if pod.CreationTimestamp.IsZero() {
		return nil, nil // no creation time known: nothing to wait for
	}
	if pl.clock.Now().Before(pod.CreationTimestamp.Add(time.Duration(seconds) * time.Second)) {
		return nil, framework.NewStatus(framework.Unschedulable, "pod is younger than its creation delay of "+text+"s")
	}
	return nil, nil
}

func (*CreationDelay) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// EventsToRegister returns nothing: the bug this example exists to show. (Returning
// {Resource: framework.Node, ActionType: framework.All} or similar would not help either, since
// only time makes the pod schedulable; a real plugin would requeue itself via backoff.)
func (*CreationDelay) EventsToRegister() []framework.ClusterEvent { return nil }
