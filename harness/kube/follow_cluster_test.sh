#!/usr/bin/env bash
# Follow-the-cluster replays (harness/replay/follow_cluster.h) through every kind of build: the
# reference in process, `schedcheck serve` over the protocol, and the real kube-scheduler v1.27.8
# and v1.37.2. The capture (harness/replay/testdata/follow-capture.jsonl) observes four bindings:
# one where every build also puts the pod, one on the other node of a two-node tie (so the pod is
# deleted and added again on the cluster's node), one of a pod no node fits in the replay, and one
# in the instant the pod is created (assigned before any attempt). Every build must classify them
# the same way, place the next pod where the cluster's placement left room, and make the
# reference's decisions.
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
capture="$root/harness/replay/testdata/follow-capture.jsonl"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_KUBE_LOG="$out/kube.log"
want="following the cluster: 4 bindings observed: 1 same node, 1 in the replay's tie set, 1 unschedulable in the replay, 1 not attempted by the replay"
fail() { echo "FAIL: $*" >&2; exit 1; }

check() {  # name, then the replay's extra arguments
  local name=$1; shift
  echo "== $name"
  "$sc" replay "$capture" --follow-cluster --jsonl "$out/$name.jsonl" "$@" > "$out/$name.txt" ||
    fail "$name: replay exited $?: $(cat "$out/$name.txt")"
  grep -qxF "$want" "$out/$name.txt" || fail "$name: no line '$want' in: $(cat "$out/$name.txt")"
  grep -qF "default/huge at t=4.5s: the cluster bound it to n2; the replay found no node" \
    "$out/$name.txt" || fail "$name: the unschedulable pod is not listed"
  # small moved to n2 as in the cluster: whole (3.5 cpu) fits only on n1.
  grep -qF '"type":"bind","pod":"default/whole","node":"n1"' "$out/$name.jsonl" ||
    fail "$name: whole was not bound to n1: $(cat "$out/$name.jsonl")"
  if grep -qF '"type":"attempt","pod":"default/late"' "$out/$name.jsonl"; then
    fail "$name: late was attempted although the cluster bound it as it was created"
  fi
  # huge was assigned by the cluster's binding: it leaves the queue, no retry at the 5-minute flush.
  [ "$(grep -cF '"type":"attempt","pod":"default/huge"' "$out/$name.jsonl")" = 1 ] ||
    fail "$name: huge was attempted more than once"
}

check reference
check serve --scheduler-cmd "$sc serve"
check kube-1.27 --candidate kube:1.27 --compat 1.27
check kube-1.37 --candidate kube:1.37
for name in serve kube-1.37; do
  "$sc" diff "$out/reference.jsonl" "$out/$name.jsonl" || fail "$name differs from the reference"
done
"$sc" replay "$capture" --follow-cluster --compat 1.27 --jsonl "$out/reference-1.27.jsonl" -q
"$sc" diff "$out/reference-1.27.jsonl" "$out/kube-1.27.jsonl" ||
  fail "kube-1.27 differs from the reference at 1.27"

# Without --follow-cluster the observed bindings are ignored: small stays on n1, so whole goes to
# n2 — the drift following the cluster removes.
"$sc" replay "$capture" --jsonl "$out/open.jsonl" -q
grep -qF '"type":"bind","pod":"default/whole","node":"n2"' "$out/open.jsonl" ||
  fail "the open-loop replay did not place whole on n2: $(cat "$out/open.jsonl")"
echo PASS
