// Added to k8s.io/kubernetes/pkg/scheduler/util by the schedcheck adapter build; not part of
// upstream.

package util

import "time"

// SchedcheckNow, when set, replaces time.Now in GetPodStartTime (the "start" of a pod that has not
// started), so that preemption's start-time comparisons read virtual time.
var SchedcheckNow func() time.Time

func schedcheckNow(upstream func() time.Time) time.Time {
	if SchedcheckNow != nil {
		return SchedcheckNow()
	}
	return upstream()
}
