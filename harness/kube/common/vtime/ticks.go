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

// TicksBetween lists the flush ticks t with after < t < before, in order. after < 0 means
// "nothing has run yet", so a tick at 0 is included.
func TicksBetween(after, before int64) []int64 {
	var out []int64
	next := int64(0)
	if after >= 0 {
		next = (after/BackoffFlushEvery + 1) * BackoffFlushEvery
	}
	for t := next; t < before; t += BackoffFlushEvery {
		out = append(out, t)
	}
	return out
}

// IsBackoffTick and IsLeftoverTick say which flushes run at instant t.
func IsBackoffTick(t int64) bool  { return t%BackoffFlushEvery == 0 }
func IsLeftoverTick(t int64) bool { return t%LeftoverFlushEvery == 0 }
