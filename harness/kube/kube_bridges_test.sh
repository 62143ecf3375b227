#!/usr/bin/env bash
# The bridges CI does not build (manual: it compiles kube-scheduler v1.36.4, minutes when Go's
# build cache is cold): `kube:1.36` replays corpus traces to the end, twice with the same bytes,
# its decision log names the build; a gate of kube:1.36 against kube:1.37 runs and reports; a
# kube:1.36 side at --compat 1.37 is refused up front (exit 2), and the reference compared with
# kube:1.36 says that the reference does not model 1.36.
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
sc="$root/harness/cli/schedcheck"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }
export SCHEDCHECK_KUBE_LOG=stderr

corpus="$out/corpus"
mkdir -p "$corpus"
for name in scheduling-basic preemption-basic unblock pod-affinity storage-basic; do
  for f in "$root/traces/corpus/$name".*; do cp "$f" "$corpus/"; done
done

for name in scheduling-basic preemption-basic unblock pod-affinity storage-basic; do
  trace="$corpus/$name.jsonl"
  config=()
  [ -f "$corpus/$name.config.yaml" ] && config=(--config "$corpus/$name.config.yaml")
  for run in 1 2; do
    "$sc" replay "$trace" "${config[@]}" --candidate kube:1.36 --quiet --jsonl "$out/$name.136.$run.jsonl" \
      2>"$out/$name.136.err" || { cat "$out/$name.136.err" >&2; fail "kube:1.36 did not replay $name completely"; }
  done
  [ -s "$out/$name.136.1.jsonl" ] || fail "kube:1.36 decided nothing on $name"
  cmp -s "$out/$name.136.1.jsonl" "$out/$name.136.2.jsonl" || fail "kube:1.36 is not deterministic on $name"
  "$sc" replay "$trace" "${config[@]}" --candidate kube:1.37 --quiet --jsonl "$out/$name.137.jsonl" ||
    fail "kube:1.37 did not replay $name completely"
done
"$sc" replay "$corpus/scheduling-basic.jsonl" --candidate kube:1.36 --quiet -o "$out/named.dec"
"$sc" trace info "$out/named.dec" >"$out/info.txt"
grep -q '^label: scheduler=kube-scheduler v1.36.4 (bridge 1.36)' "$out/info.txt" ||
  { cat "$out/info.txt" >&2; fail "the decision log does not name v1.36.4 and its bridge"; }

# Build against build: a report either way (0 equivalent, 1 divergent), never a refusal or an
# incomplete replay.
status=0
"$sc" gate --baseline kube:1.36 --candidate kube:1.37 --corpus "$corpus" --markdown "$out/136-137.md" \
  >"$out/136-137.txt" 2>"$out/136-137.err" || status=$?
[ "$status" = 0 ] || [ "$status" = 1 ] ||
  { cat "$out/136-137.txt" "$out/136-137.err" >&2; fail "gate kube:1.36 vs kube:1.37 exited $status"; }
grep -q "of 5 traces passed (candidate kube:1.37, baseline kube:1.36)" "$out/136-137.txt" ||
  { cat "$out/136-137.txt" >&2; fail "the gate does not report the 5 traces of both builds"; }
if grep -q "^ERROR " "$out/136-137.txt"; then fail "a trace was not replayed by both builds"; fi

# A level 1.36 cannot replay: refused before any replay, naming the spec and the way out.
status=0
"$sc" gate --candidate kube:1.36 --compat 1.37 --corpus "$corpus" >"$out/c137.txt" 2>"$out/c137.err" || status=$?
[ "$status" = 2 ] || fail "--compat 1.37 with kube:1.36 exited $status, want 2"
grep -q -- "--compat 1.37: kube:1.36 runs kube-scheduler 1.36, which replays traces of level 1.27" "$out/c137.err" ||
  { cat "$out/c137.err" >&2; fail "the refusal does not explain the level"; }
# The reference against kube:1.36 runs, with a note that the reference does not model 1.36.
status=0
"$sc" gate --candidate kube:1.36 --corpus "$corpus" >"$out/ref.txt" 2>"$out/ref.err" || status=$?
[ "$status" = 0 ] || [ "$status" = 1 ] || { cat "$out/ref.err" >&2; fail "gate --candidate kube:1.36 exited $status"; }
grep -q "note: the reference models kube-scheduler 1.27 (and 1.37), not 1.36" "$out/ref.err" ||
  { cat "$out/ref.err" >&2; fail "no note about the reference's level"; }
echo "PASS: kube:1.36 complete and deterministic, named; gated against kube:1.37; --compat 1.37 refused"
