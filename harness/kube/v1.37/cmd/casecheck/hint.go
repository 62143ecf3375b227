package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Kind `hint`: one QueueingHint question. A pod that one plugin rejected (`pod`), one incoming
// cluster event (`event`, with `oldObject` / `newObject`), and what the plugin's queueing hints
// answer (`expect: {hint: Queue | QueueSkip | NotRegistered, error: true}`).

// The hint names of `expect.hint`. NotRegistered is not an upstream QueueingHint: it is the
// outcome when none of the plugin's registrations matches the event, so the queue never asks
// this plugin about it.
const (
	hintQueue         = "Queue"
	hintQueueSkip     = "QueueSkip"
	hintNotRegistered = "NotRegistered"
)

// hintExpectation is a decoded `expect` of a hint case.
type hintExpectation struct {
	Hint  string
	Error bool // a hint function returned an error (the queue then counts the hint as Queue)
}

// hintResources are the event resources a hint case may name: the pod resources, Node and the
// storage kinds of objects.go, whose objects a case can write (upstream's EventResource strings,
// e.g. "storage.k8s.io/StorageClass").
var hintResources = func() map[string]fwk.EventResource {
	m := map[string]fwk.EventResource{
		string(fwk.Pod): fwk.Pod, string(fwk.AssignedPod): fwk.AssignedPod,
		string(fwk.UnscheduledPod): fwk.UnscheduledPod, string(fwk.TargetPod): fwk.TargetPod,
		string(fwk.Node): fwk.Node,
	}
	for r := range eventKinds {
		m[string(r)] = r
	}
	return m
}()

// actionTypes maps upstream's ActionType String() names to their values. The single-bit actions
// are enumerated from Add up to All rather than copied, so the table is always v0.37.2's own
// (String() is "" for a bit it does not name); All and Update are the two named combinations.
var actionTypes = func() map[string]fwk.ActionType {
	m := map[string]fwk.ActionType{fwk.All.String(): fwk.All, fwk.Update.String(): fwk.Update}
	for a := fwk.Add; a != 0 && a <= fwk.All; a <<= 1 {
		if name := a.String(); name != "" {
			m[name] = a
		}
	}
	return m
}()

// parseAction reads "Add" or "Add|UpdateNodeLabel": one or more ActionType names joined by "|".
func parseAction(text string) (fwk.ActionType, error) {
	var action fwk.ActionType
	for _, part := range strings.Split(text, "|") {
		name := strings.TrimSpace(part)
		a, ok := actionTypes[name]
		if !ok {
			return 0, fmt.Errorf("event.action %q: %q is not an ActionType name of k8s.io/kube-scheduler v0.37.2", text, name)
		}
		action |= a
	}
	return action, nil
}

// actionString names every action of a (possibly combined) ActionType, for messages: upstream's
// String() names only the single actions, All and Update.
func actionString(action fwk.ActionType) string {
	if name := action.String(); name != "" {
		return name
	}
	var names []string
	for a := fwk.Add; a != 0 && a <= fwk.All; a <<= 1 {
		if action&a != 0 {
			names = append(names, a.String())
		}
	}
	return strings.Join(names, "|")
}

// decodeHint reads the fields of a hint case besides the pod and the cluster.
func decodeHint(rc *rawCase, c *testCase) error {
	if !present(rc.Event) {
		return errors.New("a hint case needs an event")
	}
	var ev struct {
		Resource string `json:"resource"`
		Action   string `json:"action"`
	}
	if err := strictUnmarshal(rc.Event, &ev, "event"); err != nil {
		return err
	}
	resource, ok := hintResources[ev.Resource]
	if !ok {
		return fmt.Errorf("event.resource %q: expected Pod, AssignedPod, UnscheduledPod, TargetPod, Node, PersistentVolume, PersistentVolumeClaim, %s, %s, %s or %s",
			ev.Resource, fwk.StorageClass, fwk.CSINode, fwk.CSIDriver, fwk.CSIStorageCapacity)
	}
	action, err := parseAction(ev.Action)
	if err != nil {
		return err
	}
	c.Event = fwk.ClusterEvent{Resource: resource, ActionType: action}
	if c.OldObject, err = decodeEventObject(rc.OldObject, resource, "oldObject"); err != nil {
		return err
	}
	if c.NewObject, err = decodeEventObject(rc.NewObject, resource, "newObject"); err != nil {
		return err
	}

	if !present(rc.Expect) {
		return errors.New("nothing is expected")
	}
	var exp struct {
		Hint  string `json:"hint"`
		Error *bool  `json:"error"`
	}
	if err := strictUnmarshal(rc.Expect, &exp, "expect"); err != nil {
		return err
	}
	switch exp.Hint {
	case hintQueue, hintQueueSkip, hintNotRegistered:
	default:
		return fmt.Errorf("expect.hint %q: expected Queue, QueueSkip or NotRegistered", exp.Hint)
	}
	c.HintExpect = hintExpectation{Hint: exp.Hint, Error: exp.Error != nil && *exp.Error}
	if c.HintExpect.Error && exp.Hint != hintQueue {
		return fmt.Errorf("expect.error true with hint %s: the queue counts a hint function's error as Queue", exp.Hint)
	}
	return nil
}

