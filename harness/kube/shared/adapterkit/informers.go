package adapterkit

import (
	"fmt"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/informers/apps"
	"k8s.io/client-go/informers/core"
	"k8s.io/client-go/informers/internalinterfaces"
	"k8s.io/client-go/informers/policy"
	"k8s.io/client-go/informers/resource"
	"k8s.io/client-go/informers/scheduling"
	"k8s.io/client-go/informers/storage"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"schedcheck.local/kube/common/pb"
)

// SyncFactory is a SharedInformerFactory whose informers never run. The scheduler registers its
// event handlers on them as usual; the adapter then updates each informer's store and calls those
// handlers itself, synchronously and in trace order, so that nothing races virtual time.
type SyncFactory struct {
	informers.SharedInformerFactory // the real factory, for the groups the scheduler never reads
	client                          kubernetes.Interface
	registration                    cache.ResourceEventHandlerRegistration
	wrap                            func(*SyncInformer) cache.SharedIndexInformer
	byType                          map[reflect.Type]*SyncInformer
	wrapped                         map[reflect.Type]cache.SharedIndexInformer
}

// NewSyncFactory makes the factory. Handler registrations return `registration` (a value of the
// client-go version's ResourceEventHandlerRegistration, always synced); `wrap`, when set, wraps
// each informer to add methods a newer client-go asks of informers.
func NewSyncFactory(client kubernetes.Interface, registration cache.ResourceEventHandlerRegistration,
	wrap func(*SyncInformer) cache.SharedIndexInformer) *SyncFactory {
	return &SyncFactory{
		SharedInformerFactory: informers.NewSharedInformerFactory(client, 0),
		client:                client,
		registration:          registration,
		wrap:                  wrap,
		byType:                map[reflect.Type]*SyncInformer{},
		wrapped:               map[reflect.Type]cache.SharedIndexInformer{},
	}
}

var _ internalinterfaces.SharedInformerFactory = &SyncFactory{}

// InformerFor makes (once per object type) the informer the group accessors and the scheduler
// ask for, wrapped so that its handlers are kept for the adapter.
func (f *SyncFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) cache.SharedIndexInformer {
	t := reflect.TypeOf(obj)
	if inf, ok := f.wrapped[t]; ok {
		return inf
	}
	inf := &SyncInformer{SharedIndexInformer: newFunc(f.client, 0), registration: f.registration}
	f.byType[t] = inf
	f.wrapped[t] = inf
	if f.wrap != nil {
		f.wrapped[t] = f.wrap(inf)
	}
	return f.wrapped[t]
}

func (f *SyncFactory) Start(<-chan struct{}) {}

func (f *SyncFactory) Apps() apps.Interface             { return apps.New(f, "", nil) }
func (f *SyncFactory) Core() core.Interface             { return core.New(f, "", nil) }
func (f *SyncFactory) Policy() policy.Interface         { return policy.New(f, "", nil) }
func (f *SyncFactory) Resource() resource.Interface     { return resource.New(f, "", nil) }
func (f *SyncFactory) Scheduling() scheduling.Interface { return scheduling.New(f, "", nil) }
func (f *SyncFactory) Storage() storage.Interface       { return storage.New(f, "", nil) }

// Informer is informer, for the kinds a version's adapter feeds itself (v1.37's DRA kinds).
func (f *SyncFactory) Informer(obj runtime.Object, make func() cache.SharedIndexInformer) *SyncInformer {
	return f.informer(obj, make)
}

// informer returns the informer of obj's type, made through the typed accessor when the scheduler
// has not asked for it (then nobody registered handlers, but listers may still read its store).
func (f *SyncFactory) informer(obj runtime.Object, make func() cache.SharedIndexInformer) *SyncInformer {
	if inf, ok := f.byType[reflect.TypeOf(obj)]; ok {
		return inf
	}
	make()
	return f.byType[reflect.TypeOf(obj)]
}

// SyncInformer keeps the handlers registered on it and is fed by Objects.
type SyncInformer struct {
	cache.SharedIndexInformer
	handlers     []cache.ResourceEventHandler
	registration cache.ResourceEventHandlerRegistration
}

func (i *SyncInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	i.handlers = append(i.handlers, h)
	return i.registration, nil
}

func (i *SyncInformer) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

func (i *SyncInformer) HasSynced() bool { return true }

// add, update and remove change the store first and then notify every handler in registration
// order, as a running informer does.
func (i *SyncInformer) add(obj interface{}) error {
	if err := i.GetStore().Add(obj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnAdd(obj, false)
	}
	return nil
}

func (i *SyncInformer) update(oldObj, newObj interface{}) error {
	if err := i.GetStore().Update(newObj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnUpdate(oldObj, newObj)
	}
	return nil
}

func (i *SyncInformer) remove(obj interface{}) error {
	if err := i.GetStore().Delete(obj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnDelete(obj)
	}
	return nil
}

// Deliver applies an event of type t for obj as a running informer would: an add, or an update of
// the stored object with obj's key, or that object's removal (a deletion of an object the store
// does not hold does nothing).
func (i *SyncInformer) Deliver(t pb.EventType, obj interface{}) error {
	old := i.get(obj)
	if t == pb.EventType_DELETED {
		if old == nil {
			return nil
		}
		return i.remove(old)
	}
	if old == nil {
		return i.add(obj)
	}
	return i.update(old, obj)
}

// Stored returns the stored object with the key of obj, or nil.
func (i *SyncInformer) Stored(obj interface{}) interface{} { return i.get(obj) }

// get returns the stored object with the key of obj, or nil.
func (i *SyncInformer) get(obj interface{}) interface{} {
	stored, ok, err := i.GetStore().Get(obj)
	if err != nil || !ok {
		return nil
	}
	return stored
}

// SyncedRegistration is a handler registration that has always synced (client-go 0.27's
// ResourceEventHandlerRegistration; newer adapters embed it and add what their client-go asks).
type SyncedRegistration struct{}

func (SyncedRegistration) HasSynced() bool { return true }
