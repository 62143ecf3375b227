// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// SchedcheckSettle is set by the adapter when the volume controllers model is on
// (Hello.volume_controllers): it delivers PreBind's writes to the informers, and the PV
// controller's and provisioner's answers at once or, with a latency, later.
var SchedcheckSettle func()

// SchedcheckWaitTick is set by the adapter when the controllers answer later
// (Hello.volume_latency_ns): it makes the binding cycle wait `interval` of virtual time while the
// replay goes on.
var SchedcheckWaitTick func(interval time.Duration)

// schedcheckPoll stands in for BindPodVolumes' wait.PollUntilContextTimeout. With the model and no
// latency, the controllers answer at once, so one check after they have settled decides, in no
// virtual time; still unbound then is the poll's timeout (the context's deadline). With a latency
// it polls as upstream does (not immediately), in virtual time. Without the model, upstream's poll
// (`poll`) (never reached: the writes are refused).
func schedcheckPoll(poll func(context.Context, time.Duration, time.Duration, bool, wait.ConditionWithContextFunc) error,
	ctx context.Context, interval, timeout time.Duration, immediate bool, condition wait.ConditionWithContextFunc) error {
	if SchedcheckSettle == nil {
		return poll(ctx, interval, timeout, immediate, condition)
	}
	SchedcheckSettle()
	if timeout <= 0 {
		return context.DeadlineExceeded // a context whose deadline has passed: no look
	}
	if SchedcheckWaitTick == nil {
		done, err := condition(ctx)
		if err != nil {
			return err
		}
		if !done {
			return context.DeadlineExceeded
		}
		return nil
	}
	for looks := time.Duration(1); ; looks++ {
		SchedcheckWaitTick(interval)
		// At the timeout the context's deadline has passed, which the poll checks after each tick
		// before it looks (docs/FORMATS.md, "Volume controllers").
		if looks*interval >= timeout {
			return context.DeadlineExceeded
		}
		// A binding cancelled meanwhile (preemption of a pod in PreBind) ends at this look, not at
		// the instant of the cancel (docs/DEVIATIONS.md).
		if err := ctx.Err(); err != nil {
			return err
		}
		done, err := condition(ctx)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}
