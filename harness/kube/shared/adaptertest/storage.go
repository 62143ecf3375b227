package adaptertest

import (
	"fmt"
	"testing"
	"time"

	"schedcheck.local/kube/common/pb"
	"schedcheck.local/kube/common/protocol"
)

// The storage scenarios: small traces whose outcome the volume plugins decide. Each adapter's
// tests replay them and compare the attempts and bindings with what upstream's code gives at its
// version. Zones are topology.kubernetes.io/zone; a "bound" claim is as the PV controller leaves
// it: spec.volumeName, phase Bound and the pv.kubernetes.io/bind-completed annotation (without it
// VolumeBinding counts the claim as unbound), its volume's claimRef naming it and phase Bound.

const zoneKey = "topology.kubernetes.io/zone"

// zoneNode is a node named "node-<zone>" in that zone.
func zoneNode(t testing.TB, zone string) *pb.ApiEvent {
	return Event(t, fmt.Sprintf(`{"type": "ADDED", "node": {"metadata": {"name": "node-%s",
		"labels": {"kubernetes.io/hostname": "node-%s", %q: %q}},
		"status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}}`, zone, zone, zoneKey, zone))
}

// claimPod is a pod using the named claims, on node `node` when it is not "".
func claimPod(t testing.TB, name, node string, claims ...string) *pb.ApiEvent {
	volumes := ""
	for i, c := range claims {
		if i > 0 {
			volumes += ", "
		}
		volumes += fmt.Sprintf(`{"name": "v%d", "persistentVolumeClaim": {"claimName": %q}}`, i, c)
	}
	return Event(t, fmt.Sprintf(`{"type": "ADDED", "pod": {"metadata": {"name": %q, "uid": %q},
		"spec": {"nodeName": %q, "containers": [{"name": "c"}], "volumes": [%s]}}}`, name, name, node, volumes))
}

// boundClaim is claim `name` bound to volume `volume` (storage class "").
func boundClaim(t testing.TB, typ, name, volume string) *pb.ApiEvent {
	return Event(t, fmt.Sprintf(`{"type": %q, "persistentVolumeClaim": {"metadata": {"name": %q,
		"uid": "uid-%s", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
		"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
			"volumeName": %q, "storageClassName": ""},
		"status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}}}}`,
		typ, name, name, volume))
}

// boundVolume is volume `name` bound to claim default/<claim>; `source` is the JSON of its
// volume source and node affinity fields (may be "").
func boundVolume(t testing.TB, name, claim, source string) *pb.ApiEvent {
	if source != "" {
		source = ", " + source
	}
	return Event(t, fmt.Sprintf(`{"type": "ADDED", "persistentVolume": {"metadata": {"name": %q},
		"spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "",
			"claimRef": {"kind": "PersistentVolumeClaim", "namespace": "default", "name": %q, "uid": "uid-%s"}%s},
		"status": {"phase": "Bound"}}}`, name, claim, claim, source))
}

// inZone is the node affinity of a volume reachable from zone `zone` only.
func inZone(zone string) string {
	return fmt.Sprintf(`"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
		{"key": %q, "operator": "In", "values": [%q]}]}]}}`, zoneKey, zone)
}

// BoundClaimScenario: nodes in zones a and b; volume pv-b (node affinity zone In [b]) bound to
// claim "data"; pod p1 uses the claim (VolumeBinding's Filter: only node-b). At 1s the claim is
// deleted and pod p2 asks for it.
func BoundClaimScenario(t testing.TB) []Step {
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"), zoneNode(t, "b"),
			boundVolume(t, "pv-b", "data", inZone("b")),
			boundClaim(t, "ADDED", "data", "pv-b"),
			claimPod(t, "p1", "", "data"),
		}},
		{At: time.Second, Events: []*pb.ApiEvent{
			boundClaim(t, "DELETED", "data", "pv-b"),
			claimPod(t, "p2", "", "data"),
		}},
	}
}

// ImmediateClaimScenario: claim "pending" of class "fast" (volumeBindingMode absent: the API's
// default, Immediate) is unbound, so pod p cannot be scheduled (VolumeBinding's PreFilter). At 3s the PV controller's work arrives:
// volume pv-a (zone a) bound to the claim, then the claim's update to Bound. The pod is moved
// back by those events and goes to node-a, which needs the update to reach VolumeBinding's
// claim assume cache.
func ImmediateClaimScenario(t testing.TB) []Step {
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"), zoneNode(t, "b"),
			Event(t, `{"type": "ADDED", "storageClass": {"metadata": {"name": "fast"},
				"provisioner": "csi.example.com"}}`),
			Event(t, `{"type": "ADDED", "persistentVolumeClaim": {"metadata": {"name": "pending", "uid": "uid-pending"},
				"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
					"storageClassName": "fast"},
				"status": {"phase": "Pending"}}}`),
			claimPod(t, "p", "", "pending"),
		}},
		{At: 3 * time.Second, Events: []*pb.ApiEvent{
			boundVolume(t, "pv-a", "pending", inZone("a")),
			boundClaim(t, "MODIFIED", "pending", "pv-a"),
		}},
	}
}

