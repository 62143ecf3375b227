// Package vtime holds the replay conventions' internal instants
// (docs/FORMATS.md#replay-conventions, PROTOCOL.md):
// the backoff flush every second and the unschedulable-leftover flush every 30 seconds, both
// aligned to virtual t = 0.
package vtime

const (
	Second             int64 = 1_000_000_000
	BackoffFlushEvery        = Second
	LeftoverFlushEvery       = 30 * Second
)

// NextTick is the first flush tick after `after` (0 when after < 0: nothing has run yet).
func NextTick(after int64) int64 {
	if after < 0 {
		return 0
	}
	return (after/BackoffFlushEvery + 1) * BackoffFlushEvery
}

// IsBackoffTick and IsLeftoverTick say which flushes run at instant t.
func IsBackoffTick(t int64) bool  { return t%BackoffFlushEvery == 0 }
func IsLeftoverTick(t int64) bool { return t%LeftoverFlushEvery == 0 }
