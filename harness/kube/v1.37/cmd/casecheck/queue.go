package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/backend/heap"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	schedulermetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	testingclock "k8s.io/utils/clock/testing"
)

// Kind `queue` at compat 1.37 (docs/FORMATS.md, "Queue cases at compat 1.37"): a list of ops
// (`expect.ops`) applied in order to upstream's own PriorityQueue, built from `queueConfig`, with
// the expectations checked as the ops run. The queue runs in virtual time (a fake clock from
// Unix time 1,700,000,000 s, no Run goroutines: the periodic flushes are ops) through the
// adapter build's bridge (_overlay/queue_bridge.go); ties in its heaps go by enqueue order
// (_overlay/heap_sequence.go), and a move takes the pool's pods in namespace/name order.

// queueProfile is the one profile of a queue case: the name kube-scheduler's default profile has,
// which the API server's defaulting gives a pod that names no scheduler.
const queueProfile = v1.DefaultSchedulerName

// queueEpoch is the virtual clock's start.
var queueEpoch = time.Unix(1_700_000_000, 0)

// maxQueueSeconds bounds every number of seconds of a queue case, and the virtual clock's
// advance, so that every timestamp plus backoff fits in int64 nanoseconds.
const maxQueueSeconds = 1_000_000_000

// popWait bounds how long Pop may take once SchedcheckPoppable said it would return. It only
// matters when upstream discards a popped pod that is already in flight and then finds nothing
// else: Pop then waits for a pod, which means nothing was poppable (see popNow).
const popWait = time.Second

// popWaker is the pod popNow adds to release a Pop that waits. Its key ("/schedcheck-pop-waker",
// no namespace) is none a case's pod can have: decodePod gives every pod a namespace.
var popWaker = &v1.Pod{
	ObjectMeta: metav1.ObjectMeta{Name: "schedcheck-pop-waker", UID: "schedcheck-pop-waker"},
	Spec:       v1.PodSpec{SchedulerName: queueProfile},
}

// The answers a queueingHints entry may fix.
const (
	answerQueue     = "Queue"
	answerQueueSkip = "QueueSkip"
	answerError     = "Error"
)

// queueCase is a decoded queue case: the queue's configuration and its ops.
type queueCase struct {
	initialBackoff     time.Duration
	maxBackoff         time.Duration
	maxInUnschedulable time.Duration
	hints              []queueHint
	schedulingGates    bool // preEnqueue: [SchedulingGates]
	ops                []queueOp
}

// queueHint is one entry of queueConfig.queueingHints: a registration of `plugin` for `event`
// whose hint function always gives `answer`.
type queueHint struct {
	event  fwk.ClusterEvent
	plugin string
	answer string
}

// queueOp is one decoded op. Pods named "ns/name" are resolved when the case is decoded, to the
// last object given for that key before the op.
type queueOp struct {
	at   string // "ops[3]", for messages
	name string

	pod    *v1.Pod   // add, update (the new object), delete, done
	oldPod *v1.Pod   // update
	key    string    // the pod's "ns/name"
	pods   []*v1.Pod // activate, in the listed order

	plugins, pendingPlugins []string         // failed
	podSchedulingCycle      *int64           // failed
	event                   fwk.ClusterEvent // event
	priorityAtMost          *int32           // event
	step                    time.Duration    // advanceClock

	checkPop       bool   // pop: `expect` given
	expectPop      string // pop: "ns/name", or "" for null
	expectAttempts *int   // pop

	expectQueues map[string][]string // expectQueues: field -> sorted keys (a field not given is not checked)
}

