package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	k8stesting "k8s.io/client-go/testing"
	fwk "k8s.io/kube-scheduler/framework"

	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// write is one API write of the scheduler that the informers would deliver back: a pod's
// status.nominatedNodeName (set or cleared) or a pod's deletion (a preemption victim).
type write struct {
	delete bool
	pod    string
	node   string
}

// installReactors makes the fake API server record what the scheduler writes: bindings (applied
// when the binding cycle ends), pod deletions (preemption victims) and the nominatedNodeName of
// status patches (the preemptor's nomination, and those preemption clears). They reach the
// informers after the preemptor's failure handling and the asynchronous preemption's body, in
// the order they were written. The conditions of status patches are not replayed: a status-only
// update moves no pod. VolumeBinding's writes of volumes and claims are refused
// (adapterkit.RefuseVolumeWrites).
func (r *run) installReactors() {
	adapterkit.RefuseVolumeWrites(&r.client.Fake)
	r.client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*v1.Binding)
		if err := r.podGone(a.GetNamespace(), b.Name); err != nil {
			return true, nil, err
		}
		r.bound[a.GetNamespace()+"/"+b.Name] = b.Target.Name
		return true, b, nil
	})
	r.client.PrependReactor("delete", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r.writes = append(r.writes, write{delete: true, pod: a.GetNamespace() + "/" + a.(k8stesting.DeleteAction).GetName()})
		return true, nil, nil
	})
	r.client.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		patch := a.(k8stesting.PatchAction)
		if node, ok := nominationInPatch(patch.GetPatch()); ok {
			r.writes = append(r.writes, write{pod: a.GetNamespace() + "/" + patch.GetName(), node: node})
		}
		return true, nil, nil
	})
}

// queueHooks reports every move upstream's queue makes (internalqueue.SchedcheckIncoming).
func queueHooks(r *run) {
	internalqueue.SchedcheckIncoming = r.noteIncoming
}

// wrapScheduler hooks the exported seams of one scheduling cycle: the pop and the algorithm's
// result (tie set; during_attempt events arrive after it) through the bridge, whose WrapPop and
// WrapSchedulePod hide that their signatures differ between minors, and the failure handler (an
// unschedulable or failed attempt). Binding cycles come through SchedcheckHooks.RunBinding.
func (r *run) wrapScheduler() {
	r.bridge.WrapPop(func(p *framework.QueuedPodInfo, group []*framework.QueuedPodInfo, fromBackoff bool) {
		from := "active"
		if fromBackoff {
			from = "backoff"
		}
		if p != nil && p.Pod != nil {
			key := podKey(p.Pod)
			r.where[key] = "inflight"
			r.emit(&pb.QueueTransition{Pod: key, From: from, To: "inflight", Cause: "Pop"})
			r.cyclePod = p
		}
		r.notePodGroupPop(group, from)
	})
	r.bridge.WrapSchedulePod(func(podInfo *framework.QueuedPodInfo, host string, err error) {
		r.cycleTies = sortedCopy(r.bridge.TakeTies())
		r.cycleScores = topScores(r.bridge.TakeScores(), r.scoreTop)
		if err == nil && len(r.cycleTies) == 0 {
			r.cycleTies = []string{host}
		}
		r.cycleHost = host
		r.noteMemberResult(podInfo)
		if len(r.during) > 0 {
			if derr := r.deliverDuring(); derr != nil && r.failure == nil {
				r.failure = derr
			}
		}
	})
	failureHandler := r.sched.FailureHandler
	r.sched.FailureHandler = func(ctx context.Context, fw framework.Framework, p *framework.QueuedPodInfo, status *fwk.Status, nominating *fwk.NominatingInfo, start time.Time) {
		attempt := failedAttempt(p, status, nominating)
		r.emit(attempt)
		failureHandler(ctx, fw, p, status, nominating, start)
		r.runAsync()
		attempt.Victims = r.victims()
		r.applyWrites()
	}
}

// notePodGroupPop reports the pop of a pod group (v1.37's queue entities with GenericWorkload; the
// bridge gives its members in order): each queued member goes inflight.
func (r *run) notePodGroupPop(group []*framework.QueuedPodInfo, from string) {
	for _, p := range group {
		key := podKey(p.Pod)
		r.where[key] = "inflight"
		r.emit(&pb.QueueTransition{Pod: key, From: from, To: "inflight", Cause: "Pop"})
	}
}

// scheduleOne runs one scheduling cycle and its binding cycle. A popped pod that neither bound
// nor went back to a sub-queue (deleted meanwhile, already assumed) leaves inflight as Done.
func (r *run) scheduleOne() {
	r.cyclePod, r.cycleTies, r.cycleHost, r.writes, r.cycleWaits = nil, nil, "", nil, false
	r.bridge.ScheduleOne(r.ctx)
	r.runAsync()
	r.runPermitted() // waiting pods this cycle allowed (a gang's quorum) finish binding
	r.applyWrites()
	if p := r.cyclePod; p != nil {
		key := podKey(p.Pod)
		if r.where[key] == "inflight" && !r.cycleWaits {
			delete(r.where, key)
			r.emit(&pb.QueueTransition{Pod: key, From: "inflight", To: "none", Cause: "Done"})
		}
	}
}

