//go:build kube1_37

package adapter

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	k8stesting "k8s.io/client-go/testing"
	schedulingdefaults "k8s.io/kubernetes/pkg/apis/scheduling/v1beta1"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// genericWorkload says whether this run has the GenericWorkload gate on (Hello.feature_gates; off
// by default at v1.37). With it the scheduler reads PodGroups, GangScheduling holds a gang's pods
// at PreEnqueue and Permit, and the queue pops whole pod groups.
func genericWorkload() bool { return utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) }

// groupObjects feeds Workloads and PodGroups (scheduling.k8s.io/v1beta1) to the informers: the
// scheduler registers handlers on PodGroups (its cache's pod-group states and the queue's pod-group
// entities); nothing in it reads Workloads, whose informer only stores them. It also plays the API
// server for the scheduler's PodGroup status patches (the PodGroupInitiallyScheduled condition).
type groupObjects struct {
	podGroups *adapterkit.SyncInformer
	workloads *adapterkit.SyncInformer
	// api is the API server's view of each PodGroup ("namespace/name").
	api map[string]*schedulingv1beta1.PodGroup
	// pending are the scheduler's status patches not delivered to the informer yet, in order.
	pending []*schedulingv1beta1.PodGroup
	// version is the last resourceVersion given to a PodGroup write (the trace's and the
	// scheduler's), so that a later write always reads as newer.
	version uint64
}

func newGroupObjects(f *adapterkit.SyncFactory) *groupObjects {
	s := f.Scheduling().V1beta1()
	return &groupObjects{
		podGroups: f.Informer(&schedulingv1beta1.PodGroup{}, s.PodGroups().Informer),
		workloads: f.Informer(&schedulingv1beta1.Workload{}, s.Workloads().Informer),
		api:       map[string]*schedulingv1beta1.PodGroup{},
	}
}

// Apply applies a trace event of a Workload or PodGroup: decoded from its Kubernetes JSON into the
// v1beta1 type with the API server's defaults, namespace "default" when it names none.
func (g *groupObjects) Apply(e *pb.ApiEvent) error {
	t := e.GetType()
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_PodGroup:
		pg := &schedulingv1beta1.PodGroup{}
		if err := adapterkit.Decode(obj.PodGroup, pg); err != nil {
			return err
		}
		schedulingdefaults.SetObjectDefaults_PodGroup(pg)
		if pg.Namespace == "" {
			pg.Namespace = "default"
		}
		key := pg.Namespace + "/" + pg.Name
		if t == pb.EventType_DELETED {
			delete(g.api, key)
		} else {
			g.stamp(pg)
			g.api[key] = pg.DeepCopy()
		}
		return g.podGroups.Deliver(t, pg)
	case *pb.ApiEvent_Workload:
		w := &schedulingv1beta1.Workload{}
		if err := adapterkit.Decode(obj.Workload, w); err != nil {
			return err
		}
		if w.Namespace == "" {
			w.Namespace = "default"
		}
		return g.workloads.Deliver(t, w)
	}
	return fmt.Errorf("not a Workload or PodGroup: %T", e.Object)
}

func (g *groupObjects) stamp(pg *schedulingv1beta1.PodGroup) {
	g.version++
	pg.ResourceVersion = strconv.FormatUint(g.version, 10)
}

// installReactors answers the scheduler's PodGroup status patches (util.PatchPodGroupStatus, a
// strategic merge patch of status): applied to the API server's view and delivered to the
// informer with the other writes of the cycle. A patch of a PodGroup the API server does not
// hold is NotFound, as upstream's API server says.
func (g *groupObjects) installReactors(f *k8stesting.Fake) {
	f.PrependReactor("patch", "podgroups", func(a k8stesting.Action) (bool, runtime.Object, error) {
		patch := a.(k8stesting.PatchAction)
		key := a.GetNamespace() + "/" + patch.GetName()
		current := g.api[key]
		if current == nil {
			return true, nil, apierrors.NewNotFound(schedulingv1beta1.Resource("podgroups"), patch.GetName())
		}
		before, err := json.Marshal(current)
		if err != nil {
			return true, nil, err
		}
		after, err := strategicpatch.StrategicMergePatch(before, patch.GetPatch(), &schedulingv1beta1.PodGroup{})
		if err != nil {
			return true, nil, fmt.Errorf("podGroup %s: status patch: %w", key, err)
		}
		pg := &schedulingv1beta1.PodGroup{}
		if err := json.Unmarshal(after, pg); err != nil {
			return true, nil, err
		}
		g.stamp(pg)
		g.api[key] = pg.DeepCopy()
		g.pending = append(g.pending, pg)
		return true, pg.DeepCopy(), nil
	})
}

// deliver hands the scheduler's pending PodGroup writes to the informer in the order they were
// made, as its watch would.
func (g *groupObjects) deliver() error {
	writes := g.pending
	g.pending = nil
	for _, pg := range writes {
		if err := g.podGroups.Deliver(pb.EventType_MODIFIED, pg); err != nil {
			return fmt.Errorf("delivering the scheduler's status patch of podGroup %s/%s: %w", pg.Namespace, pg.Name, err)
		}
	}
	return nil
}