// queueOpFields lists the fields of each op besides `op`; the first `required` are required.
var queueOpFields = map[string]struct {
	fields   []string
	required int
}{
	"add":                        {[]string{"pod"}, 1},
	"update":                     {[]string{"pod"}, 1},
	"delete":                     {[]string{"pod"}, 1},
	"pop":                        {[]string{"expect", "expectAttempts"}, 0},
	"failed":                     {[]string{"pod", "plugins", "pendingPlugins", "podSchedulingCycle"}, 2},
	"event":                      {[]string{"event", "priorityAtMost"}, 1},
	"activate":                   {[]string{"pods"}, 1},
	"done":                       {[]string{"pod"}, 1},
	"advanceClock":               {[]string{"seconds"}, 1},
	"flushBackoff":               {nil, 0},
	"flushUnschedulableLeftover": {nil, 0},
	"expectQueues":               {[]string{"activeQ", "backoffQ", "unschedulable", "inFlight"}, 0},
}

// queueEventResources are the event resources of kube-scheduler v0.37.2 (fwk.EventResource), by
// their string; "*" (fwk.WildCard) goes only with the action All.
var queueEventResources = func() map[string]fwk.EventResource {
	m := map[string]fwk.EventResource{}
	for _, r := range []fwk.EventResource{
		fwk.Pod, fwk.AssignedPod, fwk.UnscheduledPod, fwk.TargetPod, fwk.Node,
		fwk.PersistentVolume, fwk.PersistentVolumeClaim, fwk.CSINode, fwk.CSIDriver,
		fwk.VolumeAttachment, fwk.CSIStorageCapacity, fwk.StorageClass, fwk.ResourceClaim,
		fwk.ResourceSlice, fwk.DeviceClass, fwk.PodGroup, fwk.CompositePodGroup, fwk.WildCard,
	} {
		m[string(r)] = r
	}
	return m
}()

// --- decoding ---

// decodeQueue reads queueConfig and expect.ops (fieldOfAnotherKind has refused the other fields).
func decodeQueue(rc *rawCase, c *testCase) error {
	qc := &queueCase{}
	if err := decodeQueueConfig(rc.QueueConfig, qc); err != nil {
		return err
	}
	if !present(rc.Expect) {
		return errors.New("nothing is expected (a queue case has expect.ops)")
	}
	var exp struct {
		Ops []json.RawMessage `json:"ops"`
	}
	if err := strictUnmarshal(rc.Expect, &exp, "expect"); err != nil {
		return err
	}
	if len(exp.Ops) == 0 {
		return errors.New("expect.ops: no op")
	}
	d := opDecoder{latest: map[string]*v1.Pod{}}
	for i, raw := range exp.Ops {
		op, err := d.decode(raw, fmt.Sprintf("ops[%d]", i))
		if err != nil {
			return err
		}
		qc.ops = append(qc.ops, op)
	}
	c.Queue = qc
	return nil
}

