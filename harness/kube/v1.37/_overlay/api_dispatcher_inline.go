// Added to k8s.io/kubernetes/pkg/scheduler/backend/api_dispatcher by the schedcheck adapter build;
// not part of upstream.

package apidispatcher

import "context"

// SchedcheckInline, when set, makes Add run every queued call at once, in the caller's goroutine
// and in queue order, instead of leaving them to the goroutines Run starts (which the adapter
// never starts). In virtual time an API call takes no time, so a call is done when it is made, as
// the scheduler's own client calls are with SchedulerAsyncAPICalls off; no call ever waits long
// enough to be merged with or skipped for a later one.
var SchedcheckInline bool

// schedcheckRunQueued is Run's loop body for each queued call, without the goroutines: pop,
// execute, finalize, report.
func (ad *APIDispatcher) schedcheckRunQueued() {
	for {
		ad.callQueue.lock.RLock()
		pending := ad.callQueue.callsQueue.Len()
		ad.callQueue.lock.RUnlock()
		if pending == 0 {
			return
		}
		apiCall, err := ad.callQueue.pop()
		if err != nil || apiCall == nil {
			return
		}
		err = apiCall.Execute(context.Background(), ad.client)
		ad.callQueue.finalize(apiCall)
		apiCall.sendOnFinish(err)
	}
}
