package scenario

import (
	"context"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// Finish does for bound pods what their kubelet would: with no kubelet, a
// bound pod deleted with a grace period (scale-down, preemption victims,
// garbage collection) stays Terminating forever. Finish watches pods and
// deletes each terminating bound pod at once (grace period 0, preconditioned
// on its UID so that a new pod of the same name is never hit). It runs until
// ctx ends.
func Finish(ctx context.Context, c kubernetes.Interface) {
	for ctx.Err() == nil {
		list, err := c.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		if err != nil {
			pause(ctx, time.Second)
			continue
		}
		for i := range list.Items {
			finishOne(ctx, c, &list.Items[i])
		}
		w, err := c.CoreV1().Pods("").Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
		if err != nil {
			pause(ctx, time.Second)
			continue
		}
		for ev := range w.ResultChan() {
			if ev.Type == watch.Error {
				break
			}
			if p, ok := ev.Object.(*corev1.Pod); ok && ev.Type != watch.Deleted {
				finishOne(ctx, c, p)
			}
		}
		w.Stop()
	}
}

func finishOne(ctx context.Context, c kubernetes.Interface, p *corev1.Pod) {
	if p.DeletionTimestamp == nil || p.Spec.NodeName == "" {
		return
	}
	zero := int64(0)
	uid := p.UID
	err := c.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{
		GracePeriodSeconds: &zero,
		Preconditions:      &metav1.Preconditions{UID: &uid},
	})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "finisher: deleting %s/%s: %v\n", p.Namespace, p.Name, err)
	}
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
