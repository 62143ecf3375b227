package scenario

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const ns = "default"

// node is a kubelet-less Node: its status is kept as created.
func node(name, cpu, mem string, labels map[string]string, taints ...corev1.Taint) *corev1.Node {
	l := map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
	for k, v := range labels {
		l[k] = v
	}
	res := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(cpu),
		corev1.ResourceMemory: resource.MustParse(mem),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l},
		Spec:       corev1.NodeSpec{Taints: taints},
		Status: corev1.NodeStatus{
			Capacity: res, Allocatable: res,
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
}

// podSpec is one pause container with requests (never run: no kubelet).
func podSpec(cpu, mem string) corev1.PodSpec {
	return corev1.PodSpec{Containers: []corev1.Container{{
		Name: "c", Image: "registry.k8s.io/pause:3.10",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}},
	}}}
}

func pod(name, cpu, mem string, edit ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": name}},
		Spec: podSpec(cpu, mem)}
	for _, e := range edit {
		e(p)
	}
	return p
}

func template(app, cpu, mem string, edit ...func(*corev1.PodSpec)) corev1.PodTemplateSpec {
	spec := podSpec(cpu, mem)
	for _, e := range edit {
		e(&spec)
	}
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}}, Spec: spec}
}

func selector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

func deployment(name string, replicas int32, tmpl corev1.PodTemplateSpec) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: selector(name), Template: tmpl}}
}

func replicaSet(name string, replicas int32, tmpl corev1.PodTemplateSpec) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: selector(name), Template: tmpl}}
}

func priorityClass(name string, value int32) *schedulingv1.PriorityClass {
	return &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
}

func pdbMinAvailable(name, app string, n int) *policyv1.PodDisruptionBudget {
	v := intstr.FromInt32(int32(n))
	return &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: &v, Selector: selector(app)}}
}

func pdbMaxUnavailable(name, app string, n int) *policyv1.PodDisruptionBudget {
	v := intstr.FromInt32(int32(n))
	return &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &v, Selector: selector(app)}}
}
