package adapterkit

import (
	"sync/atomic"
	"time"

	"k8s.io/utils/clock"
)

// current is the clock of the run in progress (the protocol runs one at a time).
var current atomic.Pointer[clock.PassiveClock]

// SetVirtualClock makes c the clock VirtualClock reads (the run's fake clock).
func SetVirtualClock(c clock.PassiveClock) { current.Store(&c) }

// virtualClock reads the virtual time of the run in progress.
type virtualClock struct{}

func (virtualClock) Now() time.Time {
	if c := current.Load(); c != nil {
		return (*c).Now()
	}
	return time.Unix(0, 0).UTC()
}

func (c virtualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// VirtualClock is the clock out-of-tree plugins should read instead of time.Now: the trace's
// virtual time (Hello.epoch_unix_ns + the instant being run).
func VirtualClock() clock.PassiveClock { return virtualClock{} }
