// Package record captures a live cluster as the watch format that
// `schedcheck import --from watch` reads: one list of every kind at one
// resourceVersion, then one watch per kind from there, merged in
// resourceVersion order (the order the API server committed the writes),
// redacted, one JSON object per line.
package record

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// Options of a recording.
type Options struct {
	Kinds           []Kind
	KeepAnnotations map[string]bool
	// Now is the wall clock stamped on each event as its "time" (a recorder
	// talks to a real cluster; virtual time starts at the importer).
	Now func() time.Time
	// Logf reports reconnects and resyncs (stderr in the command).
	Logf func(format string, args ...interface{})
	// RetryDelay is the pause before a failed watch is opened again.
	RetryDelay time.Duration
}

// Stats counts what a recording wrote and met.
type Stats struct {
	Listed, Events, Resynced, Reconnects, RedactedFields int
}

// message is what a kind's watch goroutine tells the writer.
type message struct {
	kind      Kind
	eventType string // ADDED, MODIFIED, DELETED; "" for a bookmark or resync
	object    *unstructured.Unstructured
	rv        uint64
	resync    []unstructured.Unstructured // a relist after the watch expired
	reconnect bool
	opened    bool  // the kind's first watch is open
	err       error // fatal
}

// Record lists every kind at one resourceVersion, writes those objects as
// ADDED events, then watches every kind from that resourceVersion until ctx
// ends, writing each event once no slower stream can still deliver an earlier
// one (Merger). At the end it writes what is left, in order.
func Record(ctx context.Context, client dynamic.Interface, opts Options, w io.Writer) (Stats, error) {
	var st Stats
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...interface{}) {}
	}
	if opts.RetryDelay == 0 {
		opts.RetryDelay = time.Second
	}
	out := newWriter(w, opts)

	// The snapshot: every kind at the first list's resourceVersion.
	first, err := client.Resource(opts.Kinds[0].GVR).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return st, fmt.Errorf("listing %s: %w", opts.Kinds[0].Kind, err)
	}
	snapshot, err := parseRV(first.GetResourceVersion(), "the first list")
	if err != nil {
		return st, err
	}
	known := map[string]map[string]*unstructured.Unstructured{}
	var streams []string
	for _, k := range opts.Kinds {
		list, err := client.Resource(k.GVR).List(ctx, metav1.ListOptions{
			ResourceVersion:      strconv.FormatUint(snapshot, 10),
			ResourceVersionMatch: metav1.ResourceVersionMatchExact,
		})
		if err != nil {
			return st, fmt.Errorf("listing %s at resourceVersion %d: %w", k.Kind, snapshot, err)
		}
		streams = append(streams, k.Stream())
		known[k.Stream()] = map[string]*unstructured.Unstructured{}
		for i := range list.Items {
			obj := &list.Items[i]
			known[k.Stream()][objectKey(obj)] = obj
			if err := out.write(Entry{RV: snapshot, Arrived: opts.Now(), Type: "ADDED", Object: withKind(obj, k)}); err != nil {
				return st, err
			}
			st.Listed++
		}
	}

	watchCtx, stop := context.WithCancel(ctx)
	defer stop()
	msgs := make(chan message, 256)
	var wg sync.WaitGroup
	for _, k := range opts.Kinds {
		wg.Add(1)
		go func(k Kind) {
			defer wg.Done()
			watchKind(watchCtx, client, k, snapshot, opts.RetryDelay, msgs)
		}(k)
	}
	go func() { wg.Wait(); close(msgs) }()

	merger := NewMerger(streams, snapshot)
	opened := 0
	var fatal error
	for m := range msgs {
		if fatal != nil {
			continue // drain until every watch goroutine has ended
		}
		if m.opened {
			// Events that happen before every watch is open arrive late, in a burst, and
			// their times say so: a caller that starts a workload waits for this line.
			if opened++; opened == len(opts.Kinds) {
				opts.Logf("recorder: watching %d kinds from resourceVersion %d", opened, snapshot)
			}
			continue
		}
		if err := handle(m, merger, known, opts, &st); err != nil {
			fatal = err
			stop()
			continue
		}
		for _, e := range merger.Ready() {
			if err := out.write(e); err != nil {
				fatal = err
				stop()
				break
			}
		}
	}
	if fatal != nil {
		return st, fatal
	}
	for _, e := range merger.Drain() {
		if err := out.write(e); err != nil {
			return st, err
		}
	}
	st.Events = out.events - st.Listed
	st.RedactedFields = out.redacted
	return st, nil
}

// handle applies one message of a watch goroutine to the merger.
func handle(m message, merger *Merger, known map[string]map[string]*unstructured.Unstructured, opts Options, st *Stats) error {
	stream := m.kind.Stream()
	switch {
	case m.err != nil:
		return m.err
	case m.reconnect:
		st.Reconnects++
	case m.resync != nil:
		n := resync(m, merger, known[stream], opts.Now())
		st.Resynced += n
		opts.Logf("recorder: the watch of %s expired; relisted at resourceVersion %d: %d objects changed meanwhile, written at that resourceVersion", m.kind.Kind, m.rv, n)
	case m.eventType == "":
		merger.Advance(stream, m.rv) // bookmark
	default:
		key := objectKey(m.object)
		if m.eventType == "DELETED" {
			delete(known[stream], key)
		} else {
			known[stream][key] = m.object
		}
		merger.Add(stream, Entry{RV: m.rv, Arrived: opts.Now(), Type: m.eventType, Object: withKind(m.object, m.kind)})
	}
	return nil
}

