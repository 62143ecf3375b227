package scenario

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

var scenarios = map[string]step{
	"ties":      ties,
	"spread":    spread,
	"requeue":   requeue,
	"preempt":   preempt,
	"churn":     churn,
	"workloads": workloads,
}

var create = metav1.CreateOptions{}

func (s *session) nodes(ctx context.Context, ns ...*corev1.Node) error {
	for _, n := range ns {
		if _, err := s.c.CoreV1().Nodes().Create(ctx, n, create); err != nil {
			return fmt.Errorf("creating node %s: %w", n.Name, err)
		}
	}
	return nil
}

func (s *session) scale(ctx context.Context, deploy string, n int32) error {
	_, err := s.c.AppsV1().Deployments(ns).Patch(ctx, deploy, types.MergePatchType,
		[]byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, n)), metav1.PatchOptions{})
	return err
}

// ties: equal nodes, so almost every placement is a tie among several nodes.
func ties(ctx context.Context, s *session) error {
	for i := 1; i <= 4; i++ {
		if err := s.nodes(ctx, node(fmt.Sprintf("n%d", i), "4", "8Gi", nil)); err != nil {
			return err
		}
	}
	if _, err := s.c.AppsV1().Deployments(ns).Create(ctx, deployment("web", 8, template("web", "100m", "128Mi")), create); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=web", 8, 8); err != nil {
		return err
	}
	if err := s.scale(ctx, "web", 14); err != nil {
		return err
	}
	return s.waitBound(ctx, "app=web", 14, 14)
}

// spread: a zone spread constraint and required anti-affinity per host, one
// anti-affinity pod more than there are hosts.
func spread(ctx context.Context, s *session) error {
	zones := []string{"a", "a", "b", "b", "c", "c"}
	for i, z := range zones {
		if err := s.nodes(ctx, node(fmt.Sprintf("n%d", i+1), "4", "8Gi", map[string]string{"topology.kubernetes.io/zone": z})); err != nil {
			return err
		}
	}
	spreadTmpl := template("spread", "200m", "256Mi", func(p *corev1.PodSpec) {
		p.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone",
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: selector("spread")}}
	})
	if _, err := s.c.AppsV1().Deployments(ns).Create(ctx, deployment("spread", 7, spreadTmpl), create); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=spread", 7, 7); err != nil {
		return err
	}
	antiTmpl := template("anti", "100m", "128Mi", func(p *corev1.PodSpec) {
		p.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: selector("anti"), TopologyKey: "kubernetes.io/hostname"}}}}
	})
	if _, err := s.c.AppsV1().Deployments(ns).Create(ctx, deployment("anti", 7, antiTmpl), create); err != nil {
		return err
	}
	return s.waitBound(ctx, "app=anti", 7, 6)
}

// requeue: four pending pods, each unblocked by one change of another kind:
// a node added, a label set, a taint removed, a scheduling gate lifted.
func requeue(ctx context.Context, s *session) error {
	if err := s.nodes(ctx, node("n1", "2", "4Gi", nil), node("n2", "2", "4Gi", nil),
		node("n4", "4", "8Gi", map[string]string{"role": "special"},
			corev1.Taint{Key: "dedicated", Value: "x", Effect: corev1.TaintEffectNoSchedule})); err != nil {
		return err
	}
	pods := []*corev1.Pod{
		pod("big", "3", "1Gi"),
		pod("picky", "100m", "128Mi", func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }),
		pod("special", "100m", "128Mi", func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"role": "special"} }),
		pod("gated", "100m", "128Mi", func(p *corev1.Pod) {
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/gate"}}
		}),
	}
	for _, p := range pods {
		if _, err := s.c.CoreV1().Pods(ns).Create(ctx, p, create); err != nil {
			return err
		}
	}
	for _, name := range []string{"big", "picky", "special"} {
		if err := s.waitUnschedulable(ctx, name); err != nil {
			return err
		}
	}
	// n3 fits big (on n1/n2 it does not: 2 cpus) — and nothing else it could take first.
	if err := s.nodes(ctx, node("n3", "4", "8Gi", nil)); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=big", 1, 1); err != nil {
		return err
	}
	patch := func(name, body string) error {
		_, err := s.c.CoreV1().Nodes().Patch(ctx, name, types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{})
		return err
	}
	if err := patch("n1", `{"metadata":{"labels":{"disk":"ssd"}}}`); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=picky", 1, 1); err != nil {
		return err
	}
	if err := patch("n4", `{"spec":{"taints":null}}`); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=special", 1, 1); err != nil {
		return err
	}
	if _, err := s.c.CoreV1().Pods(ns).Patch(ctx, "gated", types.StrategicMergePatchType,
		[]byte(`{"spec":{"schedulingGates":null}}`), metav1.PatchOptions{}); err != nil {
		return err
	}
	return s.waitBound(ctx, "app=gated", 1, 1)
}

