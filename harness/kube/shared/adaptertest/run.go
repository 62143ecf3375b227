// Package adaptertest drives a kube adapter through the protocol in Go tests: trace events are
// written as proto3 JSON (the Kubernetes JSON of the objects), and the attempts and bindings a run
// reports come back as one line each, to compare with the exact outcomes a test expects.
package adaptertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/protocol"
)

// Step is the trace events of one instant.
type Step struct {
	At     time.Duration
	Events []*pb.ApiEvent
}

// Event parses one trace event from its proto3 JSON, e.g.
// `{"type": "ADDED", "persistentVolume": {"metadata": {"name": "pv"}, ...}}`.
func Event(t testing.TB, text string) *pb.ApiEvent {
	t.Helper()
	e := &pb.ApiEvent{}
	if err := protojson.Unmarshal([]byte(text), e); err != nil {
		t.Fatalf("test event %s: %v", text, err)
	}
	return e
}

// Start makes a run of the adapter with upstream's default profile and seed 1.
func Start(t testing.TB, factory protocol.Factory) protocol.Scheduler {
	t.Helper()
	s := factory()
	if _, err := s.Hello(&pb.Hello{ProtocolVersion: protocol.Version, Seed: 1, EpochUnixNs: 1_700_000_000_000_000_000}); err != nil {
		t.Fatalf("Hello: %v", err)
	}
	return s
}

// Replay runs steps through a fresh run of the adapter (Start) and finishes at the last step's
// instant plus `after`. It returns the attempts and bindings in the order reported, as Outcomes
// lines; a request the adapter fails fails the test.
func Replay(t testing.TB, factory protocol.Factory, steps []Step, after time.Duration) []string {
	t.Helper()
	s := Start(t, factory)
	var lines []string
	var index uint64
	end := time.Duration(0)
	for _, step := range steps {
		d, err := s.Events(&pb.Events{TimeNs: int64(step.At), Events: step.Events, FirstIndex: index})
		if err != nil {
			t.Fatalf("Events at %v: %v", step.At, err)
		}
		lines = append(lines, Outcomes(d)...)
		index += uint64(len(step.Events))
		end = step.At
	}
	d, err := s.Finish(&pb.Finish{EndNs: int64(end + after)})
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	return append(lines, Outcomes(d)...)
}

// Outcomes are the attempts and bindings of d, one line each:
//
//	1s attempt default/p #2 SCHEDULED node-b
//	1s binding default/p node-b
//	0s attempt default/q #1 UNSCHEDULABLE [VolumeBinding]: 0/2 nodes are available: ...
func Outcomes(d *pb.Decisions) []string {
	var out []string
	for _, rec := range d.GetRecords() {
		at := time.Duration(rec.GetTimeNs())
		switch body := rec.Body.(type) {
		case *pb.Record_Attempt:
			a := body.Attempt
			line := fmt.Sprintf("%v attempt %s #%d %s", at, a.GetPod(), a.GetAttempt(), a.GetResult())
			if a.GetResult() == pb.AttemptResult_SCHEDULED {
				line += " " + a.GetNode()
			} else {
				line += fmt.Sprintf(" [%s]: %s", strings.Join(a.GetUnschedulablePlugins(), " "), a.GetMessage())
			}
			if a.GetNominatedNode() != "" {
				line += " (nominated " + a.GetNominatedNode() + ")"
			}
			out = append(out, line)
		case *pb.Record_Binding:
			out = append(out, fmt.Sprintf("%v binding %s %s", at, body.Binding.GetPod(), body.Binding.GetNode()))
		}
	}
	return out
}

// Check compares outcome lines with the expected ones and reports every difference.
func Check(t testing.TB, got, want []string) {
	t.Helper()
	n := len(got)
	if len(want) > n {
		n = len(want)
	}
	for i := 0; i < n; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("outcome %d:\n got: %s\nwant: %s", i, g, w)
		}
	}
}
