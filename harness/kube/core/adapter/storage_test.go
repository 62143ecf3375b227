package adapter

import (
	"testing"
	"time"

	"k8s.io/kubernetes/pkg/scheduler"

	"schedcheck.local/kube/shared/adaptertest"
)

// draPostFilter is DynamicResources' PostFilter part of a FitError message at the linked minor:
// before v1.37 it says it had no claim to deallocate, v1.37 leaves it out.
var draPostFilter = map[string]string{"1.35": "no new claims to deallocate, ", "1.36": "no new claims to deallocate, "}[scheduler.SchedcheckMinor]

// TestStorageScenarios replays the storage scenarios (harness/kube/shared/adaptertest/storage.go)
// through the linked kube-scheduler (v1.37.2, v1.36.4, ...) and compares every attempt and binding with upstream's outcome,
// messages included. A claim that is not bound yet fails PreBind at once: the fake API server
// refuses VolumeBinding's writes (adapterkit.RefuseVolumeWrites); the pod backs off and retries
// (at 2 s, 5 s, ...).
// v1.37's DynamicResources PostFilter fails with "not found" (its PreFilter state) when an
// earlier PreFilter rejected the pod, and that error replaces the preemption part of the message.
func TestStorageScenarios(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps func(testing.TB) []adaptertest.Step
		after time.Duration
		want  []string
	}{{
		name:  "a bound claim's volume affinity picks the zone; a deleted claim is missing",
		steps: adaptertest.BoundClaimScenario,
		want: []string{
			"0s attempt default/p1 #1 SCHEDULED node-b",
			"0s binding default/p1 node-b",
			`1s attempt default/p2 #1 UNSCHEDULABLE [VolumeRestrictions]: 0/2 nodes are available: persistentvolumeclaim "data" not found. not found`,
		},
	}, {
		name:  "an unbound Immediate claim blocks the pod until the claim is bound",
		steps: adaptertest.ImmediateClaimScenario,
		want: []string{
			"0s attempt default/p #1 UNSCHEDULABLE [VolumeBinding]: 0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found",
			"3s attempt default/p #2 SCHEDULED node-a",
			"3s binding default/p node-a",
		},
	}, {
		name:  "a CSINode's allocatable count limits the node's volumes",
		steps: adaptertest.VolumeLimitScenario,
		want: []string{
			"0s attempt default/p2 #1 UNSCHEDULABLE [NodeVolumeLimits]: 0/1 nodes are available: 1 node(s) exceed max volume count. " + draPostFilter + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
		},
	}, {
		name:  "static binding of a WaitForFirstConsumer claim fails PreBind",
		steps: adaptertest.StaticBindingScenario,
		after: 3 * time.Second,
		want: []string{
			"0s attempt default/p #1 SCHEDULED node-b",
			`0s attempt default/p #1 ERROR []: running PreBind plugin "VolumeBinding": persistentvolumes "pv-b" not found`,
			"2s attempt default/p #2 SCHEDULED node-b",
			`2s attempt default/p #2 ERROR []: running PreBind plugin "VolumeBinding": persistentvolumes "pv-b" not found`,
		},
	}, {
		name:  "provisioning a WaitForFirstConsumer claim fails PreBind",
		steps: adaptertest.ProvisioningScenario,
		after: 2 * time.Second,
		want: []string{
			"0s attempt default/p #1 SCHEDULED node-a",
			`0s attempt default/p #1 ERROR []: running PreBind plugin "VolumeBinding": persistentvolumeclaims "later" not found`,
			"2s attempt default/p #2 SCHEDULED node-a",
			`2s attempt default/p #2 ERROR []: running PreBind plugin "VolumeBinding": persistentvolumeclaims "later" not found`,
		},
	}, {
		name:  "CSIStorageCapacity of a capacity-tracking CSIDriver filters nodes",
		steps: adaptertest.CapacityScenario,
		want: []string{
			"0s attempt default/p #1 UNSCHEDULABLE [VolumeBinding]: 0/2 nodes are available: 2 node(s) did not have enough free storage. " + draPostFilter + "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
			"3s attempt default/p #2 SCHEDULED node-b",
			`3s attempt default/p #2 ERROR []: running PreBind plugin "VolumeBinding": persistentvolumeclaims "later" not found`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			adaptertest.Check(t, adaptertest.Replay(t, NewFactory(), tc.steps(t), tc.after), tc.want)
		})
	}
}

// TestVolumeVersionMustBeInteger: VolumeBinding compares the resourceVersions of volumes and
// claims as integers, so a trace that gives another one is refused.
func TestVolumeVersionMustBeInteger(t *testing.T) {
	adaptertest.CheckVolumeVersionRefused(t, NewFactory())
}
