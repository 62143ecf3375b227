// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// The binding cycles a pod-group scheduling cycle starts (submitPodGroupAlgorithmResult) run when
// the adapter says, one member at a time, in the order upstream starts them.

package scheduler

import v1 "k8s.io/api/core/v1"

// SchedcheckPodGroupBinding, when set, gets each binding cycle a pod-group scheduling cycle
// starts, with the member's pod; nil runs it at once.
var SchedcheckPodGroupBinding func(pod *v1.Pod, bindingCycle func())

// schedcheckPodGroupBindingCycle stands in for the `go sched.runBindingCycle(...)` of
// submitPodGroupAlgorithmResult.
func schedcheckPodGroupBindingCycle(pod *v1.Pod, bindingCycle func()) {
	if SchedcheckPodGroupBinding != nil {
		SchedcheckPodGroupBinding(pod, bindingCycle)
		return
	}
	bindingCycle()
}
