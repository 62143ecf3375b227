//go:build !kube1_35

package adapter

import (
	"time"

	"k8s.io/client-go/tools/cache"

	"schedcheck.local/kube/shared/adapterkit"
)

// client-go v0.37 (and v0.36) asks more of informers and handler registrations than the
// version-independent synchronous informers (shared/adapterkit) provide: these wrappers add it,
// always synced. v0.35 has no DoneChecker: informers_1_35.go, built with the tag build.sh sets.

// registration is a handler registration that has always synced.
type registration struct{ adapterkit.SyncedRegistration }

func (r registration) HasSyncedChecker() cache.DoneChecker { return r }

func (registration) Name() string { return "schedcheck synchronous informer" }

// closedChannel is the Done channel of everything already synced.
var closedChannel = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (registration) Done() <-chan struct{} { return closedChannel }

// informer137 is a synchronous informer with v0.37's registration entry points.
type informer137 struct{ *adapterkit.SyncInformer }

func wrapInformer(i *adapterkit.SyncInformer) cache.SharedIndexInformer { return informer137{i} }

// AddEventHandlerWithOptions is what typed informers (AddTypedEventHandler: the DRA resource
// slice tracker) and the scheduler's own registrations may call.
func (i informer137) AddEventHandlerWithOptions(h cache.ResourceEventHandler, _ cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

func (i informer137) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

func (informer137) HasSyncedChecker() cache.DoneChecker { return registration{} }
