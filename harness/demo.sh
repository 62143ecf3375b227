#!/usr/bin/env bash
# The README's first command: runs schedcheck's main jobs on data it brings along, in about 60
# lines of output, each step saying what it showed.
set -euo pipefail
bin="${RUNFILES_DIR:-$0.runfiles}/schedcheck/harness/cli/schedcheck"
[ -x "$bin" ] || bin="$(dirname "$0")/cli/schedcheck"
runfiles="${RUNFILES_DIR:-$0.runfiles}/schedcheck"
cases="$runfiles/reference/conformance/cases"
corpus="$runfiles/traces/corpus"
# Absolute paths: the steps run inside the work directory.
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
bin=$(abs "$bin") cases=$(abs "$cases") corpus=$(abs "$corpus")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Upstream kube-scheduler's own log (it logs, as errors, failures it handles itself) goes to one
# file for the whole demo instead of between the steps.
if [ -z "${SCHEDCHECK_KUBE_LOG:-}" ]; then
  export SCHEDCHECK_KUBE_LOG="${TMPDIR:-/tmp}/schedcheck-demo-kube.log"
  : > "$SCHEDCHECK_KUBE_LOG"
fi
cd "$work"

echo "== 1. schedcheck replay: the bundled scenario traces/corpus/unblock.jsonl against the reference"
echo "   (a node added, a blocking pod deleted, a taint removed, a gate lifted; the example"
echo "   CreationDelay plugin, which registers no cluster events, rejects one pod once)"
"$bin" replay "$corpus/unblock.jsonl" --config "$corpus/unblock.config.yaml" --jsonl decisions.jsonl
echo "   decision log (JSON Lines, docs/FORMATS.md): $(wc -l < decisions.jsonl) records; the bindings:"
grep '"type":"bind"' decisions.jsonl | sed 's/^/   /'
echo "-> Each pending pod was moved to activeQ by the event that could make it schedulable"
echo "   (NodeTaintChange, NodeAdd, AssignedPodDelete, the gate lifted) and bound at that instant;"
echo "   default/delayed waited for the 5-minute leftover flush: CreationDelay registers no event."
echo

echo "== 2. the same trace through the REAL kube-scheduler v1.27.8 (kube:1.27), then schedcheck diff"
"$bin" replay "$corpus/unblock.jsonl" --config "$corpus/unblock.config.yaml" --candidate kube:1.27 \
  --quiet --jsonl real.jsonl
"$bin" diff decisions.jsonl real.jsonl | tail -1
echo "-> Upstream's scheduler made the same decisions, attempt by attempt and move by move."
echo

echo "== 3. schedcheck gate --candidate kube:1.27: every corpus trace, reference vs the real scheduler"
"$bin" gate --candidate kube:1.27 --corpus "$corpus" > gate.txt || { cat gate.txt; exit 1; }
tail -1 gate.txt
echo "-> No divergence on any trace: the gate a scheduler change would have to pass."
echo "   (upstream's own log, warnings and errors it handles itself: $SCHEDCHECK_KUBE_LOG)"
echo

echo "== 4. schedcheck trace sample + trace info + trace cat: a small trace generated in process"
"$bin" trace sample sample.trace
"$bin" trace info sample.trace | sed 's/^/   /'
"$bin" trace cat sample.trace > sample.jsonl
echo "   its first 3 records after the header, as JSON Lines:"
sed -n 2,4p sample.jsonl | cut -c1-150 | sed 's/^/   /'
echo "-> Traces are zstd frames of protobuf records; trace cat shows them with Kubernetes field names."
echo

echo "== 5. schedcheck check: the project's conformance cases against the reference"
"$bin" check "$cases" > check.txt || { cat check.txt; exit 1; }
tail -1 check.txt
echo "-> Every case (filter, score, schedule, preempt, queue; v1.27 and v1.37 rules) passed."
echo
echo "Next: the five-minute tour in README.md; every command: harness/cli/COMMANDS.md."
