#!/usr/bin/env bash
# Dynamic Resource Allocation through the real kube-scheduler v1.37.2 (`--candidate kube:1.37`):
# the hand-written traces of testdata/dra/ replay through upstream's DynamicResources plugin, its
# structured allocator, the resource slice tracker and the fake API server's claim writes
# (harness/kube/v1.37/README.md, "DRA objects"). Each trace is replayed twice and the two decision
# logs must be byte-identical; each expectation names the upstream test or code it follows
# (`source:`, paths in k8s.io/kubernetes v1.37.2 or k8s.io/dynamic-resource-allocation v0.37.2).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
data="$root/harness/kube/testdata/dra"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_KUBE_LOG="$out/kube.log"
fail() { echo "FAIL: $*" >&2; exit 1; }

# replay NAME [ARGS]: the trace through kube:1.37 twice; $log is the first decision log.
replay() {
  local name=$1
  shift
  for run in 1 2; do
    "$sc" replay "$data/$name.jsonl" --candidate kube:1.37 --horizon 60 -q "$@" \
      --jsonl "$out/$name.$run.jsonl" || fail "$name: replay exited $?"
  done
  cmp -s "$out/$name.1.jsonl" "$out/$name.2.jsonl" ||
    fail "$name: two replays differ: $(diff "$out/$name.1.jsonl" "$out/$name.2.jsonl" | head -5)"
  log="$out/$name.1.jsonl"
}
has() {  # a decision-log line containing every given fragment, in this order
  local pattern="" f
  for f in "$@"; do pattern+="$(printf '%s' "$f" | sed 's/[][\.*^$/]/\\&/g').*"; done
  grep -q -- "$pattern" "$log" || fail "$name: no record with $* in: $(grep -v '"queue"' "$log")"
}
hasnt() {
  if grep -qF -- "$1" "$log"; then fail "$name: unexpected $1 in: $(grep -v '"queue"' "$log")"; fi
}
# The attempt message of a claim no node can allocate. source: dynamicresources.go Filter,
# statusUnschedulable(logger, "cannot allocate all claims", ...); dynamicresources_test.go
# "exhausted-resources-in-informer-cache" (UnschedulableAndUnresolvable, so preemption finds no
# candidate: framework/preemption/preemption.go, "Preemption is not helpful for scheduling").
nofit='"result":"Unschedulable","unschedulablePlugins":["DynamicResources"],"message":"0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."'

# A GPU published for one node only, then a second one. source: structured allocator test "other-node" (a slice's
# nodeName limits its devices to that node; allocatortesting/allocator_testing.go) and
# dynamicresources_test.go "exhausted-resources-in-flight-claim" (an allocated device is not given
# twice).
name=gpu-one-node; replay $name
has '"t":1,' '"pod":"default/a"' '"result":"Scheduled","node":"n2"'
has '"type":"bind","pod":"default/a","node":"n2"'
has '"t":2,' '"pod":"default/b"' "$nofit"
# The slice republished with a second GPU: a ResourceSlice update requeues b, which gets it.
# source: dynamicresources.go EventsToRegister (ResourceSlice Add|Update, no hint: Queue).
has '"t":3,' '"pod":"default/b","from":"unschedulable","to":"backoff","cause":"resource.k8s.io/ResourceSliceUpdate"'
has '"t":3,' '"pod":"default/b","attempt":2,"result":"Scheduled","node":"n2"'

# A DeviceClass selecting by an attribute in CEL. source: the allocator evaluates the class's
# selectors on each device (structured/internal/incubating/allocator_incubating.go,
# selectorsMatch; the CEL environment's device.attributes["<domain>"].<name>,
# k8s.io/dynamic-resource-allocation/cel/compile.go).
name=cel-selector; replay $name
has '"pod":"default/a"' '"result":"Scheduled","node":"n2"'
has '"pod":"default/b"' "$nofit"

# Two devices asked of nodes with one each. source: allocator test "not-enough-suitable-devices".
name=fits-nowhere; replay $name
has '"pod":"default/big"' "$nofit"
hasnt '"type":"bind"'

