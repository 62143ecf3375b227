// Added to k8s.io/kubernetes/pkg/scheduler by the schedcheck adapter build; not part of upstream.

package scheduler

import (
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	resourcev1defaults "k8s.io/kubernetes/pkg/apis/resource/v1"
)

// The resource slice tracker of v1.37 reads DeviceTaintRules at resource.k8s.io/v1 (the API moved
// from v1alpha3 at 1.35 through v1beta2 at 1.36 to v1 at 1.37); the adapter core feeds the
// trace's rules (written at v1, whose fields these versions share) through these three.

// SchedcheckNewDeviceTaintRule is an empty DeviceTaintRule of that version, to decode into.
func SchedcheckNewDeviceTaintRule() runtime.Object { return &resourcev1.DeviceTaintRule{} }

// SchedcheckDefaultDeviceTaintRule applies the API server's defaults of that version.
func SchedcheckDefaultDeviceTaintRule(obj runtime.Object) {
	resourcev1defaults.SetObjectDefaults_DeviceTaintRule(obj.(*resourcev1.DeviceTaintRule))
}

// SchedcheckDeviceTaintRuleInformer is the informer the tracker registers on.
func SchedcheckDeviceTaintRuleInformer(f informers.SharedInformerFactory) cache.SharedIndexInformer {
	return f.Resource().V1().DeviceTaintRules().Informer()
}