// preempt: low-priority pods fill two nodes under a PodDisruptionBudget that
// allows one disruption; a high-priority pod preempts.
func preempt(ctx context.Context, s *session) error {
	if err := s.nodes(ctx, node("n1", "2", "4Gi", nil), node("n2", "2", "4Gi", nil)); err != nil {
		return err
	}
	for _, pc := range []struct {
		name  string
		value int32
	}{{"low", 100}, {"high", 1000}} {
		if _, err := s.c.SchedulingV1().PriorityClasses().Create(ctx, priorityClass(pc.name, pc.value), create); err != nil {
			return err
		}
	}
	if _, err := s.c.PolicyV1().PodDisruptionBudgets(ns).Create(ctx, pdbMinAvailable("low", "low", 3), create); err != nil {
		return err
	}
	low := template("low", "900m", "256Mi", func(p *corev1.PodSpec) { p.PriorityClassName = "low" })
	if _, err := s.c.AppsV1().ReplicaSets(ns).Create(ctx, replicaSet("low", 4, low), create); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=low", 4, 4); err != nil {
		return err
	}
	// Let the disruption controller compute the budget's status, which preemption reads.
	if err := s.waitFor(ctx, "the PDB's status", func() (bool, error) {
		pdb, err := s.c.PolicyV1().PodDisruptionBudgets(ns).Get(ctx, "low", metav1.GetOptions{})
		return err == nil && pdb.Status.ExpectedPods == 4, err
	}); err != nil {
		return err
	}
	high := pod("high-1", "1500m", "256Mi", func(p *corev1.Pod) { p.Spec.PriorityClassName = "high" })
	if _, err := s.c.CoreV1().Pods(ns).Create(ctx, high, create); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=high-1", 1, 1); err != nil {
		return err
	}
	// The ReplicaSet replaces its victims; they find no room and stay pending.
	return s.waitBound(ctx, "app=low", 4, 2)
}

// churn: a Deployment scaled up and down, and pods deleted by hand, for
// about twenty seconds.
func churn(ctx context.Context, s *session) error {
	for i := 1; i <= 4; i++ {
		if err := s.nodes(ctx, node(fmt.Sprintf("n%d", i), "4", "8Gi", nil)); err != nil {
			return err
		}
	}
	if _, err := s.c.AppsV1().Deployments(ns).Create(ctx, deployment("churn", 5, template("churn", "300m", "256Mi")), create); err != nil {
		return err
	}
	for round, n := range []int32{12, 4, 16, 7, 20, 3, 14, 9, 18, 6} {
		time.Sleep(1500 * time.Millisecond)
		if err := s.scale(ctx, "churn", n); err != nil {
			return err
		}
		if round%3 == 2 { // a user deletes one bound pod now and then
			ps, err := s.pods(ctx, "app=churn")
			if err != nil {
				return err
			}
			for _, p := range ps {
				if p.Spec.NodeName != "" {
					if err := s.c.CoreV1().Pods(ns).Delete(ctx, p.Name, metav1.DeleteOptions{}); err != nil {
						return err
					}
					break
				}
			}
		}
	}
	return s.waitBound(ctx, "app=churn", 6, 6)
}

// workloads: a DaemonSet on every node and a StatefulSet under a budget,
// scaled up and down.
func workloads(ctx context.Context, s *session) error {
	for i := 1; i <= 3; i++ {
		if err := s.nodes(ctx, node(fmt.Sprintf("n%d", i), "4", "8Gi", nil)); err != nil {
			return err
		}
	}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: ns},
		Spec: appsv1.DaemonSetSpec{Selector: selector("agent"), Template: template("agent", "100m", "64Mi")}}
	if _, err := s.c.AppsV1().DaemonSets(ns).Create(ctx, ds, create); err != nil {
		return err
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: ns},
		Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone, Selector: map[string]string{"app": "db"}}}
	if _, err := s.c.CoreV1().Services(ns).Create(ctx, svc, create); err != nil {
		return err
	}
	if _, err := s.c.PolicyV1().PodDisruptionBudgets(ns).Create(ctx, pdbMaxUnavailable("db", "db", 1), create); err != nil {
		return err
	}
	replicas := int32(3)
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: ns},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Selector: selector("db"), ServiceName: "db",
			// Parallel: OrderedReady would wait for each pod to run, and nothing runs pods here.
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Template:            template("db", "1", "1Gi")}}
	if _, err := s.c.AppsV1().StatefulSets(ns).Create(ctx, sts, create); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=agent", 3, 3); err != nil {
		return err
	}
	if err := s.waitBound(ctx, "app=db", 3, 3); err != nil {
		return err
	}
	for _, n := range []int32{6, 2} {
		if _, err := s.c.AppsV1().StatefulSets(ns).Patch(ctx, "db", types.MergePatchType,
			[]byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, n)), metav1.PatchOptions{}); err != nil {
			return err
		}
		if err := s.waitBound(ctx, "app=db", int(n), int(n)); err != nil {
			return err
		}
	}
	// A node added later gets its DaemonSet pod.
	if err := s.nodes(ctx, node("n4", "4", "8Gi", nil)); err != nil {
		return err
	}
	return s.waitBound(ctx, "app=agent", 4, 4)
}