// decodeEventObject reads oldObject or newObject: a Node for a Node event, an object of that
// kind for a storage event (a namespaced one without a namespace in "default", as in the case's
// lists), a Pod (with the API server's defaults, as decodePod) for the pod resources. Absent is
// an untyped nil.
func decodeEventObject(raw json.RawMessage, resource fwk.EventResource, what string) (any, error) {
	if !present(raw) {
		return nil, nil
	}
	if obj, ok, err := decodeStorageEventObject(raw, resource, what); ok {
		if err != nil {
			return nil, err
		}
		return obj, nil
	}
	if resource != fwk.Node {
		return decodePod(raw, what)
	}
	node := &v1.Node{}
	if err := strictUnmarshal(raw, node, what); err != nil {
		return nil, err
	}
	if node.Name == "" {
		return nil, fmt.Errorf("%s has no metadata.name", what)
	}
	if node.UID == "" {
		node.UID = types.UID(node.Name) // as the snapshot's nodes get one
	}
	return node, nil
}

// hintOutcome is what the scheduling queue makes of one plugin's registrations for one event.
type hintOutcome struct {
	hint    string
	err     error  // the error a hint function returned (hint is then Queue)
	decider string // the registration that decided, for messages ("" when none matched)
}

// runHint answers the case's question with the plugin's own EventsToRegister and hint functions
// and compares the answer with the expectation.
func runHint(ctx context.Context, c *testCase, in instance) result {
	ext, ok := in.plugin.(fwk.EnqueueExtensions)
	if !ok {
		return result{badInput: fmt.Sprintf("plugin %s implements no EnqueueExtensions, so it has no queueing hints to check", in.spec.Name)}
	}
	regs, err := ext.EventsToRegister(ctx)
	if err != nil {
		return result{fail: fmt.Sprintf("EventsToRegister: %v", err)}
	}
	got, err := queueingHint(klog.FromContext(ctx), regs, c)
	if err != nil {
		return result{fail: err.Error()}
	}
	if got.hint == c.HintExpect.Hint && (got.err != nil) == c.HintExpect.Error {
		return result{}
	}
	detail := fmt.Sprintf("expected hint %s, error %v; got hint %s, error %v", c.HintExpect.Hint, c.HintExpect.Error, got.hint, got.err != nil)
	if got.err != nil {
		detail += fmt.Sprintf(" (%q)", got.err.Error())
	}
	if got.decider != "" {
		detail += " from the registration " + got.decider
	}
	return result{fail: detail}
}

// queueingHint evaluates the registrations as the queue does for a pod this plugin rejected
// (upstream's PriorityQueue.isPodWorthRequeuing, for one plugin): those matching the event by
// framework.MatchClusterEvents; one without a hint function (the queue gives it one that always
// says Queue), an error or a Queue decides Queue; QueueSkip moves on to the next; all skipped is
// QueueSkip; none matching is NotRegistered. The queue walks its hint map in Go map order; the
// case format fixes registration order, which only matters when two matching registrations would
// decide differently (an error and a Queue). The error returned is a hint function's panic, not
// an error it returned.
func queueingHint(logger klog.Logger, regs []fwk.ClusterEventWithHint, c *testCase) (hintOutcome, error) {
	matched := false
	for _, reg := range regs {
		if !framework.MatchClusterEvents(reg.Event, c.Event) {
			continue
		}
		matched = true
		name := fmt.Sprintf("%s/%s", reg.Event.Resource, actionString(reg.Event.ActionType))
		if reg.QueueingHintFn == nil {
			return hintOutcome{hint: hintQueue, decider: name + " (no hint function)"}, nil
		}
		hint, hintErr, err := callHint(reg.QueueingHintFn, logger, c)
		if err != nil {
			return hintOutcome{}, fmt.Errorf("the hint function of %s: %w", name, err)
		}
		if hintErr != nil {
			return hintOutcome{hint: hintQueue, err: hintErr, decider: name}, nil
		}
		if hint == fwk.Queue {
			return hintOutcome{hint: hintQueue, decider: name}, nil
		}
	}
	if !matched {
		return hintOutcome{hint: hintNotRegistered}, nil
	}
	return hintOutcome{hint: hintQueueSkip}, nil
}

// callHint calls one hint function. A panic (a hint reading a node the case left out, say) is
// turned into an error so that it fails this case instead of ending the run; the real queue
// would crash there, which no expectation can state.
func callHint(fn fwk.QueueingHintFn, logger klog.Logger, c *testCase) (hint fwk.QueueingHint, hintErr, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	hint, hintErr = fn(logger, c.Pod, c.OldObject, c.NewObject)
	return hint, hintErr, nil
}
