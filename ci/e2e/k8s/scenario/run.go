// Package scenario holds the scripted workloads the end-to-end test runs
// against a real control plane through its API, and the stand-in for the
// kubelets the control plane does not have (Finish).
package scenario

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
)

// step is one scenario: a sequence of API calls and waits.
type step func(ctx context.Context, s *session) error

// session carries the client and reports what a scenario did.
type session struct {
	c   kubernetes.Interface
	log func(format string, args ...interface{})
}

// Names lists the scenarios in the order the end-to-end test runs them.
func Names() []string {
	names := make([]string, 0, len(scenarios))
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs one scenario with the finisher beside it, then waits until the
// scheduler has nothing left to do (every pod bound or found unschedulable).
func Run(ctx context.Context, c kubernetes.Interface, name string, log func(string, ...interface{})) error {
	sc, ok := scenarios[name]
	if !ok {
		return fmt.Errorf("unknown scenario %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	go Finish(fctx, c)
	s := &session{c: c, log: log}
	if err := s.waitFor(ctx, "the default ServiceAccount", func() (bool, error) {
		_, err := c.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		return err
	}
	if err := sc(ctx, s); err != nil {
		return fmt.Errorf("scenario %s: %w", name, err)
	}
	return s.settle(ctx)
}

// waitFor polls cond every 100 ms for up to a minute.
func (s *session) waitFor(ctx context.Context, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(time.Minute)
	for {
		ok, err := cond()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: still not true after a minute", what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pods lists the live (not terminating) pods matching the selector.
func (s *session) pods(ctx context.Context, sel string) ([]corev1.Pod, error) {
	list, err := s.c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return nil, err
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// waitBound waits until n live pods match sel and `bound` of them are bound.
func (s *session) waitBound(ctx context.Context, sel string, n, bound int) error {
	return s.waitFor(ctx, fmt.Sprintf("%d pods %s, %d bound", n, sel, bound), func() (bool, error) {
		ps, err := s.pods(ctx, sel)
		if err != nil {
			return false, err
		}
		b := 0
		for _, p := range ps {
			if p.Spec.NodeName != "" {
				b++
			}
		}
		return len(ps) == n && b == bound, nil
	})
}

// waitUnschedulable waits until the scheduler has found the pod unschedulable.
func (s *session) waitUnschedulable(ctx context.Context, name string) error {
	return s.waitFor(ctx, name+" unschedulable", func() (bool, error) {
		p, err := s.c.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return unschedulable(p), nil
	})
}

func unschedulable(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return true
		}
	}
	return false
}

// settle waits until every pod is bound, gated or found unschedulable, and
// no pod is terminating, then lets the last writes reach the watches.
func (s *session) settle(ctx context.Context) error {
	err := s.waitFor(ctx, "the cluster to settle", func() (bool, error) {
		list, err := s.c.CoreV1().Pods("").List(ctx, metav1.ListOptions{LabelSelector: labels.Everything().String()})
		if err != nil {
			return false, err
		}
		for i := range list.Items {
			p := &list.Items[i]
			if p.DeletionTimestamp != nil {
				return false, nil
			}
			if p.Spec.NodeName == "" && len(p.Spec.SchedulingGates) == 0 && !unschedulable(p) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	time.Sleep(2 * time.Second)
	return nil
}
