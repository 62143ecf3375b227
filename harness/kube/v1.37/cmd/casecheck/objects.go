package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
)

// The API objects of a case besides its nodes and pods: the Namespace objects (InterPodAffinity's
// namespaceSelector lists them) and the storage objects the volume plugins read
// (persistentVolumes, persistentVolumeClaims, storageClasses, csiNodes, csiDrivers,
// csiStorageCapacities). They go into the fake API server before the case's plugins are made and
// are read by the plugins through the shared informers, as kube-scheduler's plugins read them;
// after the case they are deleted again, so that no case sees another's.

// apiObject is a Kubernetes object with metadata.
type apiObject interface {
	metav1.Object
	runtime.Object
}

// apiKind is one list of a case: how its objects are decoded, where the fake API server keeps
// them and which shared informer the plugins read them from.
type apiKind struct {
	field      string            // the case's field, e.g. "persistentVolumes"
	kind       string            // the object kind, for messages
	resource   fwk.EventResource // its event resource in hint cases ("" for Namespace)
	gvr        schema.GroupVersionResource
	namespaced bool // a namespaced object without a namespace is in "default"
	decode     func(raw json.RawMessage, what string, namespaced bool) (apiObject, error)
	informer   func(informers.SharedInformerFactory) cache.SharedIndexInformer
}

// decodeAs decodes one object of type T, strictly, and requires a name; a namespaced object
// without a namespace is put in "default", a cluster-scoped object with one is refused.
func decodeAs[T any, PT interface {
	*T
	apiObject
}](raw json.RawMessage, what string, namespaced bool) (apiObject, error) {
	obj := PT(new(T))
	if err := strictUnmarshal(raw, obj, what); err != nil {
		return nil, err
	}
	if obj.GetName() == "" {
		return nil, fmt.Errorf("%s has no metadata.name", what)
	}
	switch {
	case namespaced && obj.GetNamespace() == "":
		obj.SetNamespace(metav1.NamespaceDefault)
	case !namespaced && obj.GetNamespace() != "":
		return nil, fmt.Errorf("%s: a cluster-scoped object has no metadata.namespace (got %q)", what, obj.GetNamespace())
	}
	return obj, nil
}

// apiKinds are the case's lists in the order their objects are created.
var apiKinds = []*apiKind{
	{
		field: "namespaces", kind: "Namespace",
		gvr:    v1.SchemeGroupVersion.WithResource("namespaces"),
		decode: decodeAs[v1.Namespace],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Core().V1().Namespaces().Informer()
		},
	},
	{
		field: "persistentVolumes", kind: "PersistentVolume", resource: fwk.PersistentVolume,
		gvr:    v1.SchemeGroupVersion.WithResource("persistentvolumes"),
		decode: decodeAs[v1.PersistentVolume],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Core().V1().PersistentVolumes().Informer()
		},
	},
	{
		field: "persistentVolumeClaims", kind: "PersistentVolumeClaim", resource: fwk.PersistentVolumeClaim,
		gvr: v1.SchemeGroupVersion.WithResource("persistentvolumeclaims"), namespaced: true,
		decode: decodeAs[v1.PersistentVolumeClaim],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Core().V1().PersistentVolumeClaims().Informer()
		},
	},
	{
		field: "storageClasses", kind: "StorageClass", resource: fwk.StorageClass,
		gvr:    storagev1.SchemeGroupVersion.WithResource("storageclasses"),
		decode: decodeAs[storagev1.StorageClass],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Storage().V1().StorageClasses().Informer()
		},
	},
	{
		field: "csiNodes", kind: "CSINode", resource: fwk.CSINode,
		gvr:    storagev1.SchemeGroupVersion.WithResource("csinodes"),
		decode: decodeAs[storagev1.CSINode],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Storage().V1().CSINodes().Informer()
		},
	},
	{
		field: "csiDrivers", kind: "CSIDriver", resource: fwk.CSIDriver,
		gvr:    storagev1.SchemeGroupVersion.WithResource("csidrivers"),
		decode: decodeAs[storagev1.CSIDriver],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Storage().V1().CSIDrivers().Informer()
		},
	},
	{
		field: "csiStorageCapacities", kind: "CSIStorageCapacity", resource: fwk.CSIStorageCapacity,
		gvr: storagev1.SchemeGroupVersion.WithResource("csistoragecapacities"), namespaced: true,
		decode: decodeAs[storagev1.CSIStorageCapacity],
		informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
			return f.Storage().V1().CSIStorageCapacities().Informer()
		},
	},
}

