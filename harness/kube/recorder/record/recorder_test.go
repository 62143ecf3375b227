package record

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

var (
	nodes = Kind{schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, "Node"}
	pods  = Kind{schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "Pod"}
)

func obj(kind, name, rv string) *unstructured.Unstructured {
	o := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "v1", "kind": kind}}
	o.SetName(name)
	o.SetResourceVersion(rv)
	if kind == "Pod" {
		o.SetNamespace("default")
		o.SetManagedFields(nil)
		o.Object["metadata"].(map[string]interface{})["managedFields"] = []interface{}{map[string]interface{}{"manager": "x"}}
	}
	return o
}

func list(rv string, items ...*unstructured.Unstructured) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]interface{}{"apiVersion": "v1", "kind": "List"}}
	l.SetResourceVersion(rv)
	for _, i := range items {
		l.Items = append(l.Items, *i)
	}
	return l
}

// syncBuffer lets the test read what Record writes from another goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A recording of two kinds: the snapshot at one resourceVersion, watch events
// arriving out of resourceVersion order across the two watches, a bookmark,
// and a pods watch that expires (410) and is relisted.
func TestRecordMergesByResourceVersionAndResyncs(t *testing.T) {
	client := fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{nodes.GVR: "NodeList", pods.GVR: "PodList"})
	podLists := []*unstructured.UnstructuredList{
		list("10", obj("Pod", "p", "8")),
		list("25", obj("Pod", "q", "22")), // the relist: p gone, q new
	}
	var listMu sync.Mutex
	client.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		listMu.Lock()
		defer listMu.Unlock()
		if a.GetResource().Resource == "nodes" {
			return true, list("10", obj("Node", "n1", "5")), nil
		}
		l := podLists[0]
		if len(podLists) > 1 {
			podLists = podLists[1:]
		}
		return true, l, nil
	})
	nodeW := watch.NewFakeWithChanSize(10, false)
	firstPodW := watch.NewFakeWithChanSize(10, false)
	podW := []*watch.FakeWatcher{firstPodW, watch.NewFakeWithChanSize(10, false)} // handed out in turn
	var watchOpts []string
	client.PrependWatchReactor("*", func(a clienttesting.Action) (bool, watch.Interface, error) {
		listMu.Lock()
		defer listMu.Unlock()
		rv := a.(clienttesting.WatchActionImpl).WatchRestrictions.ResourceVersion
		watchOpts = append(watchOpts, a.GetResource().Resource+"@"+rv)
		if a.GetResource().Resource == "nodes" {
			return true, nodeW, nil
		}
		w := podW[0]
		podW = podW[1:]
		return true, w, nil
	})

	// The wall clock runs backwards here: written times must still not decrease.
	clock := time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)
	var clockMu sync.Mutex
	resynced := make(chan struct{}, 1)
	opts := Options{
		Kinds: []Kind{nodes, pods},
		Now: func() time.Time {
			clockMu.Lock()
			defer clockMu.Unlock()
			clock = clock.Add(-time.Second)
			return clock
		},
		Logf: func(format string, args ...interface{}) {
			if strings.Contains(format, "relisted") {
				resynced <- struct{}{}
			}
		},
		RetryDelay: time.Millisecond,
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error)
	var st Stats
	go func() {
		var err error
		st, err = Record(ctx, client, opts, out)
		done <- err
	}()

	firstPodW.Modify(obj("Pod", "p", "14"))
	nodeW.Add(obj("Node", "n2", "12"))
	nodeW.Action(watch.Bookmark, obj("Node", "", "20"))
	// Both watches have passed 14 once p's update is written (12 goes before it).
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), `"resourceVersion":"14"`); {
		if time.Now().After(deadline) {
			t.Fatalf("p's update at 14 was not written; output so far:\n%s", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	firstPodW.Error(&apierrors.NewResourceExpired("too old").ErrStatus)
	select {
	case <-resynced:
	case <-time.After(10 * time.Second):
		t.Fatalf("no relist after the expired watch; output so far:\n%s", out.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Record: %v", err)
	}

	type line struct {
		Type   string `json:"type"`
		Time   string `json:"time"`
		Object struct {
			Kind     string                 `json:"kind"`
			Metadata map[string]interface{} `json:"metadata"`
		} `json:"object"`
	}
	var got []string
	last := ""
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e line
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if e.Time < last {
			t.Errorf("time %s after %s: times decrease", e.Time, last)
		}
		last = e.Time
		if _, ok := e.Object.Metadata["managedFields"]; ok {
			t.Errorf("managedFields not redacted: %s", l)
		}
		got = append(got, e.Type+" "+e.Object.Kind+" "+e.Object.Metadata["name"].(string)+" "+e.Object.Metadata["resourceVersion"].(string))
	}
	want := []string{
		"ADDED Node n1 5", "ADDED Pod p 8", // the snapshot at 10
		"ADDED Node n2 12", "MODIFIED Pod p 14", // resourceVersion order, not arrival
		"ADDED Pod q 22", "DELETED Pod p 14", // the relist at 25
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("recorded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st.Listed != 2 || st.Events != 4 || st.Resynced != 2 {
		t.Errorf("stats %+v, want 2 listed, 4 events, 2 resynced", st)
	}
	listMu.Lock()
	defer listMu.Unlock()
	if len(watchOpts) < 3 || watchOpts[0][len(watchOpts[0])-3:] != "@10" || !contains(watchOpts, "pods@25") {
		t.Errorf("watches opened %v: want every kind from the snapshot's 10 and pods again from the relist's 25", watchOpts)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
