package adapter

import (
	"fmt"
	"strconv"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	resourcev1defaults "k8s.io/kubernetes/pkg/apis/resource/v1"
	"k8s.io/kubernetes/pkg/scheduler"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/shared/adapterkit"
)

// draObjects feeds the Dynamic Resource Allocation kinds of a trace to the Resource().V1()
// informers the scheduler reads: ResourceClaims (the DRA manager's assume cache and the queue's
// handlers), ResourceSlices and DeviceTaintRules (the resource slice tracker), DeviceClasses (the
// allocator's class lister and the extended-resource cache) and ResourceClaimTemplates (read by
// nobody in the scheduler: the ResourceClaim controller makes claims from them). It also plays the
// API server for DynamicResources' claim writes (dra_api.go).
type draObjects struct {
	pods       corelisters.PodLister // the pods reservedFor names (livePods)
	claims     *adapterkit.SyncInformer
	templates  *adapterkit.SyncInformer
	slices     *adapterkit.SyncInformer
	classes    *adapterkit.SyncInformer
	taintRules *adapterkit.SyncInformer

	// version is the last resourceVersion given to a claim. Every claim write, the trace's and the
	// scheduler's, gets the next one: the assume cache compares claim versions as integers and
	// keeps the newer object, so a trace's own (smaller, or not numeric) version would be ignored
	// after a write of the scheduler.
	version uint64
	// api is the API server's view of each claim ("namespace/name"): the last write, delivered to
	// the informer or not yet.
	api map[string]*resourcev1.ResourceClaim
	// pending are the scheduler's claim writes the informer has not delivered yet, in order.
	pending []claimWrite
	// allocatedHere are the claims whose allocation the replay wrote (PreBind), until the replay
	// or the trace deallocates or deletes them.
	allocatedHere map[string]bool
	// generated counts the claims created with a generateName, for their names.
	generated int
}

type claimWrite struct {
	t     pb.EventType
	claim *resourcev1.ResourceClaim
}

func newDRAObjects(f *adapterkit.SyncFactory) *draObjects {
	r := f.Resource().V1()
	return &draObjects{
		pods:          f.Core().V1().Pods().Lister(),
		claims:        f.Informer(&resourcev1.ResourceClaim{}, r.ResourceClaims().Informer),
		templates:     f.Informer(&resourcev1.ResourceClaimTemplate{}, r.ResourceClaimTemplates().Informer),
		slices:        f.Informer(&resourcev1.ResourceSlice{}, r.ResourceSlices().Informer),
		classes:       f.Informer(&resourcev1.DeviceClass{}, r.DeviceClasses().Informer),
		taintRules:    f.Informer(scheduler.SchedcheckNewDeviceTaintRule(), func() cache.SharedIndexInformer { return scheduler.SchedcheckDeviceTaintRuleInformer(f) }),
		api:           map[string]*resourcev1.ResourceClaim{},
		allocatedHere: map[string]bool{},
	}
}

// Apply applies a trace event of a DRA kind: decoded from its Kubernetes JSON into the
// resource.k8s.io/v1 type, the API server's defaults applied (a request's allocationMode
// ExactCount and count 1, a toleration's operator Equal, ...), namespace "default" for a
// namespaced object that names none.
func (d *draObjects) Apply(e *pb.ApiEvent) error {
	t := e.GetType()
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_ResourceClaim:
		claim, err := decodeClaim(obj.ResourceClaim)
		if err != nil {
			return err
		}
		return d.applyClaim(t, claim)
	case *pb.ApiEvent_ResourceClaimTemplate:
		template := &resourcev1.ResourceClaimTemplate{}
		if err := adapterkit.Decode(obj.ResourceClaimTemplate, template); err != nil {
			return err
		}
		resourcev1defaults.SetObjectDefaults_ResourceClaimTemplate(template)
		if template.Namespace == "" {
			template.Namespace = "default"
		}
		return d.templates.Deliver(t, template)
	case *pb.ApiEvent_ResourceSlice:
		slice, err := decodeSlice(obj.ResourceSlice)
		if err != nil {
			return err
		}
		return d.slices.Deliver(t, slice)
	case *pb.ApiEvent_DeviceClass:
		class := &resourcev1.DeviceClass{}
		if err := adapterkit.Decode(obj.DeviceClass, class); err != nil {
			return err
		}
		return d.classes.Deliver(t, class)
	case *pb.ApiEvent_DeviceTaintRule:
		// The version the minor's resource slice tracker reads (the bridge's).
		rule := scheduler.SchedcheckNewDeviceTaintRule()
		if err := adapterkit.Decode(obj.DeviceTaintRule, rule); err != nil {
			return err
		}
		scheduler.SchedcheckDefaultDeviceTaintRule(rule)
		return d.taintRules.Deliver(t, rule)
	}
	return fmt.Errorf("not a DRA object: %T", e.Object)
}

