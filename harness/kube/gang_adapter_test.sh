#!/usr/bin/env bash
# Pod groups through the real kube-scheduler v1.37.2 (`--candidate kube:1.37` with
# `--feature-gates GenericWorkload=true`): the hand-written gang traces of testdata/gang/ replay
# through upstream's PodGroup informer handlers, GangScheduling (PreEnqueue, Permit, its
# QueueingHints), the queue's pod-group entities and schedule_one_podgroup.go's pod-group cycles,
# with Permit's waits and timeouts on the virtual clock (harness/kube/v1.37/README.md, "Pod
# groups"). Each trace is replayed twice and the two decision logs must be byte-identical; each
# expectation names the upstream test or code it follows (`source:`, paths in k8s.io/kubernetes
# v1.37.2: plugin = pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go, it =
# test/integration/scheduler/podgroup/podgroup_test.go).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
data="$root/harness/kube/testdata/gang"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_KUBE_LOG="$out/kube.log"
fail() { echo "FAIL: $*" >&2; exit 1; }

# replay NAME [HORIZON]: the trace through kube:1.37 twice; $log is the first decision log.
replay() {
  name=$1
  for run in 1 2; do
    "$sc" replay "$data/$name.jsonl" --candidate kube:1.37 --feature-gates GenericWorkload=true \
      --horizon "${2:-60}" -q --jsonl "$out/$name.$run.jsonl" || fail "$name: replay exited $?"
  done
  cmp -s "$out/$name.1.jsonl" "$out/$name.2.jsonl" ||
    fail "$name: two replays differ: $(diff "$out/$name.1.jsonl" "$out/$name.2.jsonl" | head -5)"
  log="$out/$name.1.jsonl"
}
has() {  # a decision-log line containing every given fragment, in this order
  local pattern="" f
  for f in "$@"; do pattern+="$(printf '%s' "$f" | sed 's/[][\.*^$/]/\\&/g').*"; done
  grep -q -- "$pattern" "$log" || fail "$name: no record with $* in: $(cat "$log")"
}
hasnt() {
  if grep -qF -- "$1" "$log"; then fail "$name: unexpected $1 in: $(cat "$log")"; fi
}
count() {  # count FRAGMENT N: exactly N lines contain FRAGMENT
  [ "$(grep -cF -- "$1" "$log" || true)" = "$2" ] || fail "$name: expected $2 lines with $1 in: $(cat "$log")"
}
# line FRAGMENT: the line number of the first line containing FRAGMENT.
line() { grep -nF -- "$1" "$log" | head -1 | cut -d: -f1; }

# A member arriving late completes the gang. source: it "gang waits for quorum to start, then
# schedules"; plugin PreEnqueue ("waiting for minCount pods from a gang to appear in scheduling
# queue": the first two are held, never attempted) and isSchedulableAfterPodAdded (the third pod's
# add requeues them); the pod-group cycle assumes all three, Permit makes the first two wait
# (ScheduledPodsCount < minCount) and the third allows every assumed member (permitPodGroup):
# the allowing pod binds first, then the waiting ones in the order they began to wait.
name=late-member; replay $name
has '"t":1,' '"pod":"default/a","from":"none","to":"unschedulable","cause":"UnscheduledPodAdd"'
has '"t":5,' '"pod":"default/a","from":"unschedulable","to":"active","cause":"UnscheduledPodAdd"'
count '"type":"attempt"' 3
count '"result":"Scheduled"' 3
has '"t":5,' '"type":"bind","pod":"default/c"'
[ "$(line '"type":"bind","pod":"default/c"')" -lt "$(line '"type":"bind","pod":"default/a"')" ] &&
  [ "$(line '"type":"bind","pod":"default/a"')" -lt "$(line '"type":"bind","pod":"default/b"')" ] ||
  fail "$name: binds not in the order c (allowing), a, b (waiting): $(grep bind "$log")"

# Fewer pods than minCount: held at PreEnqueue for ever, never attempted. source: plugin
# preEnqueueHierarchiesDisabled (allPodsCount < minCount: UnschedulableAndUnresolvable).
name=below-min; replay $name
has '"pod":"default/a","from":"none","to":"unschedulable"'
hasnt '"type":"attempt"'

# Two gangs that fit only one at a time: the first popped gang is placed whole, the other is
# unschedulable as a whole and retried with backoff, never partly bound. source: it "two gangs
# competing for the same resources shouldn't deadlock"; plugin PlacementFeasible ("minCount (%d)
# cannot be satisfied: %d scheduled, %d remaining").
name=competing; replay $name
for p in a1 a2 a3; do has '"t":1,' "\"type\":\"bind\",\"pod\":\"default/$p\""; done
hasnt '"type":"bind","pod":"default/b'
has '"t":1,' '"pod":"default/b3","attempt":1,"result":"Unschedulable","unschedulablePlugins":["GangScheduling"],"message":"minCount (3) cannot be satisfied: 1 scheduled, 1 remaining"'
has '"pod":"default/b1","attempt":2,"result":"Unschedulable"'

