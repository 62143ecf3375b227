// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// SchedcheckSettle is set by the adapter when the volume controllers model is on
// (Hello.volume_controllers): it delivers PreBind's writes and the PV controller's and
// provisioner's answers to the informers.
var SchedcheckSettle func()

// schedcheckPoll stands in for BindPodVolumes' wait.Poll. With the model, the controllers answer
// at once, so one check after they have settled decides, in no virtual time; still unbound then
// is the poll's timeout. Without it, upstream's poll (`poll`) (never reached: the writes are refused).
func schedcheckPoll(poll func(time.Duration, time.Duration, wait.ConditionFunc) error, interval, timeout time.Duration, condition wait.ConditionFunc) error {
	if SchedcheckSettle == nil {
		return poll(interval, timeout, condition)
	}
	SchedcheckSettle()
	done, err := condition()
	if err != nil {
		return err
	}
	if !done {
		return wait.ErrWaitTimeout
	}
	return nil
}
