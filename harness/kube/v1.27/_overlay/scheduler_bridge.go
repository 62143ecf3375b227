// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// It gives the adapter (harness/kube/v1.27/adapter) what an in-package test could use: one
// scheduling cycle at a time, the queue's flushes under a fake clock, each queue operation
// observed, the tie set of selectHost, and the binding cycle run when the adapter says.

package scheduler

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	internalheap "k8s.io/kubernetes/pkg/scheduler/internal/heap"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/internal/queue"
	"k8s.io/utils/clock"
)

// SchedcheckQueueOp describes one call into the scheduling queue. Kind is Add, Update, Delete,
// Failure (AddUnschedulableIfNotPresent), MoveAll (MoveAllToActiveOrBackoffQueue, a cluster
// event) or Move (any other move: assigned pods, Activate, the flushes); Label is the queue-metric label upstream uses
// for the pods it moves (PodAdd, NodeAdd, AssignedPodDelete, ...); Pod is set for the per-pod
// kinds.
type SchedcheckQueueOp struct {
	Kind  string
	Label string
	Pod   *v1.Pod
}

// SchedcheckBridge is the adapter's handle on one Scheduler.
type SchedcheckBridge struct {
	sched *Scheduler
	queue *internalqueue.PriorityQueue
}

// schedcheckState is package-level because the patched selectHost and scheduleOne are plain
// functions; one scheduler runs per process at a time.
var schedcheckState struct {
	ties       []string
	runBinding func(func())
}

// SchedcheckAttach prepares sched for the adapter: the fake clock, every queue call passed
// through observe (which must run `run` exactly once), and runBinding deciding when a binding
// cycle runs (nil: at once).
func SchedcheckAttach(sched *Scheduler, c clock.Clock, observe func(op SchedcheckQueueOp, run func()), runBinding func(func())) *SchedcheckBridge {
	queue := sched.SchedulingQueue.(*internalqueue.PriorityQueue)
	queue.SchedcheckSetClock(c)
	internalheap.SchedcheckResetSequence()
	sched.SchedulingQueue = &schedcheckQueue{SchedulingQueue: queue, observe: observe}
	schedcheckState.ties = nil
	schedcheckState.runBinding = runBinding
	return &SchedcheckBridge{sched: sched, queue: queue}
}

// SetBindingRunner decides when binding cycles run: runBinding gets each one (nil: at once).
func (b *SchedcheckBridge) SetBindingRunner(runBinding func(func())) {
	schedcheckState.runBinding = runBinding
}

// ScheduleOne runs scheduleOne: a pod must be in activeQ (Pop blocks otherwise).
func (b *SchedcheckBridge) ScheduleOne(ctx context.Context) { b.sched.scheduleOne(ctx) }

func (b *SchedcheckBridge) ActiveLen() int          { return b.queue.SchedcheckActiveLen() }
func (b *SchedcheckBridge) Where(key string) string { return b.queue.SchedcheckWhere(key) }
func (b *SchedcheckBridge) WaitingKeys() []string   { return b.queue.SchedcheckWaitingKeys() }

// FlushBackoffQCompleted and FlushUnschedulablePodsLeftover run the periodic flushes, observed
// as moves labelled as upstream's metrics label them.
func (b *SchedcheckBridge) FlushBackoffQCompleted(observe func(op SchedcheckQueueOp, run func())) {
	observe(SchedcheckQueueOp{Kind: "Move", Label: internalqueue.BackoffComplete}, b.queue.SchedcheckFlushBackoffQCompleted)
}

func (b *SchedcheckBridge) FlushUnschedulablePodsLeftover(observe func(op SchedcheckQueueOp, run func())) {
	observe(SchedcheckQueueOp{Kind: "Move", Label: internalqueue.UnschedulableTimeout.Label}, b.queue.SchedcheckFlushUnschedulablePodsLeftover)
}

