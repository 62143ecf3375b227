//go:build kube1_35

package adapter

import (
	"time"

	"k8s.io/client-go/tools/cache"

	"schedcheck.local/kube/shared/adapterkit"
)

// client-go v0.35's informers: AddEventHandlerWithOptions as at v0.37, but no HasSyncedChecker
// (cache.DoneChecker does not exist yet). build.sh builds v1.35 with the tag kube1_35.

// registration is a handler registration that has always synced.
type registration struct{ adapterkit.SyncedRegistration }

// informer135 is a synchronous informer with v0.35's registration entry points.
type informer135 struct{ *adapterkit.SyncInformer }

func wrapInformer(i *adapterkit.SyncInformer) cache.SharedIndexInformer { return informer135{i} }

func (i informer135) AddEventHandlerWithOptions(h cache.ResourceEventHandler, _ cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}

func (i informer135) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(h)
}
