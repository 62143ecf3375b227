#!/usr/bin/env bash
# The README's first command: runs schedcheck's main jobs on data it brings along.
set -euo pipefail
bin="${RUNFILES_DIR:-$0.runfiles}/schedcheck/harness/cli/schedcheck"
[ -x "$bin" ] || bin="$(dirname "$0")/cli/schedcheck"
runfiles="${RUNFILES_DIR:-$0.runfiles}/schedcheck"
cases="$runfiles/reference/conformance/cases"
corpus="$runfiles/traces/corpus"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== schedcheck replay: the bundled scenario traces/corpus/unblock.jsonl (a node added, a blocking"
echo "   pod deleted, a taint removed, a gate lifted; the example CreationDelay plugin, which"
echo "   registers no events, keeps one pod waiting for the 5-minute flush)"
"$bin" replay "$corpus/unblock.jsonl" --config "$corpus/unblock.config.yaml" --jsonl "$work/decisions.jsonl"
echo "   decision log (JSON Lines, docs/FORMATS.md): $(wc -l < "$work/decisions.jsonl") records; the bindings:"
grep '"type":"bind"' "$work/decisions.jsonl"
echo
echo "== the same trace through the REAL kube-scheduler v1.27.8 (harness/kube adapter), and the diff"
"$bin" replay "$corpus/unblock.jsonl" --config "$corpus/unblock.config.yaml" --candidate kube:1.27 \
  --quiet --jsonl "$work/real.jsonl"
"$bin" diff "$work/decisions.jsonl" "$work/real.jsonl" | tail -1
echo "== schedcheck gate --candidate kube:1.27: every corpus trace, reference vs the real scheduler"
"$bin" gate --candidate kube:1.27 --corpus "$corpus" | tail -1
echo
echo "== schedcheck trace sample + trace info: a small trace generated in process"
"$bin" trace sample "$work/sample.trace"
"$bin" trace info "$work/sample.trace"
echo
echo "== schedcheck trace cat (first 3 records)"
"$bin" trace cat "$work/sample.trace" > "$work/sample.jsonl"
head -4 "$work/sample.jsonl"
echo
echo "== schedcheck check: the project's conformance cases against the reference (v1.27)"
"$bin" check "$cases" > "$work/check.txt" || { cat "$work/check.txt"; exit 1; }
tail -1 "$work/check.txt"
