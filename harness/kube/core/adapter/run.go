package adapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"k8s.io/kubernetes/pkg/scheduler"
	apidispatcher "k8s.io/kubernetes/pkg/scheduler/backend/api_dispatcher"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/kubernetes/pkg/scheduler/util"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/vtime"
	"schedcheck.local/kube/shared/adapterkit"
)

// compatLevel is the Hello.compat this adapter answers ("" means the adapter's own level): the
// minor of the bridge it is linked with.
const compatLevel = scheduler.SchedcheckMinor

// traceLevels are the older compatibility levels whose traces the adapter also replays, at its own
// level: the harness sends the trace header's compat, and every trace it replays is at 1.27 (the
// reference's level), whose objects and configuration the newer minors read unchanged. Any other level is
// refused.
var traceLevels = []string{"1.27"}

// checkCompat accepts "", compatLevel and traceLevels.
func checkCompat(compat string) error {
	if compat == "" || compat == compatLevel {
		return nil
	}
	for _, l := range traceLevels {
		if compat == l {
			return nil
		}
	}
	return fmt.Errorf("Hello.compat %q is not implemented: this adapter runs kube-scheduler %s (compat %s; it also replays traces of compat %s at its own level)", compat, kubernetesVersion(), compatLevel, strings.Join(traceLevels, ", "))
}

// maxCyclesPerInstant bounds the scheduling cycles of one instant: with SchedulerPopFromBackoffQ
// a pod requeued into backoffQ is popped again at once while activeQ is empty, so a pod that keeps
// failing and being requeued by the writes of its own failure would never let virtual time move.
const maxCyclesPerInstant = 100000

// run is one replay: a scheduler built at Hello and driven through Events and Finish.
type run struct {
	volumes *adapterkit.VolumeControllers // with Hello.volume_controllers only
	// Binding cycles: inline, or taking turns with the replay when they can wait (a volume latency).
	bindings *adapterkit.Bindings
	opts     options
	ctx      context.Context
	cancel   context.CancelFunc
	clock    *clocktesting.FakeClock
	epoch    time.Time
	last     int64 // the last instant run; -1 before the first
	now      int64
	client   *fake.Clientset
	factory  *adapterkit.SyncFactory
	sched    *scheduler.Scheduler
	bridge   *scheduler.SchedcheckBridge
	rng      *adapterkit.SplitMix64

	objects *adapterkit.Objects
	dra     *draObjects   // the DRA kinds' informers and the fake API server's claims
	groups  *groupObjects // Workloads and PodGroups, and the fake API server's PodGroups
	// permits parks binding cycles waiting on Permit (nil: GenericWorkload off); permitTimers
	// are their timeouts on the virtual clock; members the results of a pod-group cycle's
	// members, for their attempts (podgroups.go).
	permits      *adapterkit.PermitWaits
	permitTimers []permitTimer
	permitSeq    int
	members      map[string]memberResult
	log          adapterkit.Decisions
	// where is the adapter's view of each pending pod's place: "active", "backoff",
	// "unschedulable" or "inflight" (absent: none), kept from the moves upstream reports.
	where map[string]string

	// The cycle in progress.
	cyclePod   *framework.QueuedPodInfo
	cycleTies  []string
	cycleHost  string
	cycleWaits bool              // the cycle's binding waits in PreBind (adapterkit.Bindings)
	writes     []write           // the scheduler's API writes (nominations, deletions), in order
	async      []func()          // asynchronous preemption bodies waiting to run
	bound      map[string]string // pod key -> node, from the Binding the binder created
	during     []*pb.ApiEvent
	duringAt   uint64
	startReads int64 // reads of unstarted pods' start times at this instant
	failure    error // a delivery error inside a cycle, reported at the end of the request

	// Recorded scores (Hello.record_scores): the top scoreTop of the cycle's score phase.
	scoreTop    int
	cycleScores []*pb.NodeScore
}

func newRun(o options) *run {
	return &run{opts: o, last: -1, where: map[string]string{}, bound: map[string]string{}}
}

