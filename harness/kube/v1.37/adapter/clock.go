package adapter

import (
	"time"

	"k8s.io/utils/clock"
)

// current is the run in progress (the protocol runs one at a time).
var current *run

// virtualClock reads the virtual time of the run in progress.
type virtualClock struct{}

func (virtualClock) Now() time.Time {
	if current == nil || current.clock == nil {
		return time.Unix(0, 0).UTC()
	}
	return current.clock.Now()
}

func (c virtualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// VirtualClock is the clock out-of-tree plugins should read instead of time.Now: the trace's
// virtual time (Hello.epoch_unix_ns + the instant being run).
func VirtualClock() clock.PassiveClock { return virtualClock{} }