// eventKinds maps the storage event resources a hint case may name to their kind.
var eventKinds = func() map[fwk.EventResource]*apiKind {
	m := map[fwk.EventResource]*apiKind{}
	for _, k := range apiKinds {
		if k.resource != "" {
			m[k.resource] = k
		}
	}
	return m
}()

// clusterObject is one decoded object of a case and its kind.
type clusterObject struct {
	kind *apiKind
	obj  apiObject
}

func (o clusterObject) key() string { return cache.MetaObjectToName(o.obj).String() }

// rawObjectLists returns the case's object lists by field name, in apiKinds order.
func rawObjectLists(rc *rawCase) map[string][]json.RawMessage {
	return map[string][]json.RawMessage{
		"namespaces":             rc.Namespaces,
		"persistentVolumes":      rc.PersistentVolumes,
		"persistentVolumeClaims": rc.PersistentVolumeClaims,
		"storageClasses":         rc.StorageClasses,
		"csiNodes":               rc.CSINodes,
		"csiDrivers":             rc.CSIDrivers,
		"csiStorageCapacities":   rc.CSIStorageCapacities,
	}
}

// decodeObjects reads every object list of the case; each object needs a name, and a key
// (namespace/name) appears once per kind.
func decodeObjects(rc *rawCase) ([]clusterObject, error) {
	lists := rawObjectLists(rc)
	var out []clusterObject
	for _, k := range apiKinds {
		seen := map[string]bool{}
		for i, raw := range lists[k.field] {
			obj, err := k.decode(raw, fmt.Sprintf("%s[%d]", k.field, i), k.namespaced)
			if err != nil {
				return nil, err
			}
			o := clusterObject{kind: k, obj: obj}
			if seen[o.key()] {
				return nil, fmt.Errorf("%s %q listed twice", k.kind, o.key())
			}
			seen[o.key()] = true
			out = append(out, o)
		}
	}
	return out, nil
}

// decodeStorageEventObject reads the oldObject or newObject of a hint case whose event resource
// is a storage kind (ok false when it is not one).
func decodeStorageEventObject(raw json.RawMessage, resource fwk.EventResource, what string) (obj any, ok bool, err error) {
	k, ok := eventKinds[resource]
	if !ok {
		return nil, false, nil
	}
	o, err := k.decode(raw, what, k.namespaced)
	return o, true, err
}

// objectWait bounds the wait for the informers to see the case's objects created or deleted in
// the fake clientset (its watch delivers within milliseconds).
const objectWait = 30 * time.Second

// createObjects writes the case's objects into the fake API server and waits until every one of
// them is in its informer's store, where the plugins' listers read.
func (e *environment) createObjects(objs []clusterObject) error {
	tracker := e.client.Tracker()
	for _, o := range objs {
		// A copy: the fake API server keeps the object it is given.
		if err := tracker.Create(o.kind.gvr, o.obj.DeepCopyObject(), o.obj.GetNamespace()); err != nil {
			return fmt.Errorf("creating %s %s: %w", o.kind.kind, o.key(), err)
		}
	}
	return e.waitForObjects(objs, true)
}

// deleteObjects deletes the case's objects (those not there are skipped) and waits until the
// informers have none of them.
func (e *environment) deleteObjects(objs []clusterObject) error {
	tracker := e.client.Tracker()
	for _, o := range objs {
		err := tracker.Delete(o.kind.gvr, o.obj.GetNamespace(), o.obj.GetName())
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting %s %s: %w", o.kind.kind, o.key(), err)
		}
	}
	return e.waitForObjects(objs, false)
}

func (e *environment) waitForObjects(objs []clusterObject, present bool) error {
	var missing string
	err := wait.PollUntilContextTimeout(e.ctx, time.Millisecond, objectWait, true, func(context.Context) (bool, error) {
		for _, o := range objs {
			_, exists, err := o.kind.informer(e.informers).GetIndexer().GetByKey(o.key())
			if err != nil {
				return false, err
			}
			if exists != present {
				missing = o.kind.kind + " " + o.key()
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		verb := "have"
		if !present {
			verb = "drop"
		}
		return fmt.Errorf("the informers did not %s the case's objects (%s): %v", verb, missing, err)
	}
	return nil
}

// registerInformers makes every informer of apiKinds exist before the factory starts (an informer
// asked for only after Start would never run), plus VolumeAttachments, whose indexer
// NodeVolumeLimits reads (no case writes one).
func registerInformers(f informers.SharedInformerFactory) {
	for _, k := range apiKinds {
		k.informer(f)
	}
	f.Storage().V1().VolumeAttachments().Informer()
}
