package adapterkit

import (
	"errors"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"

	"schedcheck.local/kube/common/pb"
)

// VolumeControllers is the API server VolumeBinding's PreBind writes to, with kube-controller-
// manager's PV controller and an external CSI provisioner behind it (Hello.volume_controllers;
// docs/FORMATS.md, "Volume controllers"). It is the Go twin of the reference's
// harness/replay/volume_controllers.cc and replay_volumes.cc: the same writes get the same
// answers, so both builds see the same API events. The API server's store is the informers'
// (they never lag); writes reach them, and the scheduler's handlers, only in Settle.
type VolumeControllers struct {
	objects *Objects
	writes  []runtime.Object // *v1.PersistentVolume or *v1.PersistentVolumeClaim, in write order
	// AnswerLater: the latency, the replay's current instant, and the settled writes the
	// controllers answer later, in Settle order.
	latency int64
	now     func() int64
	later   []laterAnswers
}

type laterAnswers struct {
	due    int64
	writes []runtime.Object
}

const (
	annBindCompleted      = "pv.kubernetes.io/bind-completed"
	annBoundByController  = "pv.kubernetes.io/bound-by-controller"
	annSelectedNode       = "volume.kubernetes.io/selected-node"
	annProvisionedBy      = "pv.kubernetes.io/provisioned-by"
	annBetaStorageClass   = "volume.beta.kubernetes.io/storage-class"
	notSupportedProvision = "kubernetes.io/no-provisioner"
)

// AnswerVolumeWrites makes the fake API server take the updates of PersistentVolumes and claims
// (ahead of RefuseVolumeWrites' reactors) and returns the model; VolumeBinding's patched poll
// calls its Settle.
func (s *Objects) AnswerVolumeWrites(f *k8stesting.Fake) *VolumeControllers {
	vc := &VolumeControllers{objects: s}
	f.PrependReactor("update", "persistentvolumes", vc.update)
	f.PrependReactor("update", "persistentvolumeclaims", vc.update)
	return vc
}

// update is the API server's Update: NotFound for an object it does not hold, Conflict for a
// write based on another resourceVersion; else the object as stored (the status subresource
// unchanged, a new resourceVersion).
func (vc *VolumeControllers) update(a k8stesting.Action) (bool, runtime.Object, error) {
	u, ok := a.(k8stesting.UpdateAction)
	if !ok || a.GetSubresource() != "" {
		return false, nil, nil
	}
	conflict := errors.New("the object has been modified; please apply your changes to the latest version and try again")
	switch obj := u.GetObject().(type) {
	case *v1.PersistentVolume:
		gr := schema.GroupResource{Resource: "persistentvolumes"}
		stored := vc.storedPV(obj.Name)
		if stored == nil {
			return true, nil, apierrors.NewNotFound(gr, obj.Name)
		}
		if obj.ResourceVersion != stored.ResourceVersion {
			return true, nil, apierrors.NewConflict(gr, obj.Name, conflict)
		}
		saved := obj.DeepCopy()
		saved.Status = *stored.Status.DeepCopy()
		saved.ResourceVersion = ""
		vc.objects.stampStorage(saved)
		vc.writes = append(vc.writes, saved)
		return true, saved.DeepCopy(), nil
	case *v1.PersistentVolumeClaim:
		gr := schema.GroupResource{Resource: "persistentvolumeclaims"}
		ns := obj.Namespace
		if ns == "" {
			ns = "default"
		}
		stored := vc.storedClaim(ns, obj.Name)
		if stored == nil {
			return true, nil, apierrors.NewNotFound(gr, obj.Name)
		}
		if obj.ResourceVersion != stored.ResourceVersion {
			return true, nil, apierrors.NewConflict(gr, obj.Name, conflict)
		}
		saved := obj.DeepCopy()
		saved.Namespace = ns
		saved.Status = *stored.Status.DeepCopy()
		saved.ResourceVersion = ""
		vc.objects.stampStorage(saved)
		vc.writes = append(vc.writes, saved)
		return true, saved.DeepCopy(), nil
	}
	return false, nil, nil
}

// storedPV and storedClaim: the last write not delivered yet, else the informer's object.
func (vc *VolumeControllers) storedPV(name string) *v1.PersistentVolume {
	var stored *v1.PersistentVolume
	if o := vc.objects.storage.persistentVolumes.get(&v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: name}}); o != nil {
		stored = o.(*v1.PersistentVolume)
	}
	for _, w := range vc.writes {
		if pv, ok := w.(*v1.PersistentVolume); ok && pv.Name == name {
			stored = pv
		}
	}
	return stored
}

