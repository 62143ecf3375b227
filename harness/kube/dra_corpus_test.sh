#!/usr/bin/env bash
# The DRA corpus traces (traces/corpus/dra/, waiting for the reference's DynamicResources model)
# through the real kube-scheduler v1.37.2: each replayed twice by `--candidate kube:1.37` with
# seed 1 gives its stored log `<name>.kube-1.37.jsonl` byte for byte, and each log binds some pods
# and has some refused by DynamicResources (so the stored log is not a trivial one).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
out="${TEST_TMPDIR:-$(mktemp -d)}"
export SCHEDCHECK_KUBE_LOG="$out/kube.log"
fail() { echo "FAIL: $*" >&2; exit 1; }
n=0
for trace in "$root"/traces/corpus/dra/*.jsonl; do
  case "$trace" in *.kube-1.37.jsonl) continue ;; esac
  name=$(basename "$trace" .jsonl)
  want="$root/traces/corpus/dra/$name.kube-1.37.jsonl"
  [ -f "$want" ] || fail "$name: no stored log $name.kube-1.37.jsonl"
  for run in 1 2; do
    "$sc" replay "$trace" --candidate kube:1.37 --seed 1 -q --jsonl "$out/$name.$run.jsonl" ||
      fail "$name: replay exited $?"
    cmp -s "$out/$name.$run.jsonl" "$want" ||
      fail "$name: run $run differs from $name.kube-1.37.jsonl (regenerate as traces/corpus/dra/README.md says if intended): $(diff "$want" "$out/$name.$run.jsonl" | head -5)"
  done
  grep -q '"type":"bind"' "$want" || fail "$name: no pod bound"
  grep -q '"unschedulablePlugins":\["DynamicResources"\]' "$want" || fail "$name: no pod refused by DynamicResources"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no DRA corpus trace"
echo "PASS: $n DRA corpus traces replay to their stored kube-scheduler v1.37.2 logs"
