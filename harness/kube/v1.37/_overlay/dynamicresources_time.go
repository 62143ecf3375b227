// Added to k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources by the schedcheck
// adapter build; not part of upstream.

package dynamicresources

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// SchedcheckNow is set by the adapter to its virtual clock: a claim's allocationTimestamp, which
// PreBind writes, and the binding timeout measured from it are in the trace's time.
var SchedcheckNow func() time.Time

func schedcheckNow() time.Time {
	if SchedcheckNow != nil {
		return SchedcheckNow()
	}
	return time.Now()
}

// schedcheckPoll stands in for PreBind's wait for a device's binding conditions. In the adapter
// (SchedcheckNow set) no trace event can arrive while a binding cycle runs, so the conditions are
// looked at once, in no virtual time: all met is success, a binding failure condition is its
// error, anything else is the poll's timeout (the context's deadline), after which upstream's
// next attempt looks again. Outside the adapter, upstream's poll (`poll`).
func schedcheckPoll(poll func(context.Context, time.Duration, time.Duration, bool, wait.ConditionWithContextFunc) error,
	ctx context.Context, interval, timeout time.Duration, immediate bool, condition wait.ConditionWithContextFunc) error {
	if SchedcheckNow == nil {
		return poll(ctx, interval, timeout, immediate, condition)
	}
	done, err := condition(ctx)
	if err != nil {
		return err
	}
	if !done {
		return context.DeadlineExceeded
	}
	return nil
}