func decodeClaim(m *pb.ResourceClaim) (*resourcev1.ResourceClaim, error) {
	claim := &resourcev1.ResourceClaim{}
	if err := adapterkit.Decode(m, claim); err != nil {
		return nil, err
	}
	resourcev1defaults.SetObjectDefaults_ResourceClaim(claim)
	if claim.Namespace == "" {
		claim.Namespace = "default"
	}
	if claim.UID == "" {
		// The DRA manager keys in-flight allocations by UID and reservedFor names pods by UID; a
		// trace may leave it out (pods get the same kind of stand-in).
		claim.UID = types.UID("resourceclaim:" + claim.Namespace + "/" + claim.Name)
	}
	return claim, nil
}

func decodeSlice(m *pb.ResourceSlice) (*resourcev1.ResourceSlice, error) {
	slice := &resourcev1.ResourceSlice{}
	if err := adapterkit.Decode(m, slice); err != nil {
		return nil, err
	}
	resourcev1defaults.SetObjectDefaults_ResourceSlice(slice)
	return slice, nil
}

func claimKey(c *resourcev1.ResourceClaim) string { return c.Namespace + "/" + c.Name }

// applyClaim applies the trace's write of a claim. The status fields the scheduler writes
// (status.allocation and status.reservedFor) belong to the replay once it allocated the claim: a
// later trace update of the claim (in a capture, the cluster's own scheduler and controllers wrote
// it) keeps the replay's allocation, as a trace update keeps the node the replay bound a pod to,
// and its other fields apply. The replay's reservedFor keeps the pods the replay still has (the
// ResourceClaim controller removes the others; the trace's update reflects that). When none is
// left and the trace's update carries no allocation, the controller's deallocation applies: the
// claim takes the trace's status and stops being the replay's. Deleting the claim ends it too.
func (d *draObjects) applyClaim(t pb.EventType, claim *resourcev1.ResourceClaim) error {
	key := claimKey(claim)
	if t == pb.EventType_DELETED {
		delete(d.api, key)
		delete(d.allocatedHere, key)
		return d.claims.Deliver(t, claim)
	}
	if current := d.api[key]; current != nil && d.allocatedHere[key] {
		reserved := d.livePods(claim.Namespace, current.Status.ReservedFor)
		if len(reserved) == 0 && claim.Status.Allocation == nil {
			delete(d.allocatedHere, key)
		} else {
			claim.Status.Allocation = current.Status.Allocation
			claim.Status.ReservedFor = reserved
		}
	}
	d.stampClaim(claim)
	d.api[key] = claim.DeepCopy()
	return d.claims.Deliver(t, claim)
}

// livePods are the entries of reservedFor whose pod the pod informer still holds (same UID);
// entries of other kinds stay.
func (d *draObjects) livePods(ns string, reservedFor []resourcev1.ResourceClaimConsumerReference) []resourcev1.ResourceClaimConsumerReference {
	var out []resourcev1.ResourceClaimConsumerReference
	for _, ref := range reservedFor {
		if ref.APIGroup == "" && ref.Resource == "pods" {
			if pod, err := d.pods.Pods(ns).Get(ref.Name); err != nil || pod.UID != ref.UID {
				continue
			}
		}
		out = append(out, ref)
	}
	return out
}

// stampClaim gives claim the next claim version.
func (d *draObjects) stampClaim(claim *resourcev1.ResourceClaim) {
	d.version++
	claim.ResourceVersion = strconv.FormatUint(d.version, 10)
}

// deliver hands the scheduler's pending claim writes to the claim informer, in the order they
// were made, as its watch would.
func (d *draObjects) deliver() error {
	writes := d.pending
	d.pending = nil
	for _, w := range writes {
		if err := d.claims.Deliver(w.t, w.claim); err != nil {
			return fmt.Errorf("delivering the scheduler's write of resourceClaim %s: %w", claimKey(w.claim), err)
		}
	}
	return nil
}
