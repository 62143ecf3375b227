// Added to k8s.io/kubernetes/pkg/scheduler/framework/preemption by the schedcheck adapter build;
// not part of upstream.

package preemption

import (
	"sort"

	extenderv1 "k8s.io/kube-scheduler/extender/v1"
)

// schedcheckCandidateOrder holds the candidates of the SelectCandidate call in progress, in the
// order DryRunPreemption found them (non-violating first, each in node order from the offset).
var schedcheckCandidateOrder []Candidate

// schedcheckOrderedCandidates replaces pickOneNodeForPreemption's walk over a Go map, whose
// random order decides between candidates tied on every criterion, with the candidates' own
// order; the first tied candidate wins, as in the reference (docs/DEVIATIONS.md).
func schedcheckOrderedCandidates(nodesToVictims map[string]*extenderv1.Victims) []string {
	out := make([]string, 0, len(nodesToVictims))
	seen := map[string]bool{}
	for _, c := range schedcheckCandidateOrder {
		if _, ok := nodesToVictims[c.Name()]; ok && !seen[c.Name()] {
			seen[c.Name()] = true
			out = append(out, c.Name())
		}
	}
	var rest []string
	for node := range nodesToVictims {
		if !seen[node] {
			rest = append(rest, node)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// SchedcheckAsync, when set, receives the body of the asynchronous preemption (the goroutine
// prepareCandidateAsync starts: clearing lower-priority nominations, deleting the victims) instead
// of a goroutine, so that the adapter runs it at a defined point of virtual time (right after the
// preemptor's scheduling failure has been handled).
var SchedcheckAsync func(body func())

func schedcheckGo(body func()) {
	if SchedcheckAsync != nil {
		SchedcheckAsync(body)
		return
	}
	go body()
}
