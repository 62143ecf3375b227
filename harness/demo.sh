#!/usr/bin/env bash
# The README's first command: runs schedcheck's main jobs on data it brings along.
set -euo pipefail
bin="${RUNFILES_DIR:-$0.runfiles}/schedcheck/harness/cli/schedcheck"
[ -x "$bin" ] || bin="$(dirname "$0")/cli/schedcheck"
cases="${RUNFILES_DIR:-$0.runfiles}/schedcheck/reference/conformance/cases"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

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
