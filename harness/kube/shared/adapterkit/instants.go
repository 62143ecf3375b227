package adapterkit

import "schedcheck.local/kube/common/vtime"

// NextInternalInstant is the first instant after `last` the adapter runs on its own (the replay
// conventions, docs/FORMATS.md): a flush tick, the volume controllers' answers due (`volumes` nil:
// no model), or a waiting binding cycle's next look.
func NextInternalInstant(last int64, volumes *VolumeControllers, bindings *Bindings) int64 {
	t := vtime.NextTick(last)
	if due, ok := bindings.NextDue(); ok && due < t {
		t = due
	}
	if volumes != nil {
		if due, ok := volumes.NextAnswers(); ok && due < t {
			t = due
		}
	}
	return t
}

// RunDueBeforeFlushes runs what is due at `now` after the trace's events and before the flushes:
// the volume controllers' answers, then the binding cycles that look again.
func RunDueBeforeFlushes(now int64, volumes *VolumeControllers, bindings *Bindings) {
	if volumes != nil {
		volumes.AnswerDue(now)
	}
	bindings.RunDue(now)
}
