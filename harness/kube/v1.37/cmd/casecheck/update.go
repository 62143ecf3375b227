package main

import (
	"errors"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Kind `update`: how the scheduler classifies one informer update of a Node or a Pod into
// cluster events. `resource` (Node or Pod) says what `oldObject` and `newObject` are, `targetPod`
// (Pod only) is the isTargetPod argument, and `expect: {events: [...]}` lists the events
// upstream's framework.NodeSchedulingPropertiesChange(newNode, oldNode) or
// framework.PodSchedulingPropertiesChange(newPod, oldPod, isTargetPod) returns, in its order,
// each as "<Resource>/<ActionType>" (an empty list: nothing returned). The functions read the
// default feature gates (NodeDeclaredFeatures, DynamicResourceAllocation,
// InPlacePodVerticalScaling, InPlacePodLevelResourcesVerticalScaling).

// updateResources are the values of `resource`: the two functions.
var updateResources = map[string]fwk.EventResource{
	string(fwk.Node): fwk.Node,
	string(fwk.Pod):  fwk.Pod,
}

// eventResources are the resources an expected event may name: those the two functions return.
var eventResources = map[string]bool{
	string(fwk.Node): true, string(fwk.AssignedPod): true,
	string(fwk.UnscheduledPod): true, string(fwk.TargetPod): true,
}

// decodeUpdate reads the fields of an update case (fieldOfAnotherKind has refused the others).
func decodeUpdate(rc *rawCase, c *testCase) error {
	if rc.Resource == nil {
		return errors.New("an update case needs a resource (Node or Pod)")
	}
	resource, ok := updateResources[*rc.Resource]
	if !ok {
		return fmt.Errorf("resource %q: expected Node or Pod", *rc.Resource)
	}
	c.UpdateResource = resource
	if rc.TargetPod != nil {
		if resource != fwk.Pod {
			return errors.New("targetPod is for Pod updates only")
		}
		c.TargetPod = *rc.TargetPod
	}
	if !present(rc.OldObject) || !present(rc.NewObject) {
		return errors.New("an update case needs both oldObject and newObject")
	}
	var err error
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
		Events *[]string `json:"events"`
	}
	if err := strictUnmarshal(rc.Expect, &exp, "expect"); err != nil {
		return err
	}
	if exp.Events == nil {
		return errors.New("expect.events is required (an empty list when no event is returned)")
	}
	for i, name := range *exp.Events {
		if err := checkEventName(name); err != nil {
			return fmt.Errorf("expect.events[%d]: %w", i, err)
		}
	}
	c.UpdateExpect = append([]string{}, (*exp.Events)...)
	return nil
}

// checkEventName accepts "<Resource>/<ActionType>": a resource the two functions return and one
// ActionType name (not a "|" combination: each returned event has a single action).
func checkEventName(name string) error {
	resource, action, ok := strings.Cut(name, "/")
	if !ok {
		return fmt.Errorf("%q: expected <Resource>/<ActionType>, e.g. Node/UpdateNodeLabel", name)
	}
	if !eventResources[resource] {
		return fmt.Errorf("%q: resource %q is not Node, AssignedPod, UnscheduledPod or TargetPod", name, resource)
	}
	if _, ok := actionTypes[action]; !ok {
		return fmt.Errorf("%q: %q is not an ActionType name of k8s.io/kube-scheduler v0.37.2", name, action)
	}
	return nil
}

// eventName is the case format's name of one returned event. actionString is ActionType.String()
// for every single action (a combined one, which neither function returns, is spelt out).
func eventName(e fwk.ClusterEvent) string {
	return string(e.Resource) + "/" + actionString(e.ActionType)
}

// runUpdate calls the upstream function for the case's resource and compares the events.
func runUpdate(c *testCase) result {
	var events []fwk.ClusterEvent
	if c.UpdateResource == fwk.Node {
		events = framework.NodeSchedulingPropertiesChange(c.NewObject.(*v1.Node), c.OldObject.(*v1.Node))
	} else {
		events = framework.PodSchedulingPropertiesChange(c.NewObject.(*v1.Pod), c.OldObject.(*v1.Pod), c.TargetPod)
	}
	got := make([]string, len(events))
	for i, e := range events {
		got[i] = eventName(e)
	}
	if equalStrings(c.UpdateExpect, got) {
		return result{}
	}
	return result{fail: fmt.Sprintf("expected events %s, got %s", quoteList(c.UpdateExpect), quoteList(got))}
}