func decodeQueueConfig(raw json.RawMessage, qc *queueCase) error {
	qc.initialBackoff, qc.maxBackoff, qc.maxInUnschedulable = time.Second, 10*time.Second, 300*time.Second
	if !present(raw) {
		return nil
	}
	var cfg map[string]json.RawMessage
	if err := strictUnmarshal(raw, &cfg, "queueConfig"); err != nil {
		return err
	}
	for _, name := range sortedKeys(cfg) {
		v, what := cfg[name], "queueConfig."+name
		var err error
		switch name {
		case "podInitialBackoffSeconds":
			qc.initialBackoff, err = parseSeconds(v, 0, what)
		case "podMaxBackoffSeconds":
			qc.maxBackoff, err = parseSeconds(v, 0, what)
		case "podMaxInUnschedulablePodsDurationSeconds":
			qc.maxInUnschedulable, err = parseSeconds(v, 0, what)
		case "queueSort":
			var s string
			if s, err = parseString(v, what); err == nil && s != "PrioritySort" {
				err = fmt.Errorf("%s: %q: the queue sorts with PrioritySort only", what, s)
			}
		case "queueingHints":
			qc.hints, err = decodeQueueingHints(v)
		case "preEnqueue":
			var list []string
			if list, err = parseStrings(v, what); err == nil {
				for _, p := range list {
					if p != names.SchedulingGates || qc.schedulingGates {
						return fmt.Errorf("%s: %q: expected [SchedulingGates] (the one PreEnqueue plugin a queue case can name, once)", what, p)
					}
					qc.schedulingGates = true
				}
			}
		case "pluginEvents", "pluginsWithoutEnqueueExtensions":
			err = fmt.Errorf("%s: a compat 1.27 field; at compat 1.37 the plugins' events are queueingHints", what)
		default:
			err = fmt.Errorf("%s: unknown field", what)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeQueueingHints reads [{event: {resource, action}, plugin, hint}, ...], in order.
func decodeQueueingHints(raw json.RawMessage) ([]queueHint, error) {
	var list []json.RawMessage
	if err := strictUnmarshal(raw, &list, "queueConfig.queueingHints"); err != nil {
		return nil, err
	}
	var out []queueHint
	for i, item := range list {
		what := fmt.Sprintf("queueConfig.queueingHints[%d]", i)
		var h struct {
			Event  json.RawMessage `json:"event"`
			Plugin string          `json:"plugin"`
			Hint   string          `json:"hint"`
		}
		if err := strictUnmarshal(item, &h, what); err != nil {
			return nil, err
		}
		event, err := decodeQueueEvent(h.Event, what+".event")
		if err != nil {
			return nil, err
		}
		if h.Plugin == "" {
			return nil, fmt.Errorf("%s.plugin: missing", what)
		}
		switch h.Hint {
		case answerQueue, answerQueueSkip, answerError:
		default:
			return nil, fmt.Errorf("%s.hint %q: expected Queue, QueueSkip or Error", what, h.Hint)
		}
		out = append(out, queueHint{event: event, plugin: h.Plugin, answer: h.Hint})
	}
	return out, nil
}

// decodeQueueEvent reads {resource, action}: a resource of v0.37.2 taken as written (no
// unrolling of Pod), ActionType names joined by "|" (parseAction); {resource: "*", action: All}
// is the wildcard, which the event op sends as upstream's UnschedulableTimeout.
func decodeQueueEvent(raw json.RawMessage, what string) (fwk.ClusterEvent, error) {
	if !present(raw) {
		return fwk.ClusterEvent{}, fmt.Errorf("%s: missing", what)
	}
	var ev struct {
		Resource string `json:"resource"`
		Action   string `json:"action"`
	}
	if err := strictUnmarshal(raw, &ev, what); err != nil {
		return fwk.ClusterEvent{}, err
	}
	resource, ok := queueEventResources[ev.Resource]
	if !ok {
		return fwk.ClusterEvent{}, fmt.Errorf("%s.resource %q: not an EventResource of k8s.io/kube-scheduler v0.37.2 (e.g. Node, AssignedPod, UnscheduledPod, TargetPod, Pod, PersistentVolume, storage.k8s.io/CSINode, *)", what, ev.Resource)
	}
	action, err := parseAction(ev.Action)
	if err != nil {
		return fwk.ClusterEvent{}, fmt.Errorf("%s: %w", what, err)
	}
	if resource == fwk.WildCard && action != fwk.All {
		return fwk.ClusterEvent{}, fmt.Errorf("%s: resource \"*\" goes with action All only, not %q", what, ev.Action)
	}
	return fwk.ClusterEvent{Resource: resource, ActionType: action}, nil
}

// opDecoder decodes ops in order, keeping the last object given for each pod key.
type opDecoder struct {
	latest   map[string]*v1.Pod
	replaced *v1.Pod // the object the last inline pod replaced (nil: its key was new)
}

func (d *opDecoder) decode(raw json.RawMessage, at string) (queueOp, error) {
	var fields map[string]json.RawMessage
	if err := strictUnmarshal(raw, &fields, at); err != nil {
		return queueOp{}, err
	}
	name, err := parseString(fields["op"], at+".op")
	if err != nil {
		return queueOp{}, err
	}
	spec, ok := queueOpFields[name]
	if !ok {
		return queueOp{}, fmt.Errorf("%s.op: unknown op %q (compat 1.37 queue ops: add, update, delete, pop, failed, event, activate, done, advanceClock, flushBackoff, flushUnschedulableLeftover, expectQueues)", at, name)
	}
	allowed := map[string]bool{"op": true}
	for i, f := range spec.fields {
		allowed[f] = true
		if _, given := fields[f]; i < spec.required && !given {
			return queueOp{}, fmt.Errorf("%s.%s: missing (op %s)", at, f, name)
		}
	}
	for _, f := range sortedKeys(fields) {
		if !allowed[f] {
			return queueOp{}, fmt.Errorf("%s.%s: not a field of op %s", at, f, name)
		}
	}
	op := queueOp{at: at, name: name}
	field := func(f string) string { return at + "." + f }
	switch name {
	case "add", "delete":
		op.pod, err = d.pod(fields["pod"], field("pod"), true, true)
	case "update":
		if op.pod, err = d.pod(fields["pod"], field("pod"), false, true); err == nil {
			// d.pod recorded the new object: the old one is the one it replaced.
			op.oldPod = d.replaced
			if op.oldPod == nil {
				err = fmt.Errorf("%s: %s was not given before, so there is no old object to update", field("pod"), podKey(op.pod))
			}
		}
	case "done":
		op.pod, err = d.pod(fields["pod"], field("pod"), true, false)
	case "failed":
		// Inline too: upstream's tests requeue pods the queue never held.
		if op.pod, err = d.pod(fields["pod"], field("pod"), true, true); err != nil {
			break
		}
		if op.plugins, err = parseStrings(fields["plugins"], field("plugins")); err != nil {
			break
		}
		if raw, given := fields["pendingPlugins"]; given {
			if op.pendingPlugins, err = parseStrings(raw, field("pendingPlugins")); err != nil {
				break
			}
		}
		if raw, given := fields["podSchedulingCycle"]; given {
			var cycle int64
			if cycle, err = parseInteger(raw, 0, math.MaxInt64, field("podSchedulingCycle")); err == nil {
				op.podSchedulingCycle = &cycle
			}
		}
	case "activate":
		var list []json.RawMessage
		if err = strictUnmarshal(fields["pods"], &list, field("pods")); err != nil {
			break
		}
		for i, item := range list {
			var pod *v1.Pod
			if pod, err = d.pod(item, fmt.Sprintf("%s[%d]", field("pods"), i), true, true); err != nil {
				break
			}
			op.pods = append(op.pods, pod)
		}
	case "event":
		if op.event, err = decodeQueueEvent(fields["event"], field("event")); err != nil {
			break
		}
		if raw, given := fields["priorityAtMost"]; given {
			var p int64
			if p, err = parseInteger(raw, math.MinInt32, math.MaxInt32, field("priorityAtMost")); err == nil {
				p32 := int32(p)
				op.priorityAtMost = &p32
			}
		}
	case "advanceClock":
		op.step, err = parseSeconds(fields["seconds"], 0, field("seconds"))
	case "pop":
		err = d.decodePop(&op, fields)
	case "expectQueues":
		op.expectQueues = map[string][]string{}
		for _, f := range spec.fields {
			raw, given := fields[f]
			if !given {
				continue
			}
			var keys []string
			if keys, err = parseKeys(raw, field(f)); err != nil {
				break
			}
			op.expectQueues[f] = keys
		}
	}
	if err != nil {
		return queueOp{}, err
	}
	if op.pod != nil {
		op.key = podKey(op.pod)
	}
	return op, nil
}

func (d *opDecoder) decodePop(op *queueOp, fields map[string]json.RawMessage) error {
	if raw, given := fields["expect"]; given {
		op.checkPop = true
		if present(raw) {
			key, err := parseString(raw, op.at+".expect")
			if err == nil {
				err = checkKey(key, op.at+".expect")
			}
			if err != nil {
				return fmt.Errorf("%s.expect: expected \"ns/name\" or null, got %s", op.at, raw)
			}
			op.expectPop = key
		}
	}
	if raw, given := fields["expectAttempts"]; given {
		n, err := parseInteger(raw, 0, math.MaxInt32, op.at+".expectAttempts")
		if err != nil {
			return err
		}
		attempts := int(n)
		op.expectAttempts = &attempts
	}
	return nil
}

// pod reads a pod argument: "ns/name", a pod given before (when ref), or a Pod object (when
// inline), which becomes that key's latest object; d.replaced is the object it replaced.
func (d *opDecoder) pod(raw json.RawMessage, what string, ref, inline bool) (*v1.Pod, error) {
	d.replaced = nil
	var key string
	if err := json.Unmarshal(raw, &key); err == nil {
		if !ref {
			return nil, fmt.Errorf("%s: expected the pod object (inline), got %q", what, key)
		}
		pod, ok := d.latest[key]
		if !ok {
			return nil, fmt.Errorf("%s: unknown pod %q (a pod is given inline the first time)", what, key)
		}
		return pod, nil
	}
	if !inline {
		return nil, fmt.Errorf("%s: expected \"ns/name\" of a pod given before", what)
	}
	pod, err := decodePod(raw, what)
	if err != nil {
		return nil, err
	}
	if pod.Spec.SchedulerName == "" {
		pod.Spec.SchedulerName = queueProfile // the API server's default
	}
	if pod.Spec.SchedulerName != queueProfile {
		return nil, fmt.Errorf("%s: spec.schedulerName %q: a queue case has one profile, %s", what, pod.Spec.SchedulerName, queueProfile)
	}
	if pod.Spec.SchedulingGroup != nil {
		return nil, fmt.Errorf("%s: spec.schedulingGroup: pod groups are not part of queue cases", what)
	}
	key = podKey(pod)
	d.replaced = d.latest[key]
	d.latest[key] = pod
	return pod, nil
}

func podKey(pod *v1.Pod) string { return pod.Namespace + "/" + pod.Name }

// parseKeys reads a list of "ns/name" keys, sorted (they are compared as sets).
func parseKeys(raw json.RawMessage, what string) ([]string, error) {
	keys, err := parseStrings(raw, what)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		if err := checkKey(k, fmt.Sprintf("%s[%d]", what, i)); err != nil {
			return nil, err
		}
	}
	sort.Strings(keys)
	return keys, nil
}

func checkKey(key, what string) error {
	ns, name, ok := strings.Cut(key, "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("%s: %q is not \"ns/name\"", what, key)
	}
	return nil
}

func parseString(raw json.RawMessage, what string) (string, error) {
	var s string
	if !present(raw) || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%s: expected a string", what)
	}
	return s, nil
}

