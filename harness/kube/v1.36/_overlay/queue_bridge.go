// Added to k8s.io/kubernetes/pkg/scheduler/backend/queue by the schedcheck adapter build; not
// part of upstream. It lets the adapter drive the queue in virtual time (no Run goroutines), see
// where each pod is, and hear of every move with upstream's own label.

package queue

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedcheckIncoming, when set, hears of every pod that enters activeQ, backoffQ or the
// unschedulable pool: the patched sub-queues call it where upstream
// increments scheduler_queue_incoming_pods_total{queue, event}. queue is "active", "backoff" or
// "unschedulable"; event is the metric's event label (PodAdd, NodeAdd, ScheduleAttemptFailure,
// BackoffComplete, ...).
var SchedcheckIncoming func(queue string, pod *v1.Pod, event string)

func schedcheckNoteIncoming(queue string, pInfo *framework.QueuedPodInfo, event string) {
	if SchedcheckIncoming != nil {
		SchedcheckIncoming(queue, pInfo.Pod, event)
	}
}

// schedcheckSortPods orders a move's pods by namespace/name: upstream collects them from a Go
// map, whose order is random; the replay conventions move them in key order.
func schedcheckSortPods(list []*framework.QueuedPodInfo) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].Pod, list[j].Pod
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
}

// SchedcheckFlushBackoffQCompleted and SchedcheckFlushUnschedulablePodsLeftover are the two
// periodic flushes Run would start on real-time tickers.
func (p *PriorityQueue) SchedcheckFlushBackoffQCompleted(logger klog.Logger) {
	p.flushBackoffQCompleted(logger)
}

func (p *PriorityQueue) SchedcheckFlushUnschedulablePodsLeftover(logger klog.Logger) {
	p.flushUnschedulablePodsLeftover(logger)
}

// SchedcheckPoppable says whether Pop would return at once: activeQ has a pod, or (with
// SchedulerPopFromBackoffQ) activeQ is empty and backoffQ's regular heap has one.
func (p *PriorityQueue) SchedcheckPoppable() bool {
	return p.activeQ.len() > 0 || p.SchedcheckPopsFromBackoff()
}

// SchedcheckPopsFromBackoff says whether the next Pop takes the head of backoffQ (activeQ empty,
// SchedulerPopFromBackoffQ enabled, backoffQ's regular heap not empty).
func (p *PriorityQueue) SchedcheckPopsFromBackoff() bool {
	if p.activeQ.len() > 0 || !p.isPopFromBackoffQEnabled {
		return false
	}
	bq, ok := p.backoffQ.(*backoffQueue)
	return ok && bq.lenBackoff() > 0
}

// SchedcheckWhere names the sub-queue holding the pod namespace/name: "active",
// "backoff", "unschedulable" (gated pods included), or "" when it is in none.
func (p *PriorityQueue) SchedcheckWhere(namespace, name string) string {
	lookup := newQueuedPodInfoForLookup(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}})
	p.lock.RLock()
	defer p.lock.RUnlock()
	if p.activeQ.has(lookup) {
		return "active"
	}
	if p.backoffQ.has(lookup) {
		return "backoff"
	}
	if p.unschedulablePods.get(lookup.Pod) != nil {
		return "unschedulable"
	}
	return ""
}