func (vc *VolumeControllers) storedClaim(ns, name string) *v1.PersistentVolumeClaim {
	stored := vc.claim(ns, name)
	for _, w := range vc.writes {
		if c, ok := w.(*v1.PersistentVolumeClaim); ok && c.Namespace == ns && c.Name == name {
			stored = c
		}
	}
	return stored
}

func (vc *VolumeControllers) claim(ns, name string) *v1.PersistentVolumeClaim {
	o := vc.objects.storage.persistentVolumeClaims.get(&v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
	if o == nil {
		return nil
	}
	return o.(*v1.PersistentVolumeClaim)
}

// reaction is one API event the controllers write: an add or an update of a volume or claim.
type reaction struct {
	added bool
	obj   runtime.Object
}

// AnswerLater makes the controllers answer `latency` ns after Settle (Hello.volume_latency_ns);
// `now` is the instant the replay runs.
func (vc *VolumeControllers) AnswerLater(latency int64, now func() int64) {
	vc.latency, vc.now = latency, now
}

// Settle is PreBind's wait: the scheduler's writes come back through its informers first, then
// the controllers' answers, write by write: at once, or `latency` later (AnswerDue).
func (vc *VolumeControllers) Settle() {
	writes := vc.writes
	vc.writes = nil
	for _, w := range writes {
		vc.deliver(reaction{obj: w})
	}
	if vc.latency > 0 {
		if len(writes) > 0 {
			vc.later = append(vc.later, laterAnswers{due: vc.now() + vc.latency, writes: writes})
		}
		return
	}
	vc.answer(writes)
}

// NextAnswers is the instant of the next answers due; false when none are.
func (vc *VolumeControllers) NextAnswers() (int64, bool) {
	if len(vc.later) == 0 {
		return 0, false
	}
	return vc.later[0].due, true // one latency for all: due in Settle order
}

// AnswerDue delivers the answers due at `now`, Settle by Settle.
func (vc *VolumeControllers) AnswerDue(now int64) {
	for len(vc.later) > 0 && vc.later[0].due == now {
		writes := vc.later[0].writes
		vc.later = vc.later[1:]
		vc.answer(writes)
	}
}

// answer delivers the controllers' answers to `writes`, write by write, against the objects as
// they are now.
func (vc *VolumeControllers) answer(writes []runtime.Object) {
	for _, w := range writes {
		var answers []reaction
		switch obj := w.(type) {
		case *v1.PersistentVolume:
			answers = vc.bindStatic(obj)
		case *v1.PersistentVolumeClaim:
			answers = vc.provision(obj)
		}
		for _, a := range answers {
			vc.deliver(a)
		}
	}
}

func (vc *VolumeControllers) deliver(r reaction) {
	t := pb.EventType_MODIFIED
	if r.added {
		t = pb.EventType_ADDED
	}
	inf := vc.objects.storage.persistentVolumes
	if _, ok := r.obj.(*v1.PersistentVolumeClaim); ok {
		inf = vc.objects.storage.persistentVolumeClaims
	}
	obj := r.obj.(versioned)
	vc.objects.stampStorage(obj)
	// The objects are well formed; a handler's error would be the informer store's.
	_ = vc.objects.applyPlain(inf, t, obj)
}

// bindClaim is the PV controller's bindClaimToVolume and updateClaimStatus, as one write.
func bindClaim(claim *v1.PersistentVolumeClaim, pv *v1.PersistentVolume) reaction {
	c := claim.DeepCopy()
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	if c.Spec.VolumeName == "" {
		c.Annotations[annBoundByController] = "yes"
	}
	c.Annotations[annBindCompleted] = "yes"
	c.Spec.VolumeName = pv.Name
	c.ResourceVersion = ""
	c.Status.Phase = v1.ClaimBound
	c.Status.AccessModes = append([]v1.PersistentVolumeAccessMode(nil), pv.Spec.AccessModes...)
	c.Status.Capacity = pv.Spec.Capacity.DeepCopy()
	return reaction{obj: c}
}

// bindStatic answers a PV whose claimRef the scheduler wrote: the PV Bound, then its claim.
func (vc *VolumeControllers) bindStatic(written *v1.PersistentVolume) []reaction {
	o := vc.objects.storage.persistentVolumes.get(written)
	if o == nil {
		return nil
	}
	pv := o.(*v1.PersistentVolume)
	ref := pv.Spec.ClaimRef
	if ref == nil {
		return nil
	}
	ns := ref.Namespace
	if ns == "" {
		ns = "default"
	}
	claim := vc.claim(ns, ref.Name)
	if claim == nil || (ref.UID != "" && ref.UID != claim.UID) ||
		(claim.Spec.VolumeName != "" && claim.Spec.VolumeName != pv.Name) {
		return nil
	}
	updated := pv.DeepCopy()
	updated.ResourceVersion = ""
	updated.Status.Phase = v1.VolumeBound
	return []reaction{{obj: updated}, bindClaim(claim, updated)}
}

// provision answers a claim whose selected node the scheduler wrote: the provisioner's PV in the
// node's topology, then the claim bound to it.
func (vc *VolumeControllers) provision(written *v1.PersistentVolumeClaim) []reaction {
	claim := vc.claim(written.Namespace, written.Name)
	if claim == nil || claim.Spec.VolumeName != "" {
		return nil
	}
	selected := claim.Annotations[annSelectedNode]
	if selected == "" {
		return nil
	}
	className, ok := claim.Annotations[annBetaStorageClass]
	if !ok && claim.Spec.StorageClassName != nil {
		className = *claim.Spec.StorageClassName
	}
	o := vc.objects.storage.storageClasses.get(&storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: className}})
	if o == nil {
		return nil
	}
	sc := o.(*storagev1.StorageClass)
	if sc.Provisioner == notSupportedProvision {
		return nil
	}
	uid := string(claim.UID)
	if uid == "" {
		uid = claim.Namespace + "-" + claim.Name
	}
	name := "pvc-" + uid
	if vc.objects.storage.persistentVolumes.get(&v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: name}}) != nil {
		return nil
	}
	reclaim := v1.PersistentVolumeReclaimDelete
	if sc.ReclaimPolicy != nil && *sc.ReclaimPolicy != "" {
		reclaim = *sc.ReclaimPolicy
	}
	pv := &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{annProvisionedBy: sc.Provisioner}},
		Spec: v1.PersistentVolumeSpec{
			AccessModes:                   append([]v1.PersistentVolumeAccessMode(nil), claim.Spec.AccessModes...),
			StorageClassName:              className,
			PersistentVolumeReclaimPolicy: reclaim,
			PersistentVolumeSource: v1.PersistentVolumeSource{
				CSI: &v1.CSIPersistentVolumeSource{Driver: sc.Provisioner, VolumeHandle: name},
			},
			ClaimRef: &v1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID},
			NodeAffinity: vc.topology(sc.Provisioner, selected),
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumeBound},
	}
	if request, ok := claim.Spec.Resources.Requests[v1.ResourceStorage]; ok {
		pv.Spec.Capacity = v1.ResourceList{v1.ResourceStorage: request.DeepCopy()}
	}
	if claim.Spec.VolumeMode != nil {
		mode := *claim.Spec.VolumeMode
		pv.Spec.VolumeMode = &mode
	}
	corev1defaults.SetObjectDefaults_PersistentVolume(pv)
	return []reaction{{added: true, obj: pv}, bindClaim(claim, pv)}
}

// topology is the provisioned volume's node affinity: each topology key the node's CSINode lists
// for the driver, In the node's value of that label (keys the node lacks are left out); nil when
// none.
func (vc *VolumeControllers) topology(driver, nodeName string) *v1.VolumeNodeAffinity {
	o := vc.objects.storage.csiNodes.get(&storagev1.CSINode{ObjectMeta: metav1.ObjectMeta{Name: nodeName}})
	n := vc.objects.nodes.get(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: nodeName}})
	if o == nil || n == nil {
		return nil
	}
	labels := n.(*v1.Node).Labels
	var term v1.NodeSelectorTerm
	for _, d := range o.(*storagev1.CSINode).Spec.Drivers {
		if d.Name != driver {
			continue
		}
		for _, key := range d.TopologyKeys {
			if value, ok := labels[key]; ok {
				term.MatchExpressions = append(term.MatchExpressions, v1.NodeSelectorRequirement{
					Key: key, Operator: v1.NodeSelectorOpIn, Values: []string{value}})
			}
		}
		break
	}
	if len(term.MatchExpressions) == 0 {
		return nil
	}
	return &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{term}}}
}