// parseStrings reads a list of strings ([] allowed; null is not a list).
func parseStrings(raw json.RawMessage, what string) ([]string, error) {
	var list []string
	if !present(raw) || json.Unmarshal(raw, &list) != nil {
		return nil, fmt.Errorf("%s: expected a list of strings", what)
	}
	return append([]string{}, list...), nil
}

// number reads a JSON number's text ("" when raw is not a number).
func number(raw json.RawMessage) string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	n, _ := v.(json.Number)
	return string(n)
}

// parseInteger reads an integer in [lo, hi], written as one (no fraction, no exponent).
func parseInteger(raw json.RawMessage, lo, hi int64, what string) (int64, error) {
	n, err := strconv.ParseInt(number(raw), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: expected an integer in [%d, %d], got %s", what, lo, hi, raw)
	}
	return n, nil
}

// parseSeconds reads a number of seconds in [lo, maxQueueSeconds] as a duration: an integer
// exactly, a fraction rounded to the nanosecond.
func parseSeconds(raw json.RawMessage, lo int64, what string) (time.Duration, error) {
	text := number(raw)
	bad := fmt.Errorf("%s: expected a number of seconds in [%d, %d], got %s", what, lo, maxQueueSeconds, raw)
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		if n < lo || n > maxQueueSeconds {
			return 0, bad
		}
		return time.Duration(n) * time.Second, nil
	}
	s, err := strconv.ParseFloat(text, 64)
	if err != nil || !(s >= float64(lo) && s <= maxQueueSeconds) { // NaN fails both
		return 0, bad
	}
	return time.Duration(math.Round(s * 1e9)), nil
}

