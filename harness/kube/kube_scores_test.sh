#!/usr/bin/env bash
# Recorded scores (replay --scores K, docs/FORMATS.md#scores) checked against upstream: the
# reference and the real kube-scheduler (kube:1.27, kube:1.37) replay the scoring traces of the
# corpus with the same top-K totals and per-plugin scores, at both levels. The JSON Lines logs are
# compared byte for byte (the canonical order makes that possible), and `diff --scores=fail` must
# agree.
set -euo pipefail
root="$TEST_SRCDIR/schedcheck"
schedcheck="$root/harness/cli/schedcheck"
out="${TEST_UNDECLARED_OUTPUTS_DIR:-$(mktemp -d)}"

for level in 1.27 1.37; do
  # multipoint-overrides runs its configuration, under which v1.27.8 lists TaintToleration twice.
  for name in scoring-heterogeneous default-spreading multipoint-overrides; do
    trace="$root/traces/corpus/$name.jsonl"
    config=()
    [ -f "$root/traces/corpus/$name.config.yaml" ] &&
      config=(--config "$root/traces/corpus/$name.config.yaml")
    ref="$out/$name.$level.ref.trace"
    kube="$out/$name.$level.kube.trace"
    "$schedcheck" replay "$trace" "${config[@]}" --compat "$level" --scores 5 --quiet -o "$ref" \
      --jsonl "$out/$name.$level.ref.jsonl" 2> /dev/null
    "$schedcheck" replay "$trace" "${config[@]}" --compat "$level" --scores 5 \
      --candidate "kube:$level" --quiet -o "$kube" --jsonl "$out/$name.$level.kube.jsonl" 2> /dev/null
    grep -q '"scores":\[{"node"' "$out/$name.$level.kube.jsonl" ||
      { echo "FAIL: kube:$level recorded no scores on $name" >&2; exit 1; }
    cmp "$out/$name.$level.ref.jsonl" "$out/$name.$level.kube.jsonl" ||
      { echo "FAIL: the reference and kube:$level record other decisions or scores on $name" >&2
        diff "$out/$name.$level.ref.jsonl" "$out/$name.$level.kube.jsonl" | head -10 >&2; exit 1; }
    "$schedcheck" diff --scores=fail "$ref" "$kube" > "$out/$name.$level.diff" ||
      { echo "FAIL: diff --scores=fail: $name at $level" >&2; cat "$out/$name.$level.diff" >&2; exit 1; }
    grep -q "score drift: 0 pods" "$out/$name.$level.diff" ||
      { echo "FAIL: no scores compared on $name at $level" >&2; cat "$out/$name.$level.diff" >&2; exit 1; }
    echo "$name at $level: $(grep 'score drift' "$out/$name.$level.diff")"
  done
done