// TakeTies returns the tie set of the last selectHost (every node with the top total score) and
// forgets it; nil when selectHost did not run (a single feasible node).
func (b *SchedcheckBridge) TakeTies() []string {
	t := schedcheckState.ties
	schedcheckState.ties = nil
	return t
}

// schedcheckSelectHost stands in for selectHost in the patched schedulePod: it notes the tie set
// and then lets upstream's selectHost choose.
func schedcheckSelectHost(nodeScores []framework.NodePluginScores) (string, error) {
	var ties []string
	var top int64
	for i, ns := range nodeScores {
		switch {
		case i == 0 || ns.TotalScore > top:
			top, ties = ns.TotalScore, []string{ns.Name}
		case ns.TotalScore == top:
			ties = append(ties, ns.Name)
		}
	}
	schedcheckState.ties = ties
	schedcheckNoteScores(nodeScores)
	return selectHost(nodeScores)
}

// schedcheckBindingCycle stands in for the `go func() { ... }()` that starts the binding cycle.
func schedcheckBindingCycle(bindingCycle func()) {
	if schedcheckState.runBinding != nil {
		schedcheckState.runBinding(bindingCycle)
		return
	}
	bindingCycle()
}

// schedcheckQueue passes every call that changes where pods are through observe.
type schedcheckQueue struct {
	internalqueue.SchedulingQueue
	observe func(op SchedcheckQueueOp, run func())
}

func (q *schedcheckQueue) Add(pod *v1.Pod) (err error) {
	q.observe(SchedcheckQueueOp{Kind: "Add", Label: internalqueue.PodAdd, Pod: pod}, func() { err = q.SchedulingQueue.Add(pod) })
	return err
}

func (q *schedcheckQueue) Update(oldPod, newPod *v1.Pod) (err error) {
	q.observe(SchedcheckQueueOp{Kind: "Update", Label: internalqueue.PodUpdate, Pod: newPod}, func() { err = q.SchedulingQueue.Update(oldPod, newPod) })
	return err
}

func (q *schedcheckQueue) Delete(pod *v1.Pod) (err error) {
	q.observe(SchedcheckQueueOp{Kind: "Delete", Label: "PodDelete", Pod: pod}, func() { err = q.SchedulingQueue.Delete(pod) })
	return err
}

func (q *schedcheckQueue) AddUnschedulableIfNotPresent(pInfo *framework.QueuedPodInfo, podSchedulingCycle int64) (err error) {
	q.observe(SchedcheckQueueOp{Kind: "Failure", Label: internalqueue.ScheduleAttemptFailure, Pod: pInfo.Pod}, func() {
		err = q.SchedulingQueue.AddUnschedulableIfNotPresent(pInfo, podSchedulingCycle)
	})
	return err
}

func (q *schedcheckQueue) MoveAllToActiveOrBackoffQueue(event framework.ClusterEvent, preCheck internalqueue.PreEnqueueCheck) {
	q.observe(SchedcheckQueueOp{Kind: "MoveAll", Label: event.Label}, func() { q.SchedulingQueue.MoveAllToActiveOrBackoffQueue(event, preCheck) })
}

func (q *schedcheckQueue) AssignedPodAdded(pod *v1.Pod) {
	q.observe(SchedcheckQueueOp{Kind: "Move", Label: internalqueue.AssignedPodAdd.Label}, func() { q.SchedulingQueue.AssignedPodAdded(pod) })
}

func (q *schedcheckQueue) AssignedPodUpdated(pod *v1.Pod) {
	q.observe(SchedcheckQueueOp{Kind: "Move", Label: internalqueue.AssignedPodUpdate.Label}, func() { q.SchedulingQueue.AssignedPodUpdated(pod) })
}

func (q *schedcheckQueue) Activate(pods map[string]*v1.Pod) {
	q.observe(SchedcheckQueueOp{Kind: "Move", Label: internalqueue.ForceActivate}, func() { q.SchedulingQueue.Activate(pods) })
}
