// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.
// Shared by the 1.35 and 1.36 bridges; what differs between them is in each one's
// _overlay/scheduler_bridge_minor.go.
// It gives the adapter core (harness/kube/core/adapter) what an in-package test could use: one
// scheduling cycle at a time, the queue's flushes under a fake clock, the queue's deletions and
// cluster-event moves observed, the tie set of the score phase, and the binding cycle run when
// the adapter says.

package scheduler

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	internalheap "k8s.io/kubernetes/pkg/scheduler/backend/heap"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedcheckHooks are the adapter's observers. Delete wraps SchedulingQueue.Delete (it must call
// run exactly once); MoveAll hears each MoveAllToActiveOrBackoffQueue's event label before the
// move; RunBinding gets each binding cycle (nil: run at once).
type SchedcheckHooks struct {
	Delete     func(pod *v1.Pod, run func())
	MoveAll    func(label string)
	RunBinding func(bindingCycle func())
}

// SchedcheckBridge is the adapter's handle on one Scheduler.
type SchedcheckBridge struct {
	sched  *Scheduler
	queue  *internalqueue.PriorityQueue
	logger klog.Logger
}

// schedcheckState is package-level because the patched functions are plain functions; one
// scheduler runs per process at a time.
var schedcheckState struct {
	ties       []string
	runBinding func(func())
}

// SchedcheckAttach prepares sched for the adapter: every Delete and MoveAll passes through the
// hooks, binding cycles go to hooks.RunBinding, heap enqueue numbers start afresh.
func SchedcheckAttach(sched *Scheduler, logger klog.Logger, hooks SchedcheckHooks) *SchedcheckBridge {
	queue := sched.SchedulingQueue.(*internalqueue.PriorityQueue)
	internalheap.SchedcheckResetSequence()
	sched.SchedulingQueue = &schedcheckQueue{SchedulingQueue: queue, hooks: hooks}
	schedcheckState.ties = nil
	schedcheckState.runBinding = hooks.RunBinding
	return &SchedcheckBridge{sched: sched, queue: queue, logger: logger}
}

// ScheduleOne runs one scheduling cycle: a pod must be poppable (Pop blocks otherwise).
func (b *SchedcheckBridge) ScheduleOne(ctx context.Context) { b.sched.ScheduleOne(ctx) }

// Poppable says whether Pop would return at once (activeQ non-empty, or backoffQ when upstream
// pops from it).
func (b *SchedcheckBridge) Poppable() bool { return b.queue.SchedcheckPoppable() }

// PopsFromBackoff says whether the next Pop takes the head of backoffQ.
func (b *SchedcheckBridge) PopsFromBackoff() bool { return b.queue.SchedcheckPopsFromBackoff() }

// Where names the sub-queue holding pod namespace/name ("" when none).
func (b *SchedcheckBridge) Where(namespace, name string) string {
	return b.queue.SchedcheckWhere(namespace, name)
}

// WrapPop makes every pop of a scheduling cycle report what it took: the pod (nil on an error)
// and whether it came from backoffQ. The pop is where the minors differ (v1.37 pops entities
// through NextEntity, v1.35 and v1.36 pods through NextPod), so the adapter core hooks it here.
func (b *SchedcheckBridge) WrapPop(popped func(p *framework.QueuedPodInfo, group []*framework.QueuedPodInfo, fromBackoff bool)) {
	next := b.sched.NextPod
	b.sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		fromBackoff := b.PopsFromBackoff()
		p, err := next(logger)
		popped(p, nil, fromBackoff)
		return p, err
	}
}

// FlushBackoffQCompleted and FlushUnschedulableEntitiesLeftover run the periodic flushes.
func (b *SchedcheckBridge) FlushBackoffQCompleted() {
	b.queue.SchedcheckFlushBackoffQCompleted(b.logger)
}

func (b *SchedcheckBridge) FlushUnschedulableEntitiesLeftover() {
	b.queue.SchedcheckFlushUnschedulablePodsLeftover(b.logger)
}

// TakeTies returns the tie set of the last score phase (every node with the top total score) and
// forgets it; nil when no score phase ran (a single feasible node, or a batch hint that passed).
func (b *SchedcheckBridge) TakeTies() []string {
	t := schedcheckState.ties
	schedcheckState.ties = nil
	return t
}

// SchedcheckReservoir, when set, makes the score phase choose among equal top scores as v1.27's
// selectHost did (and the reference does): reservoir sampling over the nodes in score-list order,
// drawing SchedcheckReservoir(count) for the count-th tied node. Upstream v1.35 and v1.36 have no such draw:
// NewSortedScoredNodes' max-heap orders equal TotalScores by Randomizer, which prioritizeNodes
// sets only on its extender path, so without extenders ties go to the heap's first pop. Off (nil)
// by default; the adapter sets it for SCHEDCHECK_KUBE_TIEBREAK=reservoir.
var SchedcheckReservoir func(n int) int

// schedcheckPrioritized stands between prioritizeNodes and its caller in the patched schedulePod:
// it notes the tie set of the scores (and, with SchedcheckReservoir, marks the sampled node so
// that the max-heap pops it first).
func schedcheckPrioritized(scores []fwk.NodePluginScores, err error) ([]fwk.NodePluginScores, error) {
	if err == nil && SchedcheckReservoir != nil && len(scores) > 0 {
		selected, top, count := 0, scores[0].TotalScore, 1
		for i := 1; i < len(scores); i++ {
			switch {
			case scores[i].TotalScore > top:
				selected, top, count = i, scores[i].TotalScore, 1
			case scores[i].TotalScore == top:
				count++
				if SchedcheckReservoir(count) == 0 {
					selected = i
				}
			}
		}
		for i := range scores {
			scores[i].Randomizer = 0
		}
		scores[selected].Randomizer = 1
	}
	var ties []string
	var top int64
	for i, ns := range scores {
		switch {
		case i == 0 || ns.TotalScore > top:
			top, ties = ns.TotalScore, []string{ns.Name}
		case ns.TotalScore == top:
			ties = append(ties, ns.Name)
		}
	}
	schedcheckState.ties = ties
	if err == nil {
		schedcheckNoteScores(scores)
	}
	return scores, err
}

// schedcheckBindingCycle stands in for the `go sched.runBindingCycle(...)` of scheduleOnePod.
func schedcheckBindingCycle(bindingCycle func()) {
	if schedcheckState.runBinding != nil {
		schedcheckState.runBinding(bindingCycle)
		return
	}
	bindingCycle()
}

// schedcheckQueue passes Delete and MoveAllToActiveOrBackoffQueue through the hooks.
type schedcheckQueue struct {
	internalqueue.SchedulingQueue
	hooks SchedcheckHooks
}

func (q *schedcheckQueue) Delete(pod *v1.Pod) {
	run := func() { q.SchedulingQueue.Delete(pod) }
	if q.hooks.Delete == nil {
		run()
		return
	}
	q.hooks.Delete(pod, run)
}

func (q *schedcheckQueue) MoveAllToActiveOrBackoffQueue(logger klog.Logger, event fwk.ClusterEvent, oldObj, newObj interface{}, preCheck internalqueue.PreEnqueueCheck) {
	if q.hooks.MoveAll != nil {
		q.hooks.MoveAll(event.Label())
	}
	q.SchedulingQueue.MoveAllToActiveOrBackoffQueue(logger, event, oldObj, newObj, preCheck)
}
