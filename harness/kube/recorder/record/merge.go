package record

import (
	"container/heap"
	"time"
)

// Entry is one line of the capture: a watch event (or a listed object, as an
// ADDED event) waiting for its place in resourceVersion order.
type Entry struct {
	RV      uint64    // the object's resourceVersion (a list's for listed objects)
	Seq     uint64    // arrival order, breaking ties between equal RVs
	Arrived time.Time // when the recorder received it
	Type    string    // ADDED, MODIFIED or DELETED
	Object  map[string]interface{}
}

// Merger orders the events of several watch streams by resourceVersion.
//
// All kinds share etcd's revision counter, so resourceVersions order events
// of different kinds as the API server committed them, while their arrival
// across separate connections can be out of that order. Each stream delivers
// in increasing resourceVersion, so an event is safe to write once every
// stream has reported (an event or a bookmark) a resourceVersion at least as
// large: nothing earlier can still arrive. The watermark of a stream is the
// largest resourceVersion it reported.
type Merger struct {
	pending entryHeap
	marks   map[string]uint64
	seq     uint64
}

// NewMerger returns a Merger over the named streams, each starting at `from`
// (the resourceVersion their watches start from).
func NewMerger(streams []string, from uint64) *Merger {
	m := &Merger{marks: map[string]uint64{}}
	for _, s := range streams {
		m.marks[s] = from
	}
	return m
}

// Add queues an event of `stream` and advances its watermark to the event's RV.
func (m *Merger) Add(stream string, e Entry) {
	m.seq++
	e.Seq = m.seq
	heap.Push(&m.pending, e)
	m.Advance(stream, e.RV)
}

// Advance moves a stream's watermark (a bookmark, or a relist's RV). A
// watermark never moves back.
func (m *Merger) Advance(stream string, rv uint64) {
	if rv > m.marks[stream] {
		m.marks[stream] = rv
	}
}

// Ready removes and returns, in RV order, the events no stream can precede.
func (m *Merger) Ready() []Entry {
	low := ^uint64(0)
	for _, mark := range m.marks {
		if mark < low {
			low = mark
		}
	}
	var out []Entry
	for len(m.pending) > 0 && m.pending[0].RV <= low {
		out = append(out, heap.Pop(&m.pending).(Entry))
	}
	return out
}

// Drain removes and returns every queued event in RV order (at the end of a
// recording, when no stream will report anything more).
func (m *Merger) Drain() []Entry {
	var out []Entry
	for len(m.pending) > 0 {
		out = append(out, heap.Pop(&m.pending).(Entry))
	}
	return out
}

// Pending is the number of events waiting for a slower stream.
func (m *Merger) Pending() int { return len(m.pending) }

type entryHeap []Entry

func (h entryHeap) Len() int { return len(h) }
func (h entryHeap) Less(i, j int) bool {
	if h[i].RV != h[j].RV {
		return h[i].RV < h[j].RV
	}
	return h[i].Seq < h[j].Seq
}
func (h entryHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x interface{}) { *h = append(*h, x.(Entry)) }
func (h *entryHeap) Pop() interface{} {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
