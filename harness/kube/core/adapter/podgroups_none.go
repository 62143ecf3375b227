//go:build !kube1_37

package adapter

import (
	v1 "k8s.io/api/core/v1"

	"k8s.io/kubernetes/pkg/scheduler/framework"
	"schedcheck.local/kube/common/pb"
)

// Before v1.37 the adapter feeds no pod groups (podgroups.go is v1.37's): Workload and PodGroup
// events are accepted and read by nothing, as they were before the core learnt them, and no
// binding cycle waits on Permit.

// genericWorkload is false: the minors before 1.37 are not driven with pod groups.
func genericWorkload() bool { return false }

// permitTimer and memberResult are v1.37's (podgroups.go); the fields of run keep their types.
type permitTimer struct{}

type memberResult struct{}

// groupObjects answers nothing: no PodGroup informer is fed.
type groupObjects struct{}

func (g *groupObjects) Apply(*pb.ApiEvent) error { return nil }

func (g *groupObjects) deliver() error { return nil }

func (r *run) setupGroups() { r.groups = &groupObjects{} }

func (r *run) nextPermitDeadline(t int64) int64 { return t }

func (r *run) firePermitTimeouts(int64) {}

func (r *run) runPermitted() {}

func (r *run) noteMemberResult(*framework.QueuedPodInfo) {}

func (r *run) heldMember(*v1.Pod) string { return "" }
