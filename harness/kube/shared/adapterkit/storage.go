package adapterkit

import (
	"fmt"
	"strconv"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	storagev1defaults "k8s.io/kubernetes/pkg/apis/storage/v1"

	"schedcheck.local/kube/common/pb"
)

// storageInformers are the informers of the storage kinds: the ones the volume plugins list
// (VolumeBinding, VolumeZone, VolumeRestrictions, NodeVolumeLimits and v1.27's in-tree limits).
// VolumeBinding's assume caches register their own handlers on the PersistentVolume and
// PersistentVolumeClaim informers; like the scheduler's, they run on every event.
type storageInformers struct {
	persistentVolumes      *SyncInformer
	persistentVolumeClaims *SyncInformer
	storageClasses         *SyncInformer
	csiNodes               *SyncInformer
	csiDrivers             *SyncInformer
	csiStorageCapacities   *SyncInformer
}

func newStorageInformers(f *SyncFactory) storageInformers {
	return storageInformers{
		persistentVolumes: f.informer(&v1.PersistentVolume{}, f.Core().V1().PersistentVolumes().Informer),
		persistentVolumeClaims: f.informer(&v1.PersistentVolumeClaim{},
			f.Core().V1().PersistentVolumeClaims().Informer),
		storageClasses: f.informer(&storagev1.StorageClass{}, f.Storage().V1().StorageClasses().Informer),
		csiNodes:       f.informer(&storagev1.CSINode{}, f.Storage().V1().CSINodes().Informer),
		csiDrivers:     f.informer(&storagev1.CSIDriver{}, f.Storage().V1().CSIDrivers().Informer),
		csiStorageCapacities: f.informer(&storagev1.CSIStorageCapacity{},
			f.Storage().V1().CSIStorageCapacities().Informer),
	}
}

// applyStorage applies an event of a storage kind: decoded from its Kubernetes JSON, the API's
// defaults applied (a PersistentVolume's reclaim policy and phase, a claim's volumeMode, a
// StorageClass's volumeBindingMode, a CSIDriver's attachRequired, ...), namespace "default" for
// a claim or a CSIStorageCapacity that names none, a resourceVersion when it has none.
func (s *Objects) applyStorage(e *pb.ApiEvent) error {
	inf := &s.storage
	t := e.GetType()
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_PersistentVolume:
		pv := &v1.PersistentVolume{}
		if err := decode(obj.PersistentVolume, pv); err != nil {
			return err
		}
		if err := integerVersion(pv.ResourceVersion); err != nil {
			return err
		}
		corev1defaults.SetObjectDefaults_PersistentVolume(pv)
		s.stampStorage(pv)
		return s.applyPlain(inf.persistentVolumes, t, pv)
	case *pb.ApiEvent_PersistentVolumeClaim:
		pvc := &v1.PersistentVolumeClaim{}
		if err := decode(obj.PersistentVolumeClaim, pvc); err != nil {
			return err
		}
		if err := integerVersion(pvc.ResourceVersion); err != nil {
			return err
		}
		corev1defaults.SetObjectDefaults_PersistentVolumeClaim(pvc)
		if pvc.Namespace == "" {
			pvc.Namespace = "default"
		}
		s.stampStorage(pvc)
		return s.applyPlain(inf.persistentVolumeClaims, t, pvc)
	case *pb.ApiEvent_StorageClass:
		sc := &storagev1.StorageClass{}
		if err := decode(obj.StorageClass, sc); err != nil {
			return err
		}
		storagev1defaults.SetObjectDefaults_StorageClass(sc)
		return s.applyPlain(inf.storageClasses, t, sc)
	case *pb.ApiEvent_CsiNode:
		csiNode := &storagev1.CSINode{}
		if err := decode(obj.CsiNode, csiNode); err != nil {
			return err
		}
		return s.applyPlain(inf.csiNodes, t, csiNode)
	case *pb.ApiEvent_CsiDriver:
		driver := &storagev1.CSIDriver{}
		if err := decode(obj.CsiDriver, driver); err != nil {
			return err
		}
		storagev1defaults.SetObjectDefaults_CSIDriver(driver)
		return s.applyPlain(inf.csiDrivers, t, driver)
	case *pb.ApiEvent_CsiStorageCapacity:
		capacity := &storagev1.CSIStorageCapacity{}
		if err := decode(obj.CsiStorageCapacity, capacity); err != nil {
			return err
		}
		if capacity.Namespace == "" {
			capacity.Namespace = "default"
		}
		return s.applyPlain(inf.csiStorageCapacities, t, capacity)
	}
	return fmt.Errorf("not a storage object: %T", e.Object)
}

// storageName names the object of a storage event for error messages, as " (kind name)".
func storageName(e *pb.ApiEvent) string {
	switch obj := e.Object.(type) {
	case *pb.ApiEvent_PersistentVolume:
		return " (persistentVolume " + obj.PersistentVolume.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_PersistentVolumeClaim:
		m := obj.PersistentVolumeClaim.GetMetadata()
		return " (persistentVolumeClaim " + m.GetNamespace() + "/" + m.GetName() + ")"
	case *pb.ApiEvent_StorageClass:
		return " (storageClass " + obj.StorageClass.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_CsiNode:
		return " (csiNode " + obj.CsiNode.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_CsiDriver:
		return " (csiDriver " + obj.CsiDriver.GetMetadata().GetName() + ")"
	case *pb.ApiEvent_CsiStorageCapacity:
		m := obj.CsiStorageCapacity.GetMetadata()
		return " (csiStorageCapacity " + m.GetNamespace() + "/" + m.GetName() + ")"
	}
	return ""
}

// integerVersion refuses a resourceVersion that is not a decimal integer: VolumeBinding compares
// the versions of PersistentVolumes and claims as integers (v1.27's assume cache drops an update
// whose version does not parse; v1.37's binder panics on one).
func integerVersion(version string) error {
	if version == "" {
		return nil
	}
	if _, err := strconv.ParseUint(version, 10, 64); err != nil {
		return fmt.Errorf("metadata.resourceVersion %q: VolumeBinding reads the versions of volumes and claims as decimal integers", version)
	}
	return nil
}

// RefuseVolumeWrites makes the fake API server (an adapter's fake clientset) answer every update or patch of a
// PersistentVolume or claim with NotFound, the answer its empty object tracker gives anyway
// (trace objects live in the informers only). These are VolumeBinding's PreBind writes for a
// claim that is not bound yet (a WaitForFirstConsumer claim: the volume's claimRef, or the
// claim's selected-node annotation). There is no PV controller in the replay: a write that
// succeeded would leave PreBind polling the informers, on the real clock, for the bind timeout
// (600 s by default) while nothing can change them. Refused, PreBind fails at once: the attempt
// is an error, Unreserve reverts the assumed volumes and the pod backs off and tries again
// (harness/kube/README.md, "No PV controller").
func RefuseVolumeWrites(f *k8stesting.Fake) {
	for _, verb := range []string{"update", "patch"} {
		for _, resource := range []string{"persistentvolumes", "persistentvolumeclaims"} {
			f.PrependReactor(verb, resource, refuseVolumeWrite)
		}
	}
}

func refuseVolumeWrite(a k8stesting.Action) (bool, runtime.Object, error) {
	name := ""
	switch w := a.(type) {
	case k8stesting.UpdateAction:
		if m, err := meta.Accessor(w.GetObject()); err == nil {
			name = m.GetName()
		}
	case k8stesting.PatchAction:
		name = w.GetName()
	}
	return true, nil, apierrors.NewNotFound(schema.GroupResource{Resource: a.GetResource().Resource}, name)
}
