// Added to k8s.io/kubernetes/pkg/scheduler/internal/heap by the schedcheck adapter build; not
// part of upstream.

package heap

// Under virtual time many pods share a priority and a queue timestamp, and upstream's binary heap
// would then pop them in an order that depends on the heap's shape. The replay conventions
// (docs/DEVIATIONS.md, "activeQ / backoffQ ties") break such ties by enqueue order instead; the
// patched Push records each key's enqueue number and the patched Less consults it.

var (
	schedcheckSequence = map[string]uint64{}
	schedcheckNext     uint64
)

func schedcheckNoteEnqueue(key string) {
	schedcheckNext++
	schedcheckSequence[key] = schedcheckNext
}

func schedcheckLess(less lessFunc, keyI, keyJ string, objI, objJ interface{}) bool {
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