// resync turns a relist into the events the expired watch missed: new objects
// ADDED, changed ones MODIFIED, vanished ones DELETED, all at the relist's
// resourceVersion (their exact order among other kinds' events is lost).
func resync(m message, merger *Merger, known map[string]*unstructured.Unstructured, now time.Time) int {
	stream := m.kind.Stream()
	changed := 0
	present := map[string]bool{}
	for i := range m.resync {
		obj := &m.resync[i]
		key := objectKey(obj)
		present[key] = true
		old, had := known[key]
		if had && old.GetResourceVersion() == obj.GetResourceVersion() {
			continue
		}
		typ := "MODIFIED"
		if !had {
			typ = "ADDED"
		}
		known[key] = obj
		merger.Add(stream, Entry{RV: m.rv, Arrived: now, Type: typ, Object: withKind(obj, m.kind)})
		changed++
	}
	var gone []string
	for key := range known {
		if !present[key] {
			gone = append(gone, key)
		}
	}
	sort.Strings(gone)
	for _, key := range gone {
		merger.Add(stream, Entry{RV: m.rv, Arrived: now, Type: "DELETED", Object: withKind(known[key], m.kind)})
		delete(known, key)
		changed++
	}
	merger.Advance(stream, m.rv)
	return changed
}

// watchKind watches one kind from `from`, reopening the watch where it ended
// (the API server closes watches after a timeout) and relisting when the
// resourceVersion has been compacted away (410 Gone).
func watchKind(ctx context.Context, client dynamic.Interface, k Kind, from uint64, retry time.Duration, msgs chan<- message) {
	send := func(m message) bool {
		m.kind = k
		select {
		case msgs <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	rv := from
	first := true
	for ctx.Err() == nil {
		expired := false
		wi, err := client.Resource(k.GVR).Watch(ctx, metav1.ListOptions{
			ResourceVersion:     strconv.FormatUint(rv, 10),
			AllowWatchBookmarks: true,
		})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if apierrors.IsGone(err) || apierrors.IsResourceExpired(err) {
				expired = true
			} else {
				sleep(ctx, retry)
			}
		} else {
			if first && !send(message{opened: true}) {
				wi.Stop()
				return
			}
			first = false
			expired = consume(ctx, wi, k, &rv, send)
			wi.Stop()
		}
		if ctx.Err() != nil {
			return
		}
		if expired {
			list, err := client.Resource(k.GVR).List(ctx, metav1.ListOptions{})
			if err != nil {
				sleep(ctx, retry)
				continue
			}
			next, err := parseRV(list.GetResourceVersion(), k.Kind+" relist")
			if err != nil {
				send(message{err: err})
				return
			}
			items := list.Items
			if items == nil {
				items = []unstructured.Unstructured{}
			}
			rv = next
			if !send(message{resync: items, rv: next}) {
				return
			}
		}
		if !send(message{reconnect: true}) {
			return
		}
	}
}

// consume reads one watch until it closes; it reports whether the watch
// ended because its resourceVersion expired.
func consume(ctx context.Context, wi watch.Interface, k Kind, rv *uint64, send func(message) bool) bool {
	for {
		var ev watch.Event
		var open bool
		select {
		case <-ctx.Done():
			return false
		case ev, open = <-wi.ResultChan():
		}
		if !open {
			return false
		}
		switch ev.Type {
		case watch.Error:
			err := apierrors.FromObject(ev.Object)
			return apierrors.IsGone(err) || apierrors.IsResourceExpired(err)
		case watch.Bookmark, watch.Added, watch.Modified, watch.Deleted:
			obj, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			next, err := parseRV(obj.GetResourceVersion(), k.Kind+" "+objectKey(obj))
			if err != nil {
				send(message{err: err})
				return false
			}
			*rv = next
			m := message{rv: next}
			if ev.Type != watch.Bookmark {
				m.eventType = string(ev.Type)
				m.object = obj
			}
			if !send(m) {
				return false
			}
		}
	}
}

func parseRV(s, what string) (uint64, error) {
	rv, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: resourceVersion %q is not a number: the recorder orders events by etcd's revisions, which an API server backed by etcd gives", what, s)
	}
	return rv, nil
}

func objectKey(obj *unstructured.Unstructured) string {
	return obj.GetNamespace() + "/" + obj.GetName()
}

// withKind returns the object's content with apiVersion and kind set (list
// items may lack them).
func withKind(obj *unstructured.Unstructured, k Kind) map[string]interface{} {
	c := obj.DeepCopy().Object
	c["apiVersion"] = k.GVR.GroupVersion().String()
	c["kind"] = k.Kind
	return c
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// writer writes entries as watch-format lines. Each line's "time" is its
// arrival, raised to the previous line's when it arrived earlier: lines are
// in resourceVersion order and the importer sorts stably by time, so times
// must not decrease.
type writer struct {
	w        io.Writer
	keep     map[string]bool
	last     time.Time
	events   int
	redacted int
}

func newWriter(w io.Writer, opts Options) *writer { return &writer{w: w, keep: opts.KeepAnnotations} }

type line struct {
	Type   string                 `json:"type"`
	Time   string                 `json:"time"`
	Object map[string]interface{} `json:"object"`
}

func (o *writer) write(e Entry) error {
	t := e.Arrived.UTC()
	if t.Before(o.last) {
		t = o.last
	}
	o.last = t
	o.redacted += Redact(e.Object, o.keep)
	b, err := json.Marshal(line{Type: e.Type, Time: t.Format(time.RFC3339Nano), Object: e.Object})
	if err != nil {
		return fmt.Errorf("encoding %s event: %w", e.Type, err)
	}
	if _, err := o.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the capture: %w", err)
	}
	o.events++
	return nil
}
