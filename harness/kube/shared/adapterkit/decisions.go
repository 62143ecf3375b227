package adapterkit

import (
	"fmt"
	"runtime/debug"
	"sort"

	v1 "k8s.io/api/core/v1"

	"schedcheck.local/kube/common/pb"
)

// Decisions collects what a run decided since its previous answer: records in the order they
// happened and the move requests the queue received.
type Decisions struct {
	records []*pb.Record
	moves   []*pb.MoveRequest
}

// Emit records an Attempt, QueueTransition or Binding made at virtual time t.
func (d *Decisions) Emit(t int64, body any) {
	rec := &pb.Record{TimeNs: t}
	switch b := body.(type) {
	case *pb.Attempt:
		rec.Body = &pb.Record_Attempt{Attempt: b}
	case *pb.QueueTransition:
		rec.Body = &pb.Record_Queue{Queue: b}
	case *pb.Binding:
		rec.Body = &pb.Record_Binding{Binding: b}
	}
	d.records = append(d.records, rec)
}

// Move records a MoveAllToActiveOrBackoffQueue with upstream's event label at virtual time t.
func (d *Decisions) Move(t int64, event string) {
	d.moves = append(d.moves, &pb.MoveRequest{TimeNs: t, Event: event})
}

// Take returns everything collected as one answer and starts afresh.
func (d *Decisions) Take() *pb.Decisions {
	out := &pb.Decisions{Records: d.records, MoveRequests: d.moves}
	d.records, d.moves = nil, nil
	return out
}

// PodKey is "namespace/name", the key decision records use.
func PodKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

// SortedCopy returns s sorted, leaving s as it is.
func SortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// KubernetesVersion is the k8s.io/kubernetes version linked into this binary.
func KubernetesVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/kubernetes" {
				return dep.Version
			}
		}
	}
	return "unknown"
}

// BuildName names the build in HelloAck.scheduler_version, which the decision log's `scheduler`
// label carries: the linked k8s.io/kubernetes version and the bridge it was built with (the
// adapter's minor), e.g. "v1.37.1 (bridge 1.37)". Every other Kubernetes module is at the version
// that tag's go.mod requires (harness/kube/build.sh).
//
// An adapter built from a local kubernetes checkout (build.sh --kube-src) is named by its source
// instead, e.g. "kube-src:/src/k at v1.37.2-3-gabc, tree hash 1f2e... (bridge 1.37)": its module
// version says nothing about the code in it.
func BuildName(bridge string) string {
	if BuildSource != "" {
		return fmt.Sprintf("%s (bridge %s)", BuildSource, bridge)
	}
	return fmt.Sprintf("%s (bridge %s)", KubernetesVersion(), bridge)
}

// BuildSource is set by build.sh --kube-src at link time (-ldflags -X): the checkout's directory,
// its detected version and the hash of its contents. Empty for a build of a published release.
var BuildSource string