// permitTimer is a waiting pod's timeout at one Permit plugin, on the virtual clock.
type permitTimer struct {
	due     int64
	seq     int // the order the waits started: timers due together fire in it
	waiting func() bool
	fire    func()
}

// memberResult is what a pod-group member's scheduling algorithm found, kept for the attempt
// reported when its binding cycle starts (the cycle of the whole group runs every member's
// algorithm first).
type memberResult struct {
	attempts int
	host     string
	ties     []string
	scores   []*pb.NodeScore
}

// setupGroups wires pod groups and Permit waits for this run. The hooks are global: each run sets
// them, to nil when GenericWorkload is off.
func (r *run) setupGroups() {
	r.groups = newGroupObjects(r.factory)
	r.objects.SetGroups(r.groups)
	r.groups.installReactors(&r.client.Fake)
	r.permitTimers, r.permitSeq, r.members = nil, 0, map[string]memberResult{}
	frameworkruntime.SchedcheckPermitTimer, frameworkruntime.SchedcheckPermitPark = nil, nil
	scheduler.SchedcheckPodGroupBinding = nil
	r.permits = nil
	if !genericWorkload() {
		return
	}
	r.permits = adapterkit.NewPermitWaits(r.bindings)
	frameworkruntime.SchedcheckPermitTimer = func(_ *v1.Pod, _ string, wait time.Duration, waiting func() bool, fire func()) {
		r.permitSeq++
		r.permitTimers = append(r.permitTimers, permitTimer{due: r.now + int64(wait), seq: r.permitSeq, waiting: waiting, fire: fire})
	}
	frameworkruntime.SchedcheckPermitPark = func(_ *v1.Pod, signalled func() bool) { r.permits.Park(signalled) }
	scheduler.SchedcheckPodGroupBinding = r.runMemberBinding
}

// nextPermitDeadline lowers t to the earliest timeout of a pod still waiting, when sooner.
func (r *run) nextPermitDeadline(t int64) int64 {
	kept := r.permitTimers[:0]
	for _, pt := range r.permitTimers {
		if pt.waiting() {
			kept = append(kept, pt)
			if pt.due > r.last && pt.due < t {
				t = pt.due
			}
		}
	}
	r.permitTimers = kept
	return t
}

// firePermitTimeouts fires the timeouts due at `now` (by due time, then the order the waits
// started) of pods still waiting: upstream's timer rejects the pod ("rejected due to timeout after
// waiting 5m0s at plugin GangScheduling"). The rejected binding cycles then finish
// (runPermitted).
func (r *run) firePermitTimeouts(now int64) {
	if r.permits == nil {
		return
	}
	sort.SliceStable(r.permitTimers, func(i, j int) bool {
		a, b := r.permitTimers[i], r.permitTimers[j]
		if a.due != b.due {
			return a.due < b.due
		}
		return a.seq < b.seq
	})
	var later []permitTimer
	for _, pt := range r.permitTimers {
		switch {
		case pt.due > now:
			later = append(later, pt)
		case pt.waiting():
			pt.fire()
		}
	}
	r.permitTimers = later
	r.runPermitted()
}

// runPermitted lets the binding cycles whose waiting pods were allowed or rejected finish, in the
// order they began to wait.
func (r *run) runPermitted() {
	if r.permits != nil {
		r.permits.RunSignalled()
	}
}

// noteMemberResult keeps the algorithm's result of a pod scheduled within a pod-group cycle.
func (r *run) noteMemberResult(p *framework.QueuedPodInfo) {
	if r.permits == nil || p == nil || p.Pod.Spec.SchedulingGroup == nil {
		return
	}
	r.members[podKey(p.Pod)] = memberResult{attempts: p.Attempts, host: r.cycleHost, ties: r.cycleTies, scores: r.cycleScores}
}

// runMemberBinding runs the binding cycle of a pod-group member, reporting its Scheduled attempt
// first, as runBinding does for a pod's own cycle.
func (r *run) runMemberBinding(pod *v1.Pod, bindingCycle func()) {
	key := podKey(pod)
	m := r.members[key]
	delete(r.members, key)
	r.emit(&pb.Attempt{Pod: key, Attempt: int32(m.attempts), Result: pb.AttemptResult_SCHEDULED, Node: m.host, Ties: m.ties, Scores: m.scores})
	r.bindings.Run(func() {
		bindingCycle()
		r.bindingDone(key)
	})
}

// heldMember is where the adapter last saw a pending pod-group member that the queue's
// sub-queues do not hold (Where answers ""): GangScheduling's PreEnqueue keeps a gang below
// minCount among the queue's pod-group entities, from which a deletion removes it too.
func (r *run) heldMember(pod *v1.Pod) string {
	if r.permits == nil || pod.Spec.SchedulingGroup == nil {
		return ""
	}
	switch where := r.where[podKey(pod)]; where {
	case "active", "backoff", "unschedulable":
		return where
	}
	return ""
}
