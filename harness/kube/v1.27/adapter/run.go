package adapter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding"
	"k8s.io/kubernetes/pkg/scheduler/util"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/vtime"
	"schedcheck.local/kube/shared/adapterkit"
)

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

	objects  *adapterkit.Objects
	log      adapterkit.Decisions
	inFlight map[string]bool

	// The cycle in progress.
	cyclePod    *framework.QueuedPodInfo
	cycleTies   []string
	cycleHost   string
	victims     []string
	nominations []nomination      // nominatedNodeName patches of the cycle, in order
	bound       map[string]string // pod key -> node, from the Binding the binder created
	during      []*pb.ApiEvent
	duringAt    uint64
	startReads  int64 // reads of unstarted pods' start times at this instant
	failure     error // a delivery error inside a cycle, reported at the end of the request

	// Recorded scores (Hello.record_scores): the top scoreTop of the cycle's score phase.
	scoreTop    int
	cycleScores []*pb.NodeScore
}

func newRun(o options) *run {
	return &run{opts: o, last: -1, inFlight: map[string]bool{}, bound: map[string]string{}}
}

func (r *run) Hello(h *pb.Hello) (*pb.HelloAck, error) {
	if h.GetCompat() != "" && h.GetCompat() != "1.27" {
		return nil, fmt.Errorf("compatibility level %q: this adapter runs kube-scheduler v1.27 (compat 1.27)", h.GetCompat())
	}
	if h.GetCycleLatencyNs() != 0 || h.GetBindLatencyNs() != 0 {
		return nil, errors.New("cycle and bind latencies are not supported by the kube adapters (cycles and bindings complete at their instant)")
	}
	if len(h.GetFeatureGates()) > 0 {
		return nil, errors.New("Hello.feature_gates: this adapter runs kube-scheduler v1.27 with its default feature gates")
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
	r.factory = adapterkit.NewSyncFactory(r.client, adapterkit.SyncedRegistration{}, nil)
	r.objects = adapterkit.NewObjects(r.factory)
	// VolumeBinding's PreBind writes: answered by the volume controllers model, or refused
	// (installReactors) when it is off. The hook is global, like the others.
	volumebinding.SchedcheckSettle, volumebinding.SchedcheckWaitTick, r.volumes = nil, nil, nil
	latency := h.GetVolumeLatencyNs()
	if latency < 0 || (latency > 0 && !h.GetVolumeControllers()) {
		return nil, errors.New("Hello.volume_latency_ns: a latency needs Hello.volume_controllers, and is not negative")
	}
	r.bindings = adapterkit.NewBindings(latency > 0)
	if h.GetVolumeControllers() {
		r.volumes = r.objects.AnswerVolumeWrites(&r.client.Fake)
		volumebinding.SchedcheckSettle = r.volumes.Settle
		if latency > 0 {
			r.volumes.AnswerLater(latency, func() int64 { return r.now })
			volumebinding.SchedcheckWaitTick = func(interval time.Duration) { r.bindings.Park(r.now + int64(interval)) }
		}
	}

	opts := append(adapterkit.SchedulerOptions(cfg), scheduler.WithFrameworkOutOfTreeRegistry(r.opts.registry))
	recorders := func(string) events.EventRecorder { return &events.FakeRecorder{} }
	sched, err := scheduler.New(r.client, r.factory, nil, recorders, r.ctx.Done(), opts...)
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", source, err)
	}
	r.sched = sched
	r.bridge = scheduler.SchedcheckAttach(sched, r.clock, r.observe, nil)
	framework.SchedcheckRand = r.rng.Intn
	framework.SchedcheckPreemptionOffset = func(int32) int32 { return 0 }
	// A real clock moves on between two reads; the virtual one moves on by 1 ns per read of an
	// unstarted pod's start time, so that upstream's comparisons keep their order.
	util.SchedcheckNow = func() time.Time {
		r.startReads++
		return r.clock.Now().Add(time.Duration(r.startReads))
	}
	r.wrapScheduler()
	return &pb.HelloAck{SchedulerName: r.opts.name, SchedulerVersion: adapterkit.BuildName("1.27"), ConfigSource: source}, nil
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
		t := adapterkit.NextInternalInstant(r.last, r.volumes, r.bindings)
		if t >= before {
			return nil
		}
		if err := r.instant(t, nil, 0); err != nil {
			return err
		}
	}
}

// instant runs one instant of the replay conventions: the trace's events in order (those marked
// during_attempt wait for the first cycle), the flushes due, then cycles while activeQ has pods.
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
	adapterkit.RunDueBeforeFlushes(t, r.volumes, r.bindings)
	if vtime.IsBackoffTick(t) {
		r.bridge.FlushBackoffQCompleted(r.observe)
	}
	if vtime.IsLeftoverTick(t) {
		r.bridge.FlushUnschedulablePodsLeftover(r.observe)
	}
	for {
		for r.bridge.ActiveLen() > 0 && r.failure == nil {
			r.bridge.ScheduleOne(r.ctx)
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
