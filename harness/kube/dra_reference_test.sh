#!/usr/bin/env bash
# The reference's DynamicResources (reference/dra, reference/plugins/dynamic_resources) against
# the real kube-scheduler v1.37.2: each hand-written DRA trace of testdata/dra/ that the model
# covers replays equivalently through the reference and `--candidate kube:1.37` (`schedcheck diff`
# exits 0); each trace using what the model does not cover is refused by the reference as bad
# input (exit 2) naming the object and field. prioritized-score.jsonl: prioritized lists whose
# DynamicResources Score decides the node (without it pref-1 would tie on three nodes).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
data="$root/harness/kube/testdata/dra"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_KUBE_LOG="$out/kube.log"
fail() { echo "FAIL: $*" >&2; exit 1; }

covered="gpu-one-node cel-selector fits-nowhere shared-claim claim-template postfilter-deallocation many-devices
  partitions consumable-capacity consumable-capacity-policies prioritized-score device-taints
  partitions-prioritized"
for name in $covered; do
  "$sc" replay "$data/$name.jsonl" --horizon 60 -q --jsonl "$out/$name.ref.jsonl" ||
    fail "$name: the reference's replay exited $?"
  "$sc" replay "$data/$name.jsonl" --candidate kube:1.37 --horizon 60 -q \
    --jsonl "$out/$name.kube.jsonl" || fail "$name: kube:1.37's replay exited $?"
  if ! "$sc" diff "$out/$name.ref.jsonl" "$out/$name.kube.jsonl" >"$out/$name.diff" 2>&1; then
    fail "$name: the reference and kube:1.37 differ: $(head -30 "$out/$name.diff")"
  fi
  grep -q '"type":"attempt"' "$out/$name.ref.jsonl" || fail "$name: no attempt in the reference's log"
done

# Not modelled: a clear input error naming the object and the field.
refused() {  # NAME FRAGMENT
  local rc=0
  "$sc" replay "$data/$1.jsonl" --horizon 60 -q --jsonl "$out/$1.ref.jsonl" 2>"$out/$1.err" || rc=$?
  [ "$rc" = 2 ] || fail "$1: the reference exited $rc, want 2 (input error): $(cat "$out/$1.err")"
  grep -qF -- "$2" "$out/$1.err" || fail "$1: the error does not name $2: $(cat "$out/$1.err")"
  grep -qF "is not modelled by schedcheck" "$out/$1.err" || fail "$1: $(cat "$out/$1.err")"
}
refused binding-conditions "bindingConditions"
refused extended-resource "spec.extendedResourceName"

# A counter that is not a quantity is bad input too (the API server accepts none).
sed 's/"value":"40Gi"/"value":"40Gx"/' "$data/partitions.jsonl" >"$out/bad-counter.jsonl"
rc=0
"$sc" replay "$out/bad-counter.jsonl" -q --jsonl "$out/bad-counter.ref.jsonl" 2>"$out/bad-counter.err" || rc=$?
[ "$rc" = 2 ] || fail "bad-counter: the reference exited $rc, want 2: $(cat "$out/bad-counter.err")"
grep -qF 'spec.sharedCounters[0].counters[memory].value: invalid quantity "40Gx"' "$out/bad-counter.err" ||
  fail "bad-counter: $(cat "$out/bad-counter.err")"
echo PASS
