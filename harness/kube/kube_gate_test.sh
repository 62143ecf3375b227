#!/usr/bin/env bash
# Every corpus trace replayed by the reference and by the real kube-scheduler v1.27.8 (the bundled
# adapter, found by `kube:1.27`), and by the README's example adapter built from a user's module:
# `schedcheck gate` must find them equivalent (exit 0; soft divergences fail by default).
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
schedcheck="$root/harness/cli/schedcheck"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}"

echo "== kube:1.27"
"$schedcheck" gate --candidate kube:1.27 --corpus "$root/traces/corpus" \
  --junit "$out/kube-1.27.junit.xml" --markdown "$out/kube-1.27.md"

echo "== the example CreationDelay adapter (harness/kube/examples/creation-delay)"
"$schedcheck" gate --candidate "exec:$root/harness/kube/creation-delay-adapter-1.27" \
  --corpus "$root/traces/corpus" --markdown "$out/creation-delay.md"

# The gate must be able to fail: a build whose NodeResourcesFit scores MostAllocated places pods
# elsewhere than the reference on the basic workload.
config="$out/most-allocated.yaml"
cat > "$config" <<'YAML'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
YAML
if "$schedcheck" replay "$root/traces/corpus/scheduling-basic.jsonl" --config "$config" --candidate kube:1.27 \
     --quiet --jsonl "$out/most.jsonl" &&
   "$schedcheck" replay "$root/traces/corpus/scheduling-basic.jsonl" --quiet --jsonl "$out/ref.jsonl" &&
   "$schedcheck" diff "$out/ref.jsonl" "$out/most.jsonl" > "$out/most.diff"; then
  echo "FAIL: MostAllocated through kube:1.27 was found equivalent to the reference's LeastAllocated" >&2
  exit 1
fi
grep -q "DIVERGENT" "$out/most.diff" || { echo "FAIL: no divergence reported"; cat "$out/most.diff"; exit 1; }
# kube-scheduler v1.37.2 replays every corpus trace to the end, twice with the same bytes, and
# equivalently to the reference at compatibility level 1.37.
echo "== kube:1.37"
for trace in "$root"/traces/corpus/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  config=()
  [ -f "${trace%.jsonl}.config.yaml" ] && config=(--config "${trace%.jsonl}.config.yaml")
  for run in 1 2; do
    "$schedcheck" replay "$trace" "${config[@]}" --candidate kube:1.37 --quiet --jsonl "$out/$name.137.$run.jsonl" ||
      { echo "FAIL: kube:1.37 did not replay $name completely" >&2; exit 1; }
  done
  cmp -s "$out/$name.137.1.jsonl" "$out/$name.137.2.jsonl" ||
    { echo "FAIL: kube:1.37 is not deterministic on $name" >&2; exit 1; }
  [ -s "$out/$name.137.1.jsonl" ] || { echo "FAIL: kube:1.37 decided nothing on $name" >&2; exit 1; }
  "$schedcheck" replay "$trace" "${config[@]}" --compat 1.37 --quiet --jsonl "$out/$name.ref137.jsonl"
  "$schedcheck" diff "$out/$name.ref137.jsonl" "$out/$name.137.1.jsonl" > "$out/$name.137.diff" ||
    { echo "FAIL: the reference at 1.37 and kube:1.37 diverge on $name" >&2; head -5 "$out/$name.137.diff" >&2; exit 1; }
done
echo "== gate --compat 1.37 --candidate kube:1.37"
"$schedcheck" gate --candidate kube:1.37 --compat 1.37 --corpus "$root/traces/corpus" \
  --junit "$out/kube-1.37.junit.xml" --markdown "$out/kube-1.37.md"
echo "PASS"
# A capture whose input updates name no node for a pod the replay bound already (the label change
# of a preemptor the cluster bound later): nodeName is immutable once set, so both kube-schedulers
# keep their placement, as the reference does, instead of exiting on a corrupted cache.
echo "== a capture with updates of pods the replay bound"
"$schedcheck" import --from watch "$root/traces/importers/testdata/watch/preemption.json" -q \
  -o "$out/preemption.trace"
for kube in 1.27 1.37; do
  "$schedcheck" replay "$out/preemption.trace" --compat "$kube" --candidate "kube:$kube" --quiet \
    --jsonl "$out/preemption.$kube.jsonl" ||
    { echo "FAIL: kube:$kube did not replay the preemption capture completely" >&2; exit 1; }
  "$schedcheck" replay "$out/preemption.trace" --compat "$kube" --quiet --jsonl "$out/preemption.ref$kube.jsonl"
  "$schedcheck" diff "$out/preemption.ref$kube.jsonl" "$out/preemption.$kube.jsonl" > "$out/preemption.$kube.diff" ||
    { echo "FAIL: the reference and kube:$kube diverge on the preemption capture" >&2; head -5 "$out/preemption.$kube.diff" >&2; exit 1; }
done