# A claim shared by pods: the second pod uses the allocation of the first (its node selector) and
# is added to reservedFor. source: dynamicresources.go PreFilter (an allocated claim's
# nodeSelector restricts the nodes) and bindClaim (reservedFor appended); dynamicresources_test.go
# "reserved-okay". The trace's later update of the claim (the captured cluster's allocation on n2)
# does not replace the replay's: pod d joins a and b on n1; once the pods are gone, the trace's
# deallocation (the ResourceClaim controller's) applies and frees the GPU for pod e (the adapter's
# rule, v1.37/README.md).
name=shared-claim; replay $name
has '"t":1,' '"pod":"default/a"' '"result":"Scheduled","node":"n1"'
has '"t":2,' '"pod":"default/b"' '"result":"Scheduled","node":"n1","ties":["n1"]'
has '"t":3,' '"pod":"default/c"' '"result":"Scheduled","node":"n2","ties":["n2"]'
has '"t":5,' '"pod":"default/d"' '"result":"Scheduled","node":"n1","ties":["n1"]'
has '"t":7,' '"pod":"default/e"' '"result":"Scheduled","node":"n1","ties":["n1"]'

# Claim templates without the ResourceClaim controller: a pod whose status names no claim waits in
# PreEnqueue, never attempted. source: dynamicresources_test.go "missing-claim" (PreEnqueue:
# `pod "default/my-pod": ResourceClaim not created yet`); once the trace carries the controller's
# writes (the claim owned by the pod, status.resourceClaimStatuses), the pod update requeues it:
# source: dynamicresources.go isSchedulableAfterTargetPodUpdate registered for UpdatePodGeneratedResourceClaim, framework/events.go
# extractPodGeneratedResourceClaimChange; "claim-template" (the owned claim is used).
name=claim-template; replay $name
has '"t":1,' '"pod":"default/waiting","from":"none","to":"unschedulable"'
has '"t":2,' '"pod":"default/made"' '"result":"Scheduled","node":"n1"'
has '"t":3,' '"pod":"default/waiting","from":"unschedulable","to":"active","cause":"TargetPodUpdatePodGeneratedResourceClaim"'
has '"t":3,' '"pod":"default/waiting"' '"result":"Scheduled","node":"n1"'
[ "$(grep -c '"type":"attempt","pod":"default/waiting"' "$log")" = 1 ] ||
  fail "claim-template: waiting was attempted before its claim existed: $(cat "$log")"

# Device taints. source: allocator tests "tainted-two-devices" (a NoSchedule taint without a
# toleration: no allocation) and "tainted-two-devices-tolerated"; dynamicresources_test.go
# "tainted-device-enabled". A DeviceTaintRule taints the devices it selects through the resource
# slice tracker, and its deletion is a ResourceSlice update that requeues the pod: source:
# resourceslice/tracker/tracker.go (applyPatches, deviceTaintDelete, pushEvent).
name=device-taints; replay $name
has '"t":1,' '"pod":"default/intolerant"' "$nofit"
has '"t":2,' '"pod":"default/tolerant"' '"result":"Scheduled","node":"n1"'
has '"t":3,' '"pod":"default/late"' "$nofit"
has '"t":5,' '"pod":"default/late","from":"unschedulable","to":"active","cause":"resource.k8s.io/ResourceSliceUpdate"'
has '"t":5,' '"pod":"default/late"' '"result":"Scheduled","node":"n2"'
# Binding conditions in virtual time: PreBind looks at the device's conditions once (the adapter's
# stand-in for upstream's poll, v1.37/README.md); unmet is upstream's timeout error and the pod
# retries after its backoff; once the trace carries the driver's condition the pod binds.
# source: dynamicresources_test.go "prebind-fail-with-binding-timeout" (ErrDeviceBindingTimeout,
# "device binding timeout") and "bound-claim-with-succeeded-binding-conditions".
name=binding-conditions; replay $name
has '"t":1,' '"pod":"default/p","attempt":1,"result":"Error"' 'PreBind plugin' 'DynamicResources' ': device binding timeout: context deadline exceeded'
[ "$(grep '"type":"bind"' "$log" | head -1 | sed 's/.*"t":\([0-9.]*\),.*/\1/')" -gt 4 ] ||
  fail "binding-conditions: bound before the trace met the condition: $(cat "$log")"
