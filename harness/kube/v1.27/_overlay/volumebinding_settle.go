// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
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

// schedcheckPoll stands in for BindPodVolumes' wait.Poll. With the model and no latency, the
// controllers answer at once, so one check after they have settled decides, in no virtual time;
// still unbound then is the poll's timeout. With a latency it polls as upstream does, in virtual
// time: the first look one interval after the writes. Without the model, upstream's poll (`poll`)
// (never reached: the writes are refused).
func schedcheckPoll(poll func(time.Duration, time.Duration, wait.ConditionFunc) error, interval, timeout time.Duration, condition wait.ConditionFunc) error {
	if SchedcheckSettle == nil {
		return poll(interval, timeout, condition)
	}
	SchedcheckSettle()
	if SchedcheckWaitTick == nil {
		done, err := condition()
		if err != nil {
			return err
		}
		if !done {
			return wait.ErrWaitTimeout
		}
		return nil
	}
	for looks := time.Duration(1); ; looks++ {
		SchedcheckWaitTick(interval)
		done, err := condition()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		// At the timeout the timer closes the poll's channel: wait.Poll looks once more (above),
		// then times out (docs/FORMATS.md, "Volume controllers"). No timeout: no timer.
		if timeout > 0 && looks*interval >= timeout {
			return wait.ErrWaitTimeout
		}
	}
}
