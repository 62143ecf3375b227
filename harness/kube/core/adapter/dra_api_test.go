package adapter

import (
	"context"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// TestClaimWritesAnsweredAsTheAPIServerDoes drives the fake API server's claims (dra_api.go) the
// way DynamicResources writes them: NotFound for a claim it lacks, Conflict for a stale
// resourceVersion, a status update that keeps the spec, an update that keeps the status,
// Unreserve's strategic-merge patch removing one reservation, and delivery to the informer only
// on deliver().
func TestClaimWritesAnsweredAsTheAPIServerDoes(t *testing.T) {
	ctx := context.Background()
	client := fake.NewSimpleClientset()
	d := newDRAObjects(adapterkit.NewSyncFactory(client, registration{}, wrapInformer))
	d.installReactors(&client.Fake)
	claims := client.ResourceV1().ResourceClaims("default")

	if _, err := claims.Get(ctx, "gpu", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get of a missing claim: %v, want NotFound", err)
	}
	trace := &resourcev1.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "gpu", Namespace: "default", UID: "claim-uid"}}
	if err := d.applyClaim(pb.EventType_ADDED, trace); err != nil {
		t.Fatal(err)
	}
	got, err := claims.Get(ctx, "gpu", metav1.GetOptions{})
	if err != nil || got.ResourceVersion != "1" {
		t.Fatalf("get: %v %v, want version 1", got, err)
	}

	withFinalizer := got.DeepCopy()
	withFinalizer.Finalizers = []string{resourcev1.Finalizer}
	withFinalizer.Status.ReservedFor = []resourcev1.ResourceClaimConsumerReference{{Resource: "pods", Name: "ignored", UID: "x"}}
	updated, err := claims.Update(ctx, withFinalizer, metav1.UpdateOptions{})
	if err != nil || updated.ResourceVersion != "2" || len(updated.Finalizers) != 1 || len(updated.Status.ReservedFor) != 0 {
		t.Fatalf("update: %+v %v, want version 2, the finalizer, the stored (empty) status", updated, err)
	}
	if _, err := claims.Update(ctx, withFinalizer, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("update of version 1 after version 2: %v, want Conflict", err)
	}

	allocated := updated.DeepCopy()
	allocated.Finalizers = nil // a status update keeps everything but the status
	allocated.Status.Allocation = &resourcev1.AllocationResult{}
	allocated.Status.ReservedFor = []resourcev1.ResourceClaimConsumerReference{
		{Resource: "pods", Name: "a", UID: "uid-a"}, {Resource: "pods", Name: "b", UID: "uid-b"}}
	status, err := claims.UpdateStatus(ctx, allocated, metav1.UpdateOptions{})
	if err != nil || status.ResourceVersion != "3" || len(status.Finalizers) != 1 || len(status.Status.ReservedFor) != 2 {
		t.Fatalf("status update: %+v %v", status, err)
	}
	if !d.allocatedHere["default/gpu"] {
		t.Error("a claim the scheduler allocated is not marked the replay's")
	}
	if stored := d.claims.Stored(trace).(*resourcev1.ResourceClaim); stored.ResourceVersion != "1" {
		t.Fatalf("the informer has version %s before delivery, want 1", stored.ResourceVersion)
	}

	patch := `{"metadata": {"uid": "claim-uid"}, "status": { "reservedFor": [ {"$patch": "delete", "uid": "uid-a"} ] }}`
	patched, err := claims.Patch(ctx, "gpu", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status")
	if err != nil || len(patched.Status.ReservedFor) != 1 || patched.Status.ReservedFor[0].Name != "b" || patched.Status.Allocation == nil {
		t.Fatalf("unreserve patch: %+v %v, want b reserved and the allocation kept", patched, err)
	}

	if err := d.deliver(); err != nil {
		t.Fatal(err)
	}
	stored := d.claims.Stored(trace).(*resourcev1.ResourceClaim)
	if stored.ResourceVersion != "4" || len(stored.Status.ReservedFor) != 1 {
		t.Fatalf("delivered: version %s, reservedFor %v; want version 4 with b", stored.ResourceVersion, stored.Status.ReservedFor)
	}
}
