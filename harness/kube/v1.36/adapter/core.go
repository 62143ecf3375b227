// Package adapter is the kube-scheduler v1.36 adapter: the adapter core (harness/kube/core/adapter,
// shared by the minors from 1.35 on) compiled against k8s.io/kubernetes v1.36 with the bridge of
// v1.36/patches.json. Everything a minor does differently from another lives in that bridge; this
// package only keeps the import path plugin authors build against
// (`schedcheck.local/kube136/adapter`, harness/kube/README.md "Your own plugins").
package adapter

import (
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/utils/clock"

	"schedcheck.local/kube/common/protocol"
	core "schedcheck.local/kube/core/adapter"
)

// Option configures the adapter (core.Option).
type Option = core.Option

// WithPlugin registers an out-of-tree plugin, as kube-scheduler's app.WithPlugin does.
func WithPlugin(name string, factory frameworkruntime.PluginFactory) Option {
	return core.WithPlugin(name, factory)
}

// WithName sets the scheduler name the adapter reports in HelloAck.
func WithName(name string) Option { return core.WithName(name) }

// WithReservoirTieBreak: equal top scores chosen as v1.27's selectHost did (core.WithReservoirTieBreak).
func WithReservoirTieBreak() Option { return core.WithReservoirTieBreak() }

// NewFactory returns the protocol.Factory of a new run per Hello.
func NewFactory(opts ...Option) protocol.Factory { return core.NewFactory(opts...) }

// VirtualClock is the clock out-of-tree plugins read instead of time.Now.
func VirtualClock() clock.PassiveClock { return core.VirtualClock() }

// Main serves the protocol on stdin/stdout until stdin ends.
func Main(opts ...Option) { core.Main(opts...) }
