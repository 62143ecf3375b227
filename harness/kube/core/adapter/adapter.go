// Package adapter is the adapter core: it puts the real kube-scheduler (k8s.io/kubernetes/pkg/scheduler,
// linked at the tag the minor's module pins, v1.36 or v1.37) behind schedcheck's external-scheduler
// protocol (harness/protocol/PROTOCOL.md). Upstream code decides everything: framework, default
// plugins, scheduling queue, cache and preemption. The adapter only feeds informer handlers from
// the trace, sets a fake clock per instant, runs the flushes and scheduling cycles of the replay
// conventions, and reports what happened.
//
// It compiles only against a patched tree (harness/kube/README.md): what differs between minors
// is in each minor's bridge (v<minor>/_overlay, exported by package scheduler as Schedcheck*:
// the pop, the queue's sub-queues and flushes, the minor's name), and each minor's module keeps a
// thin package `adapter` (v1.36/adapter, v1.37/adapter) that plugin authors import:
//
//	func main() { adapter.Main(adapter.WithPlugin("MyPlugin", myplugin.New)) }
//
// built with harness/kube/build.sh (see harness/kube/README.md).
package adapter

import (
	"fmt"
	"os"

	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"k8s.io/utils/clock"

	"schedcheck.local/kube/common/protocol"
	"schedcheck.local/kube/shared/adapterkit"
)

// Option configures the adapter.
type Option func(*options)

type options struct {
	registry  frameworkruntime.Registry
	name      string
	reservoir bool
}

// WithPlugin registers an out-of-tree plugin, as kube-scheduler's app.WithPlugin does. Enable it
// by name in the KubeSchedulerConfiguration the replay is given.
func WithPlugin(name string, factory frameworkruntime.PluginFactory) Option {
	return func(o *options) { o.registry[name] = factory }
}

// WithName sets the scheduler name the adapter reports in HelloAck (default "kube-scheduler").
func WithName(name string) Option {
	return func(o *options) { o.name = name }
}

// WithReservoirTieBreak makes the score phase choose among equal top scores by v1.27's reservoir
// sampling with the seeded generator (the reference's choice) instead of upstream's heap
// order (harness/kube/v1.37/README.md, "Known differences"). The environment variable
// SCHEDCHECK_KUBE_TIEBREAK=reservoir does the same for any adapter binary.
func WithReservoirTieBreak() Option {
	return func(o *options) { o.reservoir = true }
}

// NewFactory returns the protocol.Factory of a new run per Hello.
func NewFactory(opts ...Option) protocol.Factory {
	o := options{registry: frameworkruntime.Registry{}, name: "kube-scheduler", reservoir: os.Getenv("SCHEDCHECK_KUBE_TIEBREAK") == "reservoir"}
	for _, opt := range opts {
		opt(&o)
	}
	return func() protocol.Scheduler { return newRun(o) }
}

// VirtualClock is the clock out-of-tree plugins should read instead of time.Now: the trace's
// virtual time (Hello.epoch_unix_ns + the instant being run).
func VirtualClock() clock.PassiveClock { return adapterkit.VirtualClock() }

// Main serves the protocol on stdin/stdout until stdin ends, then exits; it exits with status 1
// after reporting an error.
func Main(opts ...Option) {
	adapterkit.QuietLogs()
	if err := protocol.Serve(os.Stdin, os.Stdout, NewFactory(opts...)); err != nil {
		fmt.Fprintln(os.Stderr, "kube adapter:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
