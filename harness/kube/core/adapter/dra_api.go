package adapter

import (
	"encoding/json"
	"fmt"

	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	k8stesting "k8s.io/client-go/testing"

	"schedcheck.local/kube/common/pb"
)

// The fake API server's ResourceClaims. DynamicResources writes claims through the clientset:
// PreBind adds the finalizer (update), then the allocation and the pod's reservedFor entry
// (updateStatus); Unreserve removes the reservation (a strategic-merge status patch); PostFilter
// deallocates a claim nobody uses (updateStatus); the extended-resource path creates and deletes
// the claim it makes for a pod. The reactors answer as the API server does, against draObjects.api:
// Get and writes of a missing claim are NotFound, an update whose resourceVersion is not the
// current one is a Conflict (upstream then gets the claim and retries), an update of the main
// resource keeps the status and a status update keeps everything else, every write gets the next
// claim version. Writes reach the claim informer later, as a watch would deliver them: after the
// binding cycle's PreBind, before the pod's binding (runBinding), or after the failure handling
// (applyWrites). A claim created by the scheduler is delivered at once: upstream's PreBind waits
// (on the real clock) until the assume cache has it.
var claimsResource = resourcev1.SchemeGroupVersion.WithResource("resourceclaims")

func (d *draObjects) installReactors(f *k8stesting.Fake) {
	f.PrependReactor("*", "resourceclaims", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetResource() != claimsResource {
			return false, nil, nil
		}
		claim, err := d.answer(a)
		if err != nil {
			return true, nil, err
		}
		if claim == nil {
			return true, nil, nil
		}
		return true, claim.DeepCopy(), nil
	})
}

func (d *draObjects) answer(a k8stesting.Action) (*resourcev1.ResourceClaim, error) {
	ns := a.GetNamespace()
	switch a.GetVerb() {
	case "get":
		return d.current(ns, a.(k8stesting.GetAction).GetName())
	case "create":
		claim := a.(k8stesting.CreateAction).GetObject().(*resourcev1.ResourceClaim).DeepCopy()
		claim.Namespace = ns
		if claim.Name == "" && claim.GenerateName != "" {
			d.generated++
			claim.Name = fmt.Sprintf("%s%05d", claim.GenerateName, d.generated)
		}
		if _, exists := d.api[claimKey(claim)]; exists {
			return nil, apierrors.NewAlreadyExists(claimsResource.GroupResource(), claim.Name)
		}
		claim.UID = types.UID("resourceclaim:" + claimKey(claim))
		d.stampClaim(claim)
		d.api[claimKey(claim)] = claim.DeepCopy()
		return claim, d.claims.Deliver(pb.EventType_ADDED, claim.DeepCopy())
	case "update":
		next := a.(k8stesting.UpdateAction).GetObject().(*resourcev1.ResourceClaim)
		current, err := d.current(ns, next.Name)
		if err != nil {
			return nil, err
		}
		if next.ResourceVersion != current.ResourceVersion {
			return nil, apierrors.NewConflict(claimsResource.GroupResource(), next.Name,
				fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
		}
		written := next.DeepCopy()
		if a.GetSubresource() == "status" {
			written = current.DeepCopy()
			written.Status = *next.Status.DeepCopy()
		} else {
			written.Status = current.Status
		}
		return d.write(written)
	case "patch":
		a := a.(k8stesting.PatchAction)
		if a.GetPatchType() != types.StrategicMergePatchType {
			return nil, fmt.Errorf("resourceclaims: patch type %s is not supported by schedcheck's fake API server", a.GetPatchType())
		}
		current, err := d.current(ns, a.GetName())
		if err != nil {
			return nil, err
		}
		written, err := patchClaim(current, a.GetPatch(), a.GetSubresource())
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		return d.write(written)
	case "delete":
		current, err := d.current(ns, a.(k8stesting.DeleteAction).GetName())
		if err != nil {
			return nil, err
		}
		delete(d.api, claimKey(current))
		delete(d.allocatedHere, claimKey(current))
		d.pending = append(d.pending, claimWrite{t: pb.EventType_DELETED, claim: current})
		return nil, nil
	}
	return nil, fmt.Errorf("resourceclaims: %s is not supported by schedcheck's fake API server", a.GetVerb())
}

// current is the API server's copy of claim namespace/name, or NotFound.
func (d *draObjects) current(ns, name string) (*resourcev1.ResourceClaim, error) {
	claim := d.api[ns+"/"+name]
	if claim == nil {
		return nil, apierrors.NewNotFound(claimsResource.GroupResource(), name)
	}
	return claim.DeepCopy(), nil
}

// write stores a claim the scheduler changed with the next version and queues its delivery. A
// claim the scheduler allocates becomes the replay's (applyClaim); one it deallocates stops being.
func (d *draObjects) write(claim *resourcev1.ResourceClaim) (*resourcev1.ResourceClaim, error) {
	key := claimKey(claim)
	before := d.api[key]
	if claim.Status.Allocation == nil {
		delete(d.allocatedHere, key)
	} else if before == nil || before.Status.Allocation == nil {
		d.allocatedHere[key] = true
	}
	d.stampClaim(claim)
	d.api[key] = claim.DeepCopy()
	d.pending = append(d.pending, claimWrite{t: pb.EventType_MODIFIED, claim: claim.DeepCopy()})
	return claim, nil
}

// patchClaim applies a strategic-merge patch to current: to its status only for the status
// subresource, as the API server does.
func patchClaim(current *resourcev1.ResourceClaim, patch []byte, subresource string) (*resourcev1.ResourceClaim, error) {
	original, err := json.Marshal(current)
	if err != nil {
		return nil, err
	}
	merged, err := strategicpatch.StrategicMergePatch(original, patch, &resourcev1.ResourceClaim{})
	if err != nil {
		return nil, fmt.Errorf("resourceclaims %s: %w", current.Name, err)
	}
	out := &resourcev1.ResourceClaim{}
	if err := json.Unmarshal(merged, out); err != nil {
		return nil, err
	}
	if subresource == "status" {
		status := out.Status
		out = current.DeepCopy()
		out.Status = status
	}
	return out, nil
}