func (r *run) Hello(h *pb.Hello) (*pb.HelloAck, error) {
	if err := checkCompat(h.GetCompat()); err != nil {
		return nil, err
	}
	if h.GetCycleLatencyNs() != 0 || h.GetBindLatencyNs() != 0 {
		return nil, errors.New("cycle and bind latencies are not supported by the kube adapters (cycles and bindings complete at their instant)")
	}
	if err := applyGates(); err != nil {
		return nil, err
	}
	if err := applyRunGates(h.GetFeatureGates()); err != nil {
		return nil, err
	}
	cfg, source, err := adapterkit.LoadConfiguration(h.GetConfigYaml(), h.GetConfigSource())
	if err != nil {
		return nil, err
	}
	r.rng = adapterkit.NewSplitMix64(h.GetSeed())
	r.scoreTop = int(h.GetRecordScores())
	r.epoch = time.Unix(0, h.GetEpochUnixNs()).UTC()
	r.clock = clocktesting.NewFakeClock(r.epoch)
	adapterkit.SetVirtualClock(r.clock)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.client = fake.NewSimpleClientset()
	r.installReactors()
	r.factory = adapterkit.NewSyncFactory(r.client, registration{}, wrapInformer)
	r.objects = adapterkit.NewObjects(r.factory)
	r.dra = newDRAObjects(r.factory)
	r.objects.SetDRA(r.dra)
	r.dra.installReactors(&r.client.Fake)
	// VolumeBinding's PreBind writes: answered by the volume controllers model, or refused
	// (installReactors) when it is off. The hook is global, like the others.
	volumebinding.SchedcheckSettle, volumebinding.SchedcheckWaitTick, r.volumes = nil, nil, nil
	latency := h.GetVolumeLatencyNs()
	if latency < 0 || (latency > 0 && !h.GetVolumeControllers()) {
		return nil, errors.New("Hello.volume_latency_ns: a latency needs Hello.volume_controllers, and is not negative")
	}
	// Binding cycles take turns with the loop when they can wait: in PreBind for the volume
	// controllers, or on Permit for a gang (GenericWorkload).
	r.bindings = adapterkit.NewBindings(latency > 0 || genericWorkload())
	r.setupGroups()
	if h.GetVolumeControllers() {
		r.volumes = r.objects.AnswerVolumeWrites(&r.client.Fake)
		volumebinding.SchedcheckSettle = r.volumes.Settle
		if latency > 0 {
			r.volumes.AnswerLater(latency, func() int64 { return r.now })
			volumebinding.SchedcheckWaitTick = func(interval time.Duration) { r.bindings.Park(r.now + int64(interval)) }
		}
	}

	// The hooks are global: set them before New, which may already read some.
	framework.SchedcheckRand = r.rng.Int
	framework.SchedcheckNow = r.clock.Now
	dynamicresources.SchedcheckNow = r.clock.Now
	defaultpreemption.SchedcheckSetOffsetRand(func(int32) int32 { return 0 })
	preemption.SchedcheckAsync = func(body func()) { r.async = append(r.async, body) }
	// SchedulerAsyncAPICalls (off by default): the dispatcher's calls run as they are queued.
	apidispatcher.SchedcheckInline = true
	// A real clock moves on between two reads; the virtual one moves on by 1 ns per read of an
	// unstarted pod's start time, so that upstream's comparisons keep their order.
	util.SchedcheckNow = func() time.Time {
		r.startReads++
		return r.clock.Now().Add(time.Duration(r.startReads))
	}
	queueHooks(r)
	scheduler.SchedcheckReservoir = nil
	if r.opts.reservoir {
		scheduler.SchedcheckReservoir = r.rng.Intn
	}

	opts := append(adapterkit.SchedulerOptions(cfg), scheduler.WithFrameworkOutOfTreeRegistry(r.opts.registry), scheduler.WithClock(r.clock))
	sched, err := scheduler.New(r.ctx, r.client, r.factory, nil, fakeRecorders, opts...)
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", source, err)
	}
	r.sched = sched
	r.bridge = scheduler.SchedcheckAttach(sched, klog.FromContext(r.ctx), scheduler.SchedcheckHooks{
		Delete:     r.observeDelete,
		MoveAll:    r.noteMoveAll,
		RunBinding: r.runBinding,
	})
	r.wrapScheduler()
	return &pb.HelloAck{SchedulerName: r.opts.name, SchedulerVersion: versionText(r.opts.reservoir), ConfigSource: source}, nil
}

