// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding by the schedcheck
// adapter build; not part of upstream.

package volumebinding

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// SchedcheckSettle is set by the adapter when the volume controllers model is on
// (Hello.volume_controllers): it delivers PreBind's writes and the PV controller's and
// provisioner's answers to the informers.
var SchedcheckSettle func()

// schedcheckPoll stands in for BindPodVolumes' wait.PollUntilContextTimeout. With the model, the
// controllers answer at once, so one check after they have settled decides, in no virtual time;
// still unbound then is the poll's timeout (the context's deadline). Without it, upstream's poll (`poll`)
// (never reached: the writes are refused).
func schedcheckPoll(poll func(context.Context, time.Duration, time.Duration, bool, wait.ConditionWithContextFunc) error,
	ctx context.Context, interval, timeout time.Duration, immediate bool, condition wait.ConditionWithContextFunc) error {
	if SchedcheckSettle == nil {
		return poll(ctx, interval, timeout, immediate, condition)
	}
	SchedcheckSettle()
	done, err := condition(ctx)
	if err != nil {
		return err
	}
	if !done {
		return context.DeadlineExceeded
	}
	return nil
}
