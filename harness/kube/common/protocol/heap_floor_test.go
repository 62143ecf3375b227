package protocol

import (
	"runtime"
	"testing"
)

var sink [][]byte

// collections counts the garbage collections while 256 MiB are allocated in 64 KiB pieces, few
// kept alive at a time (a small trace's replay, in the large).
func collections() uint32 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 4096; i++ {
		sink = append(sink, make([]byte, 64<<10))
		if len(sink) > 16 {
			sink = sink[:0]
		}
	}
	runtime.ReadMemStats(&after)
	return after.NumGC - before.NumGC
}

func TestHeapFloorMakesCollectionsRare(t *testing.T) {
	without := collections()
	ballast := ballastFor(func(string) string { return "" })
	with := collections()
	runtime.KeepAlive(ballast)
	// Without the floor the 4 MiB minimum heap collects every few MiB: dozens of times; with it,
	// 256 MiB of garbage fit in one or two targets of at least 256 MiB.
	if len(ballast) != heapFloor || without < 20 || with > 3 {
		t.Errorf("collections: %d without the floor, %d with it (ballast %d bytes)", without, with, len(ballast))
	}
}

func TestHeapFloorIsOffWhenTheEnvironmentTunesTheCollector(t *testing.T) {
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		env := func(k string) string {
			if k == name {
				return "200"
			}
			return ""
		}
		if b := ballastFor(env); b != nil {
			t.Errorf("%s set: a ballast of %d bytes", name, len(b))
		}
	}
}