// VolumeLimitScenario: node-a's CSINode allows one volume of driver csi.example.com; pod
// "running" (already on node-a) uses claim data-1 on CSI volume vol-1; pod p2 asks for claim
// data-2 on CSI volume vol-2 of the same driver (NodeVolumeLimits' Filter).
func VolumeLimitScenario(t testing.TB) []Step {
	csi := func(handle string) string {
		return fmt.Sprintf(`"csi": {"driver": "csi.example.com", "volumeHandle": %q}`, handle)
	}
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"),
			Event(t, `{"type": "ADDED", "csiNode": {"metadata": {"name": "node-a"},
				"spec": {"drivers": [{"name": "csi.example.com", "nodeID": "node-a", "allocatable": {"count": 1}}]}}}`),
			boundVolume(t, "vol-1", "data-1", csi("h1")),
			boundClaim(t, "ADDED", "data-1", "vol-1"),
			boundVolume(t, "vol-2", "data-2", csi("h2")),
			boundClaim(t, "ADDED", "data-2", "vol-2"),
			claimPod(t, "running", "node-a", "data-1"),
			claimPod(t, "p2", "", "data-2"),
		}},
	}
}

// waitClass is the WaitForFirstConsumer class "wait" of provisioner `provisioner`, its
// allowed topologies given as JSON (may be "").
func waitClass(t testing.TB, provisioner, topologies string) *pb.ApiEvent {
	if topologies != "" {
		topologies = ", " + topologies
	}
	return Event(t, fmt.Sprintf(`{"type": "ADDED", "storageClass": {"metadata": {"name": "wait"},
		"provisioner": %q, "volumeBindingMode": "WaitForFirstConsumer"%s}}`, provisioner, topologies))
}

// laterClaim is the unbound claim "later" of class "wait".
func laterClaim(t testing.TB) *pb.ApiEvent {
	return Event(t, `{"type": "ADDED", "persistentVolumeClaim": {"metadata": {"name": "later", "uid": "uid-later"},
		"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
			"storageClassName": "wait"},
		"status": {"phase": "Pending"}}}`)
}

// StaticBindingScenario: claim "later" of the WaitForFirstConsumer class "wait" (no
// provisioner) is unbound; the Available volume pv-b (zone b, class "wait") matches it.
// VolumeBinding's Filter keeps node-b and Reserve assumes the binding, so PreBind must write the
// volume's claimRef through the API and then wait for the PV controller, which the replay does
// not run.
func StaticBindingScenario(t testing.TB) []Step {
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"), zoneNode(t, "b"),
			waitClass(t, "kubernetes.io/no-provisioner", ""),
			Event(t, fmt.Sprintf(`{"type": "ADDED", "persistentVolume": {"metadata": {"name": "pv-b"},
				"spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
					"storageClassName": "wait", %s},
				"status": {"phase": "Available"}}}`, inZone("b"))),
			laterClaim(t),
			claimPod(t, "p", "", "later"),
		}},
	}
}

// ProvisioningScenario: claim "later" of the WaitForFirstConsumer class "wait" (provisioner
// csi.example.com, zone a only) is unbound and no volume exists. VolumeBinding's Filter keeps
// node-a for provisioning, so PreBind must write the claim's selected-node annotation through
// the API and then wait for the provisioner.
func ProvisioningScenario(t testing.TB) []Step {
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"), zoneNode(t, "b"),
			waitClass(t, "csi.example.com", fmt.Sprintf(`"allowedTopologies": [{"matchLabelExpressions": [
				{"key": %q, "values": ["a"]}]}]`, zoneKey)),
			laterClaim(t),
			claimPod(t, "p", "", "later"),
		}},
	}
}

// CapacityScenario: driver csi.example.com tracks storage capacity (its CSIDriver), and the
// only CSIStorageCapacity of class "wait" (zone b) has 512Mi, less than claim "later" asks: no
// node fits (VolumeBinding's Filter). At 3s the capacity grows to 10Gi; the pod is moved back and
// goes to node-b, where PreBind has to write the claim's selected-node annotation.
func CapacityScenario(t testing.TB) []Step {
	capacity := func(typ, quantity string) *pb.ApiEvent {
		return Event(t, fmt.Sprintf(`{"type": %q, "csiStorageCapacity": {"metadata": {"name": "cap-b"},
			"nodeTopology": {"matchLabels": {%q: "b"}}, "storageClassName": "wait", "capacity": %q}}`,
			typ, zoneKey, quantity))
	}
	return []Step{
		{At: 0, Events: []*pb.ApiEvent{
			zoneNode(t, "a"), zoneNode(t, "b"),
			Event(t, `{"type": "ADDED", "csiDriver": {"metadata": {"name": "csi.example.com"},
				"spec": {"storageCapacity": true}}}`),
			waitClass(t, "csi.example.com", ""),
			capacity("ADDED", "512Mi"),
			laterClaim(t),
			claimPod(t, "p", "", "later"),
		}},
		{At: 3 * time.Second, Events: []*pb.ApiEvent{capacity("MODIFIED", "10Gi")}},
	}
}

// CheckVolumeVersionRefused: a trace PersistentVolume whose resourceVersion is not a decimal
// integer is refused with an error naming the record, since VolumeBinding compares the versions
// of volumes and claims as integers.
func CheckVolumeVersionRefused(t *testing.T, factory protocol.Factory) {
	s := Start(t, factory)
	pv := Event(t, `{"type": "ADDED", "persistentVolume": {"metadata": {"name": "pv", "resourceVersion": "v7"}}}`)
	_, err := s.Events(&pb.Events{TimeNs: 0, Events: []*pb.ApiEvent{pv}, FirstIndex: 4})
	want := `trace record 4 (persistentVolume pv): metadata.resourceVersion "v7": VolumeBinding reads the versions of volumes and claims as decimal integers`
	if err == nil || err.Error() != want {
		t.Errorf("Events: got error %v, want %s", err, want)
	}
}
