package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// installReactors makes the fake API server record what the scheduler writes: bindings (applied
// when the binding cycle ends), pod deletions (preemption victims) and the nominatedNodeName of
// status patches (the preemptor's nomination, and those preemption clears). They reach the
// informer after the preemptor's requeue, in the reference's order (docs/DEVIATIONS.md, "Replay
// of preemption"). The conditions of status patches are not replayed: a status-only update moves
// no pod. VolumeBinding's writes of volumes and claims are refused
// (adapterkit.RefuseVolumeWrites).
func (r *run) installReactors() {
	adapterkit.RefuseVolumeWrites(&r.client.Fake)
	r.client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*v1.Binding)
		r.bound[a.GetNamespace()+"/"+b.Name] = b.Target.Name
		return true, b, nil
	})
	r.client.PrependReactor("delete", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r.victims = append(r.victims, a.GetNamespace()+"/"+a.(k8stesting.DeleteAction).GetName())
		return true, nil, nil
	})
	r.client.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		patch := a.(k8stesting.PatchAction)
		if node, ok := nominationInPatch(patch.GetPatch()); ok {
			r.nominations = append(r.nominations, nomination{pod: a.GetNamespace() + "/" + patch.GetName(), node: node})
		}
		return true, nil, nil
	})
}

// wrapScheduler hooks the exported seams of one scheduling cycle: the pop, the algorithm's result
// (tie set; during_attempt events arrive after it), the failure handler (an unschedulable or
// failed attempt) and the binding cycle (a scheduled attempt).
func (r *run) wrapScheduler() {
	nextPod := r.sched.NextPod
	r.sched.NextPod = func() *framework.QueuedPodInfo {
		p := nextPod()
		if p != nil && p.Pod != nil {
			key := podKey(p.Pod)
			r.inFlight[key] = true
			r.emit(&pb.QueueTransition{Pod: key, From: "active", To: "inflight", Cause: "Pop"})
		}
		r.cyclePod, r.cycleTies, r.cycleHost, r.victims = p, nil, "", nil
		return p
	}
	schedulePod := r.sched.SchedulePod
	r.sched.SchedulePod = func(ctx context.Context, fwk framework.Framework, state *framework.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		result, err := schedulePod(ctx, fwk, state, pod)
		r.cycleTies = sortedCopy(r.bridge.TakeTies())
		r.cycleScores = topScores(r.bridge.TakeScores(), r.scoreTop)
		if err == nil && len(r.cycleTies) == 0 {
			r.cycleTies = []string{result.SuggestedHost}
		}
		r.cycleHost = result.SuggestedHost
		if len(r.during) > 0 {
			if derr := r.deliverDuring(); derr != nil && r.failure == nil {
				r.failure = derr
			}
		}
		return result, err
	}
	failureHandler := r.sched.FailureHandler
	r.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, p *framework.QueuedPodInfo, status *framework.Status, nominating *framework.NominatingInfo, start time.Time) {
		r.emit(failedAttempt(p, status, nominating, sortedCopy(r.victims)))
		victims := r.victims
		r.victims = nil
		failureHandler(ctx, fwk, p, status, nominating, start)
		r.applyPreemption(podKey(p.Pod), victims)
	}
	r.bridge.SetBindingRunner(r.runBinding)
}

// applyPreemption delivers what the failure wrote: the preemptor's own nomination, then the
// victims' deletions, then the nominations preemption cleared.
func (r *run) applyPreemption(preemptor string, victims []string) {
	noms := r.nominations
	r.nominations = nil
	fail := func(err error) {
		if err != nil && r.failure == nil {
			r.failure = err
		}
	}
	for _, n := range noms {
		if n.pod == preemptor {
			fail(r.objects.Nominate(n.pod, n.node))
		}
	}
	for _, key := range victims {
		fail(r.objects.DeletePod(key))
	}
	for _, n := range noms {
		if n.pod != preemptor {
			fail(r.objects.Nominate(n.pod, n.node))
		}
	}
}

type nomination struct{ pod, node string }

// nominationInPatch reads status.nominatedNodeName from a status patch (null clears it).
func nominationInPatch(patch []byte) (string, bool) {
	var p struct {
		Status map[string]json.RawMessage `json:"status"`
	}
	if json.Unmarshal(patch, &p) != nil {
		return "", false
	}
	raw, ok := p.Status["nominatedNodeName"]
	if !ok {
		return "", false
	}
	var node *string
	if json.Unmarshal(raw, &node) != nil || node == nil {
		return "", true
	}
	return *node, true
}