// --- running ---

// queueRun is one queue case being run.
type queueRun struct {
	ctx    context.Context
	logger klog.Logger
	q      *queue.PriorityQueue
	clock  *testingclock.FakeClock
	moved  time.Duration // the virtual clock's advance so far
	// popped holds each pod's attempt from its Pop until `failed`, `done` or `delete` ends it:
	// `failed` requeues that very QueuedPodInfo, as the scheduler's failure handler does.
	popped map[string]*framework.QueuedPodInfo
}

// runQueue builds the case's queue and applies its ops, stopping at the first mismatch.
func (e *environment) runQueue(c *testCase) result {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	// Upstream logs a hint function's error as an unhandled error: here that is the Error a
	// case asks for, and what counts is the queue's state, so the queue's logs go nowhere.
	ctx = klog.NewContext(ctx, logr.Discard())
	q, clock, err := e.newQueue(ctx, c.Queue)
	if err != nil {
		return result{fail: err.Error()}
	}
	defer q.Close()
	r := &queueRun{ctx: ctx, logger: klog.FromContext(ctx), q: q, clock: clock, popped: map[string]*framework.QueuedPodInfo{}}
	for _, op := range c.Queue.ops {
		if res := r.apply(op); res.fail != "" || res.badInput != "" {
			return res
		}
	}
	return result{}
}

