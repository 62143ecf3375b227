//go:build kube1_37

package adapter

import (
	"context"
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"schedcheck.local/kube/common/objects"
	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// TestPodGroupConversionKeepsEveryField fills every field the trace schema has for Workloads and
// PodGroups (and a pod's schedulingGroup), converts them as the adapter does, and checks that
// every value of the trace's Kubernetes JSON is in the scheduling.k8s.io/v1beta1 (core/v1)
// object at the same path.
func TestPodGroupConversionKeepsEveryField(t *testing.T) {
	for _, tc := range []struct {
		msg   proto.Message
		into  any
		paths []string // the subtrees compared; none: all
	}{
		{msg: &pb.PodGroup{}, into: &schedulingv1beta1.PodGroup{}},
		{msg: &pb.Workload{}, into: &schedulingv1beta1.Workload{}},
		{msg: &pb.Pod{}, into: &v1.Pod{}, paths: []string{"spec.schedulingGroup"}},
	} {
		name := string(tc.msg.ProtoReflect().Descriptor().Name())
		t.Run(name, func(t *testing.T) {
			fill(tc.msg.ProtoReflect(), map[protoreflect.FullName]bool{})
			raw, err := objects.KubeJSON(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if err := adapterkit.Decode(tc.msg, tc.into); err != nil {
				t.Fatalf("decoding %s: %v", raw, err)
			}
			back, err := json.Marshal(tc.into)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(back, &got); err != nil {
				t.Fatal(err)
			}
			leaves := 0
			for _, path := range subtrees(tc.paths) {
				w, g := at(want, path), at(got, path)
				if w == nil {
					t.Fatalf("the filled trace object has nothing at %q", path)
				}
				leaves += compare(t, path, w, g)
			}
			if leaves < 1 {
				t.Fatalf("no value compared")
			}
		})
	}
}

// TestPodGroupStatusPatchAnsweredAsTheAPIServerDoes drives the fake API server's PodGroups the
// way the scheduler writes them (util.PatchPodGroupStatus): NotFound for a group it lacks; a
// status patch applied to the trace's object, given a newer version, and delivered to the
// informer only on deliver().
func TestPodGroupStatusPatchAnsweredAsTheAPIServerDoes(t *testing.T) {
	ctx := context.Background()
	client := fake.NewSimpleClientset()
	g := newGroupObjects(adapterkit.NewSyncFactory(client, registration{}, wrapInformer))
	g.installReactors(&client.Fake)
	groups := client.SchedulingV1beta1().PodGroups("default")
	patch := []byte(`{"status":{"conditions":[{"type":"PodGroupInitiallyScheduled","status":"True","reason":"Scheduled","message":"","lastTransitionTime":null}]}}`)

	if _, err := groups.Patch(ctx, "g1", types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status"); !apierrors.IsNotFound(err) {
		t.Fatalf("patch of a missing group: %v, want NotFound", err)
	}
	trace := &pb.ApiEvent{Type: pb.EventType_ADDED, Object: &pb.ApiEvent_PodGroup{PodGroup: &pb.PodGroup{
		Metadata: &pb.ObjectMeta{Name: "g1"},
		Spec:     &pb.PodGroupSpec{SchedulingPolicy: &pb.PodGroupSchedulingPolicy{Gang: &pb.GangSchedulingPolicy{MinCount: 3}}},
	}}}
	if err := g.Apply(trace); err != nil {
		t.Fatal(err)
	}
	stored := func() *schedulingv1beta1.PodGroup {
		obj := g.podGroups.Stored(&schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "g1", Namespace: "default"}})
		if obj == nil {
			t.Fatal("the informer lost the PodGroup")
		}
		return obj.(*schedulingv1beta1.PodGroup)
	}
	if pg := stored(); pg.ResourceVersion != "1" || len(pg.Status.Conditions) != 0 {
		t.Fatalf("trace's PodGroup: version %q, conditions %v; want version 1, none", pg.ResourceVersion, pg.Status.Conditions)
	}
	got, err := groups.Patch(ctx, "g1", types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatal(err)
	}
	if got.ResourceVersion != "2" || len(got.Status.Conditions) != 1 || got.Spec.SchedulingPolicy.Gang.MinCount != 3 {
		t.Fatalf("patched: %+v; want version 2, one condition, the spec kept", got)
	}
	if len(stored().Status.Conditions) != 0 {
		t.Fatal("the patch reached the informer before deliver()")
	}
	if err := g.deliver(); err != nil {
		t.Fatal(err)
	}
	if pg := stored(); len(pg.Status.Conditions) != 1 || pg.Status.Conditions[0].Reason != "Scheduled" {
		t.Fatalf("after deliver(): %v, want the Scheduled condition", pg.Status.Conditions)
	}
}
