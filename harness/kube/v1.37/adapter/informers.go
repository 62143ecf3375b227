package adapter

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
)

// syncFactory is a SharedInformerFactory whose informers never run. The scheduler registers its
// event handlers on them as usual; the adapter then updates each informer's store and calls those
// handlers itself, synchronously and in trace order, so that nothing races virtual time.
type syncFactory struct {
	informers.SharedInformerFactory // the real factory, for the groups the scheduler never reads
	client                          kubernetes.Interface
	byType                          map[reflect.Type]*syncInformer
}

func newSyncFactory(client kubernetes.Interface) *syncFactory {
	return &syncFactory{
		SharedInformerFactory: informers.NewSharedInformerFactory(client, 0),
		client:                client,
		byType:                map[reflect.Type]*syncInformer{},
	}
}

var _ internalinterfaces.SharedInformerFactory = &syncFactory{}

// InformerFor makes (once per object type) the informer the group accessors and the scheduler
// ask for, wrapped so that its handlers are kept for the adapter.
func (f *syncFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) cache.SharedIndexInformer {
	t := reflect.TypeOf(obj)
	if inf, ok := f.byType[t]; ok {
		return inf
	}
	inf := &syncInformer{SharedIndexInformer: newFunc(f.client, 0)}
	f.byType[t] = inf
	return inf
}

func (f *syncFactory) Start(<-chan struct{}) {}

func (f *syncFactory) Apps() apps.Interface             { return apps.New(f, "", nil) }
func (f *syncFactory) Core() core.Interface             { return core.New(f, "", nil) }
func (f *syncFactory) Policy() policy.Interface         { return policy.New(f, "", nil) }
func (f *syncFactory) Resource() resource.Interface     { return resource.New(f, "", nil) }
func (f *syncFactory) Scheduling() scheduling.Interface { return scheduling.New(f, "", nil) }
func (f *syncFactory) Storage() storage.Interface       { return storage.New(f, "", nil) }

// informer returns the informer of obj's type, made through the typed accessor when the scheduler
// has not asked for it (then nobody registered handlers, but listers may still read its store).
func (f *syncFactory) informer(obj runtime.Object, make func() cache.SharedIndexInformer) *syncInformer {
	if inf, ok := f.byType[reflect.TypeOf(obj)]; ok {
		return inf
	}
	make()
	return f.byType[reflect.TypeOf(obj)]
}

// syncInformer keeps the handlers registered on it and is fed by apply.
type syncInformer struct {
	cache.SharedIndexInformer
	handlers []cache.ResourceEventHandler
}

type syncedRegistration struct{}

func (syncedRegistration) HasSynced() bool { return true }

func (s syncedRegistration) HasSyncedChecker() cache.DoneChecker { return s }

func (syncedRegistration) Name() string { return "schedcheck synchronous informer" }

// closedChannel is the Done channel of everything already synced.
var closedChannel = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (syncedRegistration) Done() <-chan struct{} { return closedChannel }

func (i *syncInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	i.handlers = append(i.handlers, h)
	return syncedRegistration{}, nil
}

func (i *syncInformer) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

// AddEventHandlerWithOptions is what typed informers (AddTypedEventHandler: the DRA resource
// slice tracker) and the scheduler's own registrations may call.
func (i *syncInformer) AddEventHandlerWithOptions(h cache.ResourceEventHandler, _ cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

func (i *syncInformer) HasSynced() bool { return true }

func (i *syncInformer) HasSyncedChecker() cache.DoneChecker { return syncedRegistration{} }

// add, update and remove change the store first and then notify every handler in registration
// order, as a running informer does.
func (i *syncInformer) add(obj interface{}) error {
	if err := i.GetStore().Add(obj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnAdd(obj, false)
	}
	return nil
}

func (i *syncInformer) update(oldObj, newObj interface{}) error {
	if err := i.GetStore().Update(newObj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnUpdate(oldObj, newObj)
	}
	return nil
}

func (i *syncInformer) remove(obj interface{}) error {
	if err := i.GetStore().Delete(obj); err != nil {
		return fmt.Errorf("informer store: %w", err)
	}
	for _, h := range i.handlers {
		h.OnDelete(obj)
	}
	return nil
}

// get returns the stored object with the key of obj, or nil.
func (i *syncInformer) get(obj interface{}) interface{} {
	stored, ok, err := i.GetStore().Get(obj)
	if err != nil || !ok {
		return nil
	}
	return stored
}