// newQueue builds upstream's PriorityQueue as scheduler.New does for one profile, on a fake
// clock and an informer factory over an empty fake clientset (the nominator's pod lister, never
// started: no pod is bound in a queue case).
func (e *environment) newQueue(ctx context.Context, qc *queueCase) (*queue.PriorityQueue, *testingclock.FakeClock, error) {
	heap.SchedcheckResetSequence() // enqueue numbers start again for every case
	clock := testingclock.NewFakeClock(queueEpoch)
	sorter := &queuesort.PrioritySort{}
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	opts := []queue.Option{
		queue.WithClock(clock),
		queue.WithPodInitialBackoffDuration(qc.initialBackoff),
		queue.WithPodMaxBackoffDuration(qc.maxBackoff),
		queue.WithPodMaxInUnschedulablePodsDuration(qc.maxInUnschedulable),
		queue.WithQueueingHintMapPerProfile(queue.QueueingHintMapPerProfile{queueProfile: hintMap(qc.hints)}),
		// Pop, Done and the hints report to it; the scheduler always has one. Its buffers are
		// drained on a timer and dropped when full, so it never blocks the queue.
		queue.WithMetricsRecorder(schedulermetrics.NewMetricsAsyncRecorder(1000, time.Second, ctx.Done())),
	}
	if qc.schedulingGates {
		// Made by the in-tree registry's factory, with the default gates' feature.Features.
		pl, err := e.registry[names.SchedulingGates](ctx, nil, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("creating plugin %s: %v", names.SchedulingGates, err)
		}
		pre, ok := pl.(fwk.PreEnqueuePlugin)
		if !ok {
			return nil, nil, fmt.Errorf("plugin %s is not a PreEnqueuePlugin", names.SchedulingGates)
		}
		opts = append(opts, queue.WithPreEnqueuePluginMap(map[string]map[string]fwk.PreEnqueuePlugin{
			queueProfile: {pl.Name(): pre},
		}))
	}
	return queue.NewPriorityQueue(sorter.Less, factory, opts...), clock, nil
}

// hintMap is the profile's QueueingHintMap: the registrations in the case's order under each
// event. The map exists even when empty: a profile without one would make upstream requeue
// every rejected pod after backoff ("No QueueingHintMap is registered for this profile").
func hintMap(hints []queueHint) queue.QueueingHintMap {
	m := queue.QueueingHintMap{}
	for _, h := range hints {
		m[h.event] = append(m[h.event], &queue.QueueingHintFunction{PluginName: h.plugin, QueueingHintFn: fixedHint(h.answer)})
	}
	return m
}

