// Added to k8s.io/kubernetes/pkg/scheduler/backend/heap by the schedcheck adapter build; not
// part of upstream.

package heap

// Under virtual time many pods share a priority and a queue timestamp (and a backoff expiry),
// and upstream's binary heap would then pop them in an order that depends on the heap's shape.
// The replay conventions (docs/DEVIATIONS.md, "activeQ / backoffQ ties") break such ties by
// enqueue order instead: the patched Push numbers each key when it is added (not when an
// existing item is updated in place) and the patched Less consults the numbers.

var (
	schedcheckSequence = map[string]uint64{}
	schedcheckNext     uint64
)

func schedcheckNoteEnqueue(key string) {
	schedcheckNext++
	schedcheckSequence[key] = schedcheckNext
}

func schedcheckLess[T any](less LessFunc[T], keyI, keyJ string, objI, objJ T) bool {
	if less(objI, objJ) {
		return true
	}
	if less(objJ, objI) {
		return false
	}
	return schedcheckSequence[keyI] < schedcheckSequence[keyJ]
}

// SchedcheckResetSequence forgets every enqueue number (a new replay run).
func SchedcheckResetSequence() {
	schedcheckSequence = map[string]uint64{}
	schedcheckNext = 0
}
