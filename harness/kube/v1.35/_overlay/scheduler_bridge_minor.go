// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// What the 1.35 bridge does differently from the other minors sharing
// v1.36/_overlay/scheduler_bridge.go: its name and the signature of SchedulePod.

package scheduler

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedcheckMinor is the minor this bridge was written for: the adapter core answers
// Hello.compat and names the build with it.
const SchedcheckMinor = "1.35"

// WrapSchedulePod makes every SchedulePod (the scheduling algorithm: filter and score) call
// after(p, host, err) once it returned, before the cycle goes on (assume, or the failure handler).
// Its signature differs between minors (v1.35 passes the *v1.Pod, later ones the QueuedPodInfo).
func (b *SchedcheckBridge) WrapSchedulePod(after func(p *framework.QueuedPodInfo, host string, err error)) {
	schedulePod := b.sched.SchedulePod
	b.sched.SchedulePod = func(ctx context.Context, fw framework.Framework, state fwk.CycleState, pod *v1.Pod) (ScheduleResult, error) {
		result, err := schedulePod(ctx, fw, state, pod)
		after(nil, result.SuggestedHost, err)
		return result, err
	}
}