// fixedHint answers every question the same way, as upstream's tests' queueHintReturnQueue and
// queueHintReturnSkip do. Error returns QueueSkip with the error, so that a requeue can only come
// from upstream counting the error as Queue.
func fixedHint(answer string) fwk.QueueingHintFn {
	return func(klog.Logger, *v1.Pod, any, any) (fwk.QueueingHint, error) {
		switch answer {
		case answerQueue:
			return fwk.Queue, nil
		case answerQueueSkip:
			return fwk.QueueSkip, nil
		}
		return fwk.QueueSkip, errors.New("schedcheck: this queueing hint answers Error")
	}
}

// apply runs one op; a mismatch is a fail.
func (r *queueRun) apply(op queueOp) result {
	switch op.name {
	case "add":
		r.q.Add(r.ctx, op.pod)
	case "update":
		r.q.Update(r.ctx, op.oldPod, op.pod)
	case "delete":
		r.q.Delete(r.logger, op.pod)
		delete(r.popped, op.key)
	case "pop":
		return r.pop(op)
	case "failed":
		pInfo := r.popped[op.key]
		if pInfo == nil {
			// A pod with no attempt (never popped, or its attempt already ended): upstream's
			// tests requeue such a pod too, as a fresh QueuedPodInfo of its latest object
			// (newQueuedPodInfoForLookup: no timestamp, no attempts).
			podInfo, err := framework.NewPodInfo(op.pod)
			if err != nil {
				return result{badInput: fmt.Sprintf("%s.pod: %v", op.at, err)}
			}
			pInfo = &framework.QueuedPodInfo{PodInfo: podInfo}
		}
		delete(r.popped, op.key)
		pInfo.UnschedulablePlugins = sets.New(op.plugins...)
		pInfo.PendingPlugins = sets.New(op.pendingPlugins...)
		// An error ("already present in the ... queue", the pod having been added again while in
		// flight) is upstream refusing the requeue, which the scheduler only logs: the queue as it
		// stands is what the next ops check. The attempt ends either way (Done is deferred).
		cycle := r.q.SchedulingCycle()
		if op.podSchedulingCycle != nil {
			cycle = *op.podSchedulingCycle
		}
		_ = r.q.AddUnschedulablePodIfNotPresent(r.logger, pInfo, cycle)
	case "event":
		var preCheck queue.PreEnqueueCheck
		if op.priorityAtMost != nil {
			limit := *op.priorityAtMost
			// The scheduler's getLEPriorityPreCheck (eventhandlers.go), sent with an assigned
			// pod's deletion.
			preCheck = func(pod *v1.Pod) bool { return corev1helpers.PodPriority(pod) <= limit }
		}
		event := op.event
		if framework.ClusterEventIsWildCard(event) {
			event = framework.EventUnschedulableTimeout // with its label, as the leftover flush sends it
		}
		r.q.MoveAllToActiveOrBackoffQueue(r.logger, event, nil, nil, preCheck)
	case "activate":
		// One pod at a time in the listed order: upstream walks its map argument in Go's random
		// order, and each pod's activation is independent of the others'.
		for _, pod := range op.pods {
			r.q.Activate(r.logger, map[string]*v1.Pod{podKey(pod): pod})
		}
	case "done":
		uid := op.pod.UID
		if pInfo := r.popped[op.key]; pInfo != nil {
			uid = pInfo.Pod.UID // the object popped, should a later one have another uid
		}
		delete(r.popped, op.key)
		r.q.Done(uid)
	case "advanceClock":
		if op.step > maxQueueSeconds*time.Second-r.moved {
			return result{badInput: fmt.Sprintf("%s.seconds: the virtual clock would move more than %d s from its start", op.at, maxQueueSeconds)}
		}
		r.moved += op.step
		r.clock.Step(op.step)
	case "flushBackoff":
		r.q.SchedcheckFlushBackoffQCompleted(r.logger)
	case "flushUnschedulableLeftover":
		r.q.SchedcheckFlushUnschedulableEntitiesLeftover(r.logger)
	case "expectQueues":
		return r.expectQueues(op)
	}
	return result{}
}

