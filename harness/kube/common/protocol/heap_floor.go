package protocol

import (
	"os"
	"runtime"
)

// heapFloor is the least heap the garbage collector lets an adapter grow to between collections.
//
// Go collects when the heap reaches twice what survived the last collection, but never below 4
// MiB. A replay of a small trace keeps a few MiB alive while upstream's scheduling cycles allocate
// fast, so with the defaults the collector ran every few cycles and took as much wall time as the
// scheduling itself on 2 cores (a campaign of 5-24-node traces went 1.5-2.5x faster with the
// collections made rarer). A running kube-scheduler holds a whole cluster in its informers and
// never sees this. The floor is an allocated, never-touched byte slice (a "ballast"): it counts
// as live heap, so the collector's target is at least twice its size, but its pages are never
// written, so the process's resident memory does not grow. Above a few hundred MiB of live heap
// (large replays) it changes the target by little. GOGC or GOMEMLIMIT in the environment turn it
// off: the user then tunes the collector.
const heapFloor = 128 << 20

// keepHeapFloor allocates the ballast unless the collector is tuned from the environment; the
// returned function keeps it alive until it is called.
func keepHeapFloor() func() {
	ballast := ballastFor(os.Getenv)
	return func() { runtime.KeepAlive(ballast) }
}

// ballastFor is the ballast, or nil when getenv has GOGC or GOMEMLIMIT.
func ballastFor(getenv func(string) string) []byte {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return nil
	}
	return make([]byte, heapFloor)
}