// runBinding runs a binding cycle (at once, or taking turns with the replay while it waits in
// PreBind: adapterkit.Bindings) and, when the binder bound the pod, reports the binding and
// delivers the bound pod as the informer would.
func (r *run) runBinding(bindingCycle func()) {
	p := r.cyclePod
	key := podKey(p.Pod)
	r.emit(&pb.Attempt{Pod: key, Attempt: int32(p.Attempts), Result: pb.AttemptResult_SCHEDULED, Node: r.cycleHost, Ties: r.cycleTies, Scores: r.cycleScores})
	_ = r.bindings.Run(func() {
		bindingCycle()
		r.bindingDone(key)
	})
}

// bindingDone reports how the binding cycle of pod `key` ended.
func (r *run) bindingDone(key string) {
	// A PreBind that failed after a successful volume write leaves it pending: it reaches the
	// informers, with the controllers' answers, once the binding cycle is over (as in the reference).
	if r.volumes != nil {
		r.volumes.Settle()
	}
	node, bound := r.bound[key]
	if bound {
		delete(r.bound, key)
		r.emit(&pb.Binding{Pod: key, Node: node})
	}
	// Bound, or failed and not requeued (deleted meanwhile): the pod leaves inflight.
	if r.inFlight[key] {
		delete(r.inFlight, key)
		r.emit(&pb.QueueTransition{Pod: key, From: "inflight", To: "none", Cause: "Done"})
	}
	if bound {
		if err := r.objects.Bind(key, node); err != nil && r.failure == nil {
			r.failure = err
		}
	}
}

func failedAttempt(p *framework.QueuedPodInfo, status *framework.Status, nominating *framework.NominatingInfo, victims []string) *pb.Attempt {
	a := &pb.Attempt{Pod: podKey(p.Pod), Attempt: int32(p.Attempts), Result: pb.AttemptResult_ERROR, Message: status.Message()}
	if status.IsUnschedulable() {
		a.Result = pb.AttemptResult_UNSCHEDULABLE
	}
	var fitErr *framework.FitError
	if errors.As(status.AsError(), &fitErr) {
		a.UnschedulablePlugins = sortedCopy(fitErr.Diagnosis.UnschedulablePlugins.List())
	} else if plugin := status.FailedPlugin(); plugin != "" && status.IsUnschedulable() {
		a.UnschedulablePlugins = []string{plugin}
	}
	if nominating != nil && nominating.Mode() == framework.ModeOverride {
		a.NominatedNode = nominating.NominatedNodeName
	}
	a.Victims = victims
	return a
}

// observe runs one queue operation and reports every pod it moved, with upstream's label.
func (r *run) observe(op scheduler.SchedcheckQueueOp, run func()) {
	if op.Pod == nil {
		r.observeMove(op, run)
		return
	}
	key := podKey(op.Pod)
	from := r.bridge.Where(key)
	if op.Kind == "Failure" && r.inFlight[key] {
		delete(r.inFlight, key)
		if from != "" {
			// Re-queued while in flight (an update during the attempt): upstream's
			// AddUnschedulableIfNotPresent refuses it and nothing moves.
			run()
			return
		}
		from = "inflight"
	}
	run()
	to := r.bridge.Where(key)
	if from == to {
		return
	}
	label := op.Label
	// v1.27's Update logs a move from unschedulablePods to activeQ as BackoffComplete.
	if op.Kind == "Update" && from == "unschedulable" && to == "active" {
		label = "BackoffComplete"
	}
	r.emit(&pb.QueueTransition{Pod: key, From: orNone(from), To: orNone(to), Cause: label})
}

// observeMove reports the pods a move took out of backoffQ or unschedulablePods, in key order.
func (r *run) observeMove(op scheduler.SchedcheckQueueOp, run func()) {
	keys := r.bridge.WaitingKeys()
	before := make([]string, len(keys))
	for i, key := range keys {
		before[i] = r.bridge.Where(key)
	}
	if op.Kind == "MoveAll" {
		r.log.Move(r.now, op.Label)
	}
	run()
	for i, key := range keys {
		if after := r.bridge.Where(key); after != before[i] {
			r.emit(&pb.QueueTransition{Pod: key, From: before[i], To: orNone(after), Cause: op.Label})
		}
	}
}

func orNone(where string) string {
	if where == "" {
		return "none"
	}
	return where
}