func (r *run) Events(e *pb.Events) (*pb.Decisions, error) {
	t := e.GetTimeNs()
	if t <= r.last {
		return nil, fmt.Errorf("Events at %d ns is not after the previous instant (%d ns)", t, r.last)
	}
	if err := r.advance(t); err != nil {
		return nil, err
	}
	if err := r.instant(t, e.GetEvents(), e.GetFirstIndex()); err != nil {
		return nil, err
	}
	return r.take(), nil
}

func (r *run) Finish(f *pb.Finish) (*pb.Decisions, error) {
	defer r.cancel()
	if err := r.advance(f.GetEndNs() + 1); err != nil {
		return nil, err
	}
	return r.take(), nil
}

// advance runs the internal instants strictly before `before`: the flush ticks, and the instants
// at which the volume controllers answer or a waiting binding cycle looks again.
func (r *run) advance(before int64) error {
	for {
		t := r.nextPermitDeadline(adapterkit.NextInternalInstant(r.last, r.volumes, r.bindings))
		if t >= before {
			return nil
		}
		if err := r.instant(t, nil, 0); err != nil {
			return err
		}
	}
}

// instant runs one instant of the replay conventions: the trace's events in order (those marked
// during_attempt wait for the first cycle), the flushes due, then cycles while a pod can be
// popped (activeQ, or backoffQ when activeQ is empty: SchedulerPopFromBackoffQ).
func (r *run) instant(t int64, evs []*pb.ApiEvent, firstIndex uint64) error {
	r.now, r.last, r.startReads = t, t, 0
	r.clock.SetTime(r.epoch.Add(time.Duration(t)))
	r.during, r.duringAt = nil, 0
	for i, e := range evs {
		index := firstIndex + uint64(i)
		if e.GetDuringAttempt() {
			if len(r.during) == 0 {
				r.duringAt = index
			}
			r.during = append(r.during, e)
			continue
		}
		if err := r.objects.Apply(e, index); err != nil {
			return err
		}
	}
	// Permit timeouts due, then the waiting binding cycles that the events or timeouts rejected.
	r.firePermitTimeouts(t)
	adapterkit.RunDueBeforeFlushes(t, r.volumes, r.bindings)
	if vtime.IsBackoffTick(t) {
		r.bridge.FlushBackoffQCompleted()
	}
	if vtime.IsLeftoverTick(t) {
		r.bridge.FlushUnschedulableEntitiesLeftover()
	}
	cycles := 0
	for {
		for r.bridge.Poppable() && r.failure == nil {
			if cycles++; cycles > maxCyclesPerInstant {
				return fmt.Errorf("more than %d scheduling cycles at t=%d ns: a pod keeps being requeued at one instant", maxCyclesPerInstant, t)
			}
			r.scheduleOne()
		}
		if r.failure != nil {
			return r.failure
		}
		if len(r.during) == 0 {
			return nil
		}
		if err := r.deliverDuring(); err != nil { // no cycle ran at this instant
			return err
		}
	}
}

func (r *run) deliverDuring() error {
	evs, index := r.during, r.duringAt
	r.during = nil
	for i, e := range evs {
		if err := r.objects.Apply(e, index+uint64(i)); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) take() *pb.Decisions { return r.log.Take() }

func (r *run) emit(body any) { r.log.Emit(r.now, body) }

var (
	podKey            = adapterkit.PodKey
	sortedCopy        = adapterkit.SortedCopy
	kubernetesVersion = adapterkit.KubernetesVersion
)