// runAsync runs the asynchronous preemption bodies started so far, in the order they started.
func (r *run) runAsync() {
	for len(r.async) > 0 {
		body := r.async[0]
		r.async = r.async[1:]
		body()
	}
}

// victims are the pods deleted by the writes pending delivery, sorted.
func (r *run) victims() []string {
	var out []string
	for _, w := range r.writes {
		if w.delete {
			out = append(out, w.pod)
		}
	}
	return sortedCopy(out)
}

// applyWrites delivers the pending writes to the informers in the order they were made.
func (r *run) applyWrites() {
	r.deliverClaims()
	writes := r.writes
	r.writes = nil
	for _, w := range writes {
		var err error
		if w.delete {
			err = r.objects.DeletePod(w.pod)
		} else {
			err = r.objects.Nominate(w.pod, w.node)
		}
		if err != nil && r.failure == nil {
			r.failure = err
		}
	}
}

// deliverClaims delivers the scheduler's claim writes not delivered yet (draObjects).
func (r *run) deliverClaims() {
	if err := r.dra.deliver(); err != nil && r.failure == nil {
		r.failure = err
	}
	if err := r.groups.deliver(); err != nil && r.failure == nil {
		r.failure = err
	}
}

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
	r.cycleWaits = r.bindings.Run(func() {
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
	// PreBind's claim writes (allocation, reservation) reach the informer before the binding.
	r.deliverClaims()
	node, bound := r.bound[key]
	if bound {
		delete(r.bound, key)
		r.emit(&pb.Binding{Pod: key, Node: node})
	}
	// Bound, or failed and not requeued (deleted meanwhile): the pod leaves inflight.
	if r.where[key] == "inflight" {
		delete(r.where, key)
		r.emit(&pb.QueueTransition{Pod: key, From: "inflight", To: "none", Cause: "Done"})
	}
	if bound {
		if err := r.objects.Bind(key, node); err != nil && r.failure == nil {
			r.failure = err
		}
	}
}

func failedAttempt(p *framework.QueuedPodInfo, status *fwk.Status, nominating *fwk.NominatingInfo) *pb.Attempt {
	a := &pb.Attempt{Pod: podKey(p.Pod), Attempt: int32(p.Attempts), Result: pb.AttemptResult_ERROR, Message: status.Message()}
	if status.IsRejected() {
		a.Result = pb.AttemptResult_UNSCHEDULABLE
	}
	var fitErr *framework.FitError
	if errors.As(status.AsError(), &fitErr) {
		a.UnschedulablePlugins = sets.List(fitErr.Diagnosis.UnschedulablePlugins)
	} else if plugin := status.Plugin(); plugin != "" && status.IsRejected() {
		a.UnschedulablePlugins = []string{plugin}
	}
	if nominating.Mode() == fwk.ModeOverride {
		a.NominatedNode = nominating.NominatedNodeName
	}
	return a
}

// noteIncoming reports a pod's move into a sub-queue with upstream's label. A pop from backoffQ
// (upstream's PopFromBackoffQ label, "active") is reported by the pop itself, as backoff->inflight.
func (r *run) noteIncoming(queue string, pod *v1.Pod, event string) {
	if event == framework.PopFromBackoffQ {
		return
	}
	key := podKey(pod)
	from := r.where[key]
	if from == "" {
		from = "none"
	}
	r.where[key] = queue
	if from == queue {
		return
	}
	r.emit(&pb.QueueTransition{Pod: key, From: from, To: queue, Cause: event})
}

// observeDelete runs a queue deletion and reports the pod leaving its sub-queue.
func (r *run) observeDelete(pod *v1.Pod, run func()) {
	key := podKey(pod)
	before := r.bridge.Where(pod.Namespace, pod.Name)
	run()
	if before == "" {
		before = r.heldMember(pod)
	}
	if before == "" || r.bridge.Where(pod.Namespace, pod.Name) != "" {
		return
	}
	delete(r.where, key)
	r.emit(&pb.QueueTransition{Pod: key, From: before, To: "none", Cause: "PodDelete"})
}

// noteMoveAll records a MoveAllToActiveOrBackoffQueue request (PROTOCOL.md, move_requests).
func (r *run) noteMoveAll(label string) {
	r.log.Move(r.now, label)
}

// podGone is the API server's NotFound for the binding of a pod deleted while its cycle was in
// flight (a trace event during the attempt): a pod-group cycle goes on placing and binding every
// member it popped, and upstream's binding of a deleted pod fails this way, so the binding cycle
// fails and the pod is forgotten.
func (r *run) podGone(namespace, name string) error {
	if _, err := r.factory.Core().V1().Pods().Lister().Pods(namespace).Get(name); err != nil {
		return apierrors.NewNotFound(v1.Resource("pods"), name)
	}
	return nil
}
