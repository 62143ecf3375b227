// Added to k8s.io/kubernetes/pkg/scheduler/framework/runtime by the schedcheck adapter build; not
// part of upstream. Permit's waits in virtual time: a waiting pod's timeout is fired by the
// adapter when the replay's clock reaches it (not by time.AfterFunc), and a binding cycle that
// waits on Permit gives the turn back to the replay loop instead of blocking on its channel.

package runtime

import (
	"time"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

// SchedcheckPermitTimer, when set, replaces time.AfterFunc for a waiting pod's timeout at one
// plugin: the adapter calls fire when the virtual clock reaches now+wait, unless waiting() says
// the pod no longer waits (allowed or rejected meanwhile).
var SchedcheckPermitTimer func(pod *v1.Pod, plugin string, wait time.Duration, waiting func() bool, fire func())

// SchedcheckPermitPark, when set, is called by WaitOnPermit while the waiting pod has no signal:
// it returns once the adapter gives the binding cycle its turn again, which it does when
// signalled() holds (an Allow of every plugin, a Reject, a timeout).
var SchedcheckPermitPark func(pod *v1.Pod, signalled func() bool)

// schedcheckAfterFunc stands in for the time.AfterFunc of newWaitingPod. The timer it returns
// never fires (Stop on it is harmless); the adapter's timer does instead.
func schedcheckAfterFunc(wp *waitingPod, plugin string, wait time.Duration, fire func()) *time.Timer {
	if SchedcheckPermitTimer == nil {
		return time.AfterFunc(wait, fire)
	}
	SchedcheckPermitTimer(wp.pod, plugin, wait, func() bool { return wp.schedcheckWaiting() }, fire)
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// schedcheckWaiting says whether nothing has allowed or rejected the pod yet.
func (w *waitingPod) schedcheckWaiting() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return !w.done
}

// schedcheckReceive stands in for WaitOnPermit's `<-waitingPod.s`.
func schedcheckReceive(wp *waitingPod) *fwk.Status {
	if SchedcheckPermitPark == nil {
		return <-wp.s
	}
	for {
		select {
		case s := <-wp.s:
			return s
		default:
			SchedcheckPermitPark(wp.pod, func() bool { return len(wp.s) > 0 })
		}
	}
}