// pop takes the head as the scheduler does, unless Pop would block (nothing poppable: null).
func (r *queueRun) pop(op queueOp) result {
	pInfo, err := r.popNow()
	if err != nil {
		return result{fail: fmt.Sprintf("%s pop: %v", op.at, err)}
	}
	got, attempts := "null", 0
	if pInfo != nil {
		got, attempts = podKey(pInfo.Pod), pInfo.Attempts
		r.popped[got] = pInfo
	}
	if op.checkPop {
		want := op.expectPop
		if want == "" {
			want = "null"
		}
		if want != got {
			return result{fail: fmt.Sprintf("%s pop: expected %s, got %s", op.at, want, got)}
		}
	}
	if op.expectAttempts != nil && *op.expectAttempts != attempts {
		return result{fail: fmt.Sprintf("%s pop: %s: expected %d attempts, got %d", op.at, got, *op.expectAttempts, attempts)}
	}
	return result{}
}

// popNow calls Pop when SchedcheckPoppable says it returns at once. Should Pop still wait (it
// discarded a popped pod that was already in flight and found nothing else, so it waits for a
// pod), nothing was poppable: popWaker is added to release it, popped, and its attempt ended with
// Done, which leaves the queue as the waiting Pop did (but for the scheduling cycle's count).
// Closing the queue instead would end every in-flight pod's attempt. Were Pop merely slow, it
// returns its pod and popWaker, still in activeQ, is deleted.
func (r *queueRun) popNow() (*framework.QueuedPodInfo, error) {
	if !r.q.SchedcheckPoppable() {
		return nil, nil
	}
	type popped struct {
		entity framework.QueuedEntityInfo
		err    error
	}
	done := make(chan popped, 1)
	go func() {
		entity, err := r.q.Pop(r.logger)
		done <- popped{entity, err}
	}()
	var p popped
	select {
	case p = <-done:
	case <-time.After(popWait):
		r.q.Add(r.ctx, popWaker)
		p = <-done
		if pInfo, ok := p.entity.(*framework.QueuedPodInfo); ok && pInfo.Pod == popWaker {
			r.q.Done(popWaker.UID)
			return nil, nil
		}
		r.q.Delete(r.logger, popWaker)
	}
	if p.err != nil || p.entity == nil {
		return nil, p.err
	}
	pInfo, ok := p.entity.(*framework.QueuedPodInfo)
	if !ok {
		return nil, fmt.Errorf("upstream popped a %T, not a pod", p.entity)
	}
	return pInfo, nil
}

// expectQueues compares the sub-queues given (activeQ, backoffQ, unschedulable — gated pods
// included — and the in-flight pods) as sets of "ns/name".
func (r *queueRun) expectQueues(op queueOp) result {
	got := map[string][]*v1.Pod{
		"activeQ":       r.q.PodsInActiveQ(),
		"backoffQ":      r.q.PodsInBackoffQ(),
		"unschedulable": r.q.UnschedulablePods(),
		"inFlight":      r.q.InFlightPods(),
	}
	var diffs []string
	for _, f := range queueOpFields["expectQueues"].fields {
		want, given := op.expectQueues[f]
		if !given {
			continue
		}
		have := make([]string, 0, len(got[f]))
		for _, pod := range got[f] {
			have = append(have, podKey(pod))
		}
		sort.Strings(have)
		if !equalStrings(want, have) {
			diffs = append(diffs, fmt.Sprintf("%s: expected %s, got %s", f, quoteList(want), quoteList(have)))
		}
	}
	if len(diffs) > 0 {
		return result{fail: fmt.Sprintf("%s expectQueues: %s", op.at, strings.Join(diffs, "; "))}
	}
	return result{}
}