has '"type":"bind","pod":"default/p","node":"n1"'

# PostFilter deallocates an allocated claim reserved for nobody when the pod fits nowhere with it;
# the status update reaches the claim informer after the failure handling and its event requeues
# the pod, which then gets the other GPU. source: dynamicresources_test.go "wrong-topology"
# (filter "resourceclaim not available on the node", postfilter "deallocation of ResourceClaim
# completed" with the allocation cleared); dynamicresources.go deallocateOrDeletePodClaims.
name=postfilter-deallocation; replay $name
has '"t":1,' '"pod":"default/p","attempt":1,"result":"Unschedulable"' '1 resourceclaim not available on the node. deallocation of ResourceClaim completed'
has '"pod":"default/p","from":"unschedulable","to":"backoff","cause":"resource.k8s.io/ResourceClaimUpdate"'
has '"pod":"default/p","attempt":2,"result":"Scheduled","node":"n2"'

# Partitionable devices (shared counters) and a prioritized list (firstAvailable). source:
# allocator tests "partitionable-devices-with-attribute-selector" (partitions consume the counter
# set; one whose counters are used up is not allocatable) and "prioritized-list-first-unavailable"
# (the second alternative when the first has no device); dynamicresources_test.go
# "single-claim-prioritized-list-scoring" (computeScore: 8 - the index
# of the allocated subrequest, normalized to 100 and 87, times the weight 2).
name=partitions-prioritized; replay $name --scores 2
has '"t":1,' '"pod":"default/half-1"' '"result":"Scheduled","node":"n1"'
has '"t":2,' '"pod":"default/half-2"' '"result":"Scheduled","node":"n1"'
has '"t":3,' '"pod":"default/whole"' "$nofit"
has '"t":4,' '"pod":"default/pref-1"' '"result":"Scheduled","node":"n2"'
has '"t":5,' '"pod":"default/whole","attempt":2' "$nofit"
has '"t":6,' '"pod":"default/pref-2"' '"node":"n1","ties":["n1"]' '{"node":"n1",' '"DynamicResources":200' '{"node":"n2",' '"DynamicResources":174'

# Consumable capacity: a device that allows multiple allocations is shared by claims until its
# capacity is consumed. source: allocator tests
# "consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining" and
# "consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request".
name=consumable-capacity; replay $name
has '"t":1,' '"pod":"default/p1"' '"result":"Scheduled","node":"n1"'
has '"t":2,' '"pod":"default/p2"' '"result":"Scheduled","node":"n1"'
has '"t":3,' '"pod":"default/p3"' "$nofit"

# An extended resource backed by a DeviceClass: NodeResourcesFit leaves it to DynamicResources,
# which allocates it through a claim it creates in PreBind (the fake API server names it from its
# generateName and delivers it at once). source: dynamicresources_test.go
# "extended-resource-name-with-resources" and "extended-resource-name-no-resource"
# (extendeddynamicresources.go, createExtendedResourceClaimInAPI).
name=extended-resource; replay $name
has '"t":1,' '"pod":"default/p"' '"result":"Scheduled","node":"n2"'
has '"type":"bind","pod":"default/p","node":"n2"'
has '"t":2,' '"pod":"default/q"' "$nofit"

# Many devices, pools and nodes (GPUs per node, a network-attached NIC pool on all nodes, a
# matchAttribute constraint, shared claims): the allocator's choices must be the same in every run
# (replay compares two). source: the incubating allocator sorts pools and slices
# (structured/internal/incubating/pools_incubating.go, sortPoolsByID, sortSlicesByName).
name=many-devices; replay $name
[ "$(grep -c '"type":"bind"' "$log")" -ge 15 ] || fail "many-devices: fewer than 15 bindings: $(cat "$log")"
hasnt '"result":"Error"'
echo PASS