# Pods before their PodGroup, then resources: unschedulable while a blocker holds the space, the
# whole gang scheduled once it is deleted. source: it "gang waits for pod group, then for
# resources, then schedules" (PreEnqueue: "waiting for pods's pod group ... to appear";
# isSchedulableAfterPodGroupAdded).
name=waits-for-resources; replay $name
hasnt '"t":1,"type":"attempt"'
has '"t":2,' '"pod":"default/a","attempt":1,"result":"Unschedulable"' 'pod group is unschedulable, minCount (3) cannot be satisfied'
for p in a b c; do has '"t":4,' "\"type\":\"bind\",\"pod\":\"default/$p\""; done

# More pods than minCount with room for minCount: minCount are scheduled, the last one waits for
# space and is scheduled when it frees. source: it "minCount is scheduled, but one pod from a gang
# remain unschedulable until the blocked resources are released".
name=above-min; replay $name
for p in a b c; do has '"t":1,' "\"type\":\"bind\",\"pod\":\"default/$p\""; done
has '"t":1,' '"pod":"default/d","attempt":1,"result":"Unschedulable","unschedulablePlugins":["NodeResourcesFit"]'
has '"t":6,' '"type":"bind","pod":"default/d"'

# A held member deleted: the gang falls below minCount again and waits for two more members.
# source: plugin preEnqueueHierarchiesDisabled (AllPodsCount counts the pods present; a deleted
# pod leaves the pod group's state: backend/cache/cache.go RemovePodGroupMember).
name=delete-member; replay $name
has '"t":2,' '"pod":"default/b","from":"unschedulable","to":"none","cause":"PodDelete"'
hasnt '"t":3,"type":"attempt"'
for p in a c d; do has '"t":5,' "\"type\":\"bind\",\"pod\":\"default/$p\""; done

# minCount lowered by a PodGroup update releases a held gang. source: it "gang pods are
# unschedulable due to lack of quorum, then scheduled when minCount is decreased"; plugin
# isSchedulableAfterPodGroupUpdated.
name=mincount-decreased; replay $name
hasnt '"t":1,"type":"attempt"'
for p in a b; do has '"t":3,' "\"type\":\"bind\",\"pod\":\"default/$p\""; done

# A gang that preempts: pod-group preemption deletes both low-priority pods in the failed cycle,
# and the gang is scheduled whole after its backoff. source: it "gang schedules with
# workload-aware preemption"; schedule_one_podgroup.go (waitingOnPreemption: the members go back
# with their nominations).
name=preemption; replay $name
has '"t":1,' '"pod":"default/a","attempt":1,"result":"Unschedulable"' '"nominatedNode":"n1","victims":["default/low1","default/low2"]'
has '"t":1,' '"pod":"default/b","attempt":1,"result":"Unschedulable"' '"nominatedNode":"n2"'
has '"t":3,' '"type":"bind","pod":"default/a","node":"n1"'
has '"t":3,' '"type":"bind","pod":"default/b","node":"n2"'

# A member deleted while the pod-group cycle is in flight (duringAttempt): the remaining members
# wait at Permit for a quorum that never comes and are rejected by GangScheduling's timeout, 5
# minutes of virtual time later. source: plugin permitTimeoutDuration and permitPodGroup (Wait);
# framework/runtime/waiting_pods_map.go newWaitingPod ("rejected due to timeout after waiting %v
# at plugin %v"); framework/runtime/framework_test.go "WaitOnPermit - Wait Timeout".
timeout='"result":"Unschedulable","unschedulablePlugins":["GangScheduling"],"message":"0/1 nodes are available: 1 rejected due to timeout after waiting 5m0s at plugin GangScheduling."'
name=permit-timeout; replay $name 400
has '"t":1,' '"pod":"default/a","attempt":1,"result":"Scheduled","node":"n1"'
hasnt '"type":"bind"'
has '"t":301,' '"pod":"default/a","attempt":1,' "$timeout"
has '"t":301,' '"pod":"default/a","from":"inflight","to":"unschedulable"'

# The same, and the waiting member deleted at t=100 s: the deletion rejects the waiting pod at
# once. source: eventhandlers.go handleAssumedPodDeletion (fwk.RejectWaitingPod: Reject("",
# "removed"), framework/runtime/framework.go).
name=delete-waiting; replay $name 400
has '"t":100,' '"pod":"default/a","attempt":1,"result":"Unschedulable"' '"message":"0/1 nodes are available: 1 removed."'
has '"t":100,' '"pod":"default/a","from":"inflight","to":"none","cause":"Done"'
hasnt '"t":301,"type":"attempt","pod":"default/a"'
echo PASS
